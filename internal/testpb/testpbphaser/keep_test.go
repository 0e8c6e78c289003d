package testpbphaser_test

import (
	"bytes"
	"strings"
	"testing"

	pb "github.com/phaser-go/phaser/internal/testpb/testpbphaser"
	"github.com/phaser-go/phaser/payloadbuffer"
	"github.com/phaser-go/phaser/runtime"
)

// keepFill is fill c of TestClearKeepsBlocks: one long string, in f_string
// on even fills and in f_bytes on odd ones, so that every fill needs the
// room the block the last Clear kept holds.
func keepFill(x pb.Scalars, c int, long string) {
	x.SetFInt64(int64(c))
	if c%2 == 0 {
		x.SetFString(long)
	} else {
		x.SetFBytes([]byte(long))
	}
}

// TestClearKeepsBlocks checks the format-3 Clear of a root of only
// singular fields, which keeps the root's blocks for the fields set next
// (docs/format.md, section 8): in every fixed buffer size from the smallest
// one long string fits in, a loop that clears and then sets the string in
// the other field (so that the block kept is never taken back) fills
// every time, because an allocation that finds no room frees the kept
// blocks first; what each fill reads back is what it wrote, the cleared
// field reads absent, and an owned buffer does not grow from cycle to
// cycle.
func TestClearKeepsBlocks(t *testing.T) {
	long := strings.Repeat("0123456789abcdef", 40) // a 648-byte block: kept
	opts := runtime.Options{Version: payloadbuffer.V3}
	smallest := 0
	for n := 256; n < 4096; n += 8 {
		if x, err := pb.NewScalarsIn(make([]byte, n), opts); err == nil {
			if keepFill(x, 0, long); !x.Failed() {
				smallest = n
				break
			}
		}
	}
	if smallest == 0 {
		t.Fatal("one string fits in no buffer up to 4 KiB")
	}
	check := func(x pb.Scalars, n, c int) {
		t.Helper()
		if x.Failed() {
			t.Fatalf("%d bytes: fill %d after Clear: %v", n, c, x.Msg().Payload().Err())
		}
		r, err := pb.ReadScalars(bytes.Clone(x.Bytes()))
		if err != nil {
			t.Fatalf("%d bytes, fill %d: %v", n, c, err)
		}
		s, b := r.FString(), string(r.FBytes())
		if r.FInt64() != int64(c) || (c%2 == 0) != (s == long && b == "") || (c%2 == 1) != (b == long && s == "") {
			t.Fatalf("%d bytes, fill %d: f_int64 %d, f_string %d bytes, f_bytes %d bytes", n, c, r.FInt64(), len(s), len(b))
		}
	}
	for n := smallest; n < smallest+128; n += 8 {
		x, err := pb.NewScalarsIn(make([]byte, n), opts)
		if err != nil {
			t.Fatal(err)
		}
		for c := range 20 {
			x.Clear()
			if got := x.Bytes(); c > 0 && (bytes.Contains(got, []byte(long[:16])) || x.HasFString() || x.HasFBytes() || x.FInt64() != 0) {
				t.Fatalf("%d bytes: cleared before fill %d: the old string is still there", n, c)
			}
			keepFill(x, c, long)
			check(x, n, c)
		}
	}

	x := pb.NewScalars(opts)
	var grown int
	for c := range 100 {
		x.Clear()
		keepFill(x, c, long)
		check(x, 0, c)
		if c == 2 {
			grown = len(x.Bytes())
		} else if c > 2 && len(x.Bytes()) > grown {
			t.Fatalf("owned buffer: %d payload bytes at fill %d, %d at fill 2", len(x.Bytes()), c, grown)
		}
	}

	// The same shape refilled after each Clear takes its blocks back:
	// nothing allocates and the payload keeps its size.
	y := must(pb.NewScalarsIn(make([]byte, 4096), opts))
	refillScalars(y, 0)
	size := len(y.Bytes())
	if allocs := testing.AllocsPerRun(100, func() { y.Clear(); refillScalars(y, 1) }); allocs != 0 {
		t.Errorf("Clear and refill: %v allocations", allocs)
	}
	if len(y.Bytes()) != size || y.FString() != "rover-7 left wing" || string(y.FBytes()) != "0123456789" {
		t.Errorf("Clear and refill: %d payload bytes (first fill %d), f_string %q", len(y.Bytes()), size, y.FString())
	}
}
