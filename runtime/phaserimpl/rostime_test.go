package phaserimpl_test

import (
	"math"
	"testing"

	"github.com/phaser-go/phaser/runtime/phaserimpl"
	"github.com/phaser-go/phaser/types/known/durationpbphaser"
	"github.com/phaser-go/phaser/types/known/timestamppbphaser"
)

// TestROSTime checks ROSTime's in-line read of a compiled Timestamp (one
// built here, and one read from its bytes) against the accessors, with
// each field present and absent.
func TestROSTime(t *testing.T) {
	for _, c := range []struct {
		seconds int64
		nanos   int32
		set     bool
	}{{1700000000, 123456789, true}, {0, 5, true}, {7, 0, true}, {0, 0, false}} {
		ts := timestamppbphaser.NewTimestamp()
		if c.set {
			if c.seconds != 0 {
				ts.SetSeconds(c.seconds)
			}
			if c.nanos != 0 {
				ts.SetNanos(c.nanos)
			}
		}
		read, err := timestamppbphaser.ReadTimestamp(ts.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		for name, m := range map[string]timestamppbphaser.Timestamp{"built": ts, "read": read} {
			sec, nsec, ok := phaserimpl.ROSTime(phaserimpl.Msg(m))
			if !ok || sec != uint32(m.Seconds()) || nsec != uint32(m.Nanos()) || int64(sec) != c.seconds || int32(nsec) != c.nanos {
				t.Errorf("%s %d.%09d: ROSTime = %d, %d, %v", name, c.seconds, c.nanos, sec, nsec, ok)
			}
		}
	}
	if sec, nsec, ok := phaserimpl.ROSTime(phaserimpl.Msg{}); sec != 0 || nsec != 0 || !ok {
		t.Errorf("ROSTime(absent) = %d, %d, %v", sec, nsec, ok)
	}
}

// TestROSTimeIn checks the generated encoders' in-line path of a compiled
// Timestamp or Duration (ROSTimeIn, ROSDurationIn) against ROSTime and
// ROSDuration: where it reports true it gives their words, and it reports
// true for every canonical value in range (the common case it is for),
// each field present and absent.
func TestROSTimeIn(t *testing.T) {
	const ns = 1_000_000_000
	secs := []int64{0, 1, 7, 1700000000, math.MaxInt32, math.MaxInt32 + 1, math.MaxUint32, math.MaxUint32 + 1,
		-1, math.MinInt32, math.MinInt32 - 1, math.MinInt64, math.MaxInt64}
	nanos := []int32{0, 5, ns - 1, ns, -1, -ns + 1, math.MaxInt32, math.MinInt32}
	for _, s := range secs {
		for _, n := range nanos {
			for set := range 4 { // bit 0: seconds set, bit 1: nanos set
				ts, d := timestamppbphaser.NewTimestamp(), durationpbphaser.NewDuration()
				if set&1 != 0 {
					ts.SetSeconds(s)
					d.SetSeconds(s)
				}
				if set&2 != 0 {
					ts.SetNanos(n)
					d.SetNanos(n)
				}
				rs, rn := ts.Seconds(), ts.Nanos() // what the message holds
				for _, c := range []struct {
					name      string
					m         phaserimpl.Msg
					in        func([]byte, bool) (uint32, uint32, bool)
					ref       func(phaserimpl.Msg) (uint32, uint32, bool)
					canonical bool
				}{
					{"time", phaserimpl.Msg(ts), phaserimpl.ROSTimeIn, phaserimpl.ROSTime,
						rs >= 0 && rs <= math.MaxUint32 && rn >= 0 && rn < ns},
					{"duration", phaserimpl.Msg(d), phaserimpl.ROSDurationIn, phaserimpl.ROSDuration,
						rs >= math.MinInt32 && rs <= math.MaxInt32 && rn >= 0 && rn < ns},
				} {
					b, _, ok := c.m.CompiledBytes(20)
					if !ok {
						t.Fatalf("%s: not compiled", c.name)
					}
					sec, nsec, ok := c.in(b, true)
					wsec, wnsec, wok := c.ref(c.m)
					if ok != c.canonical || ok && (!wok || sec != wsec || nsec != wnsec) {
						t.Errorf("%s %d, %d (set %b): In = %d, %d, %v; want %v, and %d, %d, %v", c.name, s, n, set, sec, nsec, ok, c.canonical, wsec, wnsec, wok)
					}
					if _, _, ok := c.in(b, false); ok {
						t.Errorf("%s: In(b, false) reports true", c.name)
					}
					if _, _, ok := c.in(b[:19], true); ok {
						t.Errorf("%s: In of 19 bytes reports true", c.name)
					}
				}
			}
		}
	}
}
