package phaserimpl_test

import (
	"testing"

	"github.com/phaser-go/phaser/runtime/phaserimpl"
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
