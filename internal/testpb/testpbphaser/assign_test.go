package testpbphaser_test

import (
	"slices"
	"testing"

	pb "github.com/phaser-go/phaser/internal/testpb/testpbphaser"
)

// TestListAssign checks List.Assign: it replaces the elements, longer,
// shorter or as many, keeps the storage when it holds them (a refill of the
// same length writes no new block and allocates nothing), and refuses what
// it cannot store, leaving the list as it was.
func TestListAssign(t *testing.T) {
	for _, mk := range makers(pb.NewRepeated, pb.NewRepeatedIn) {
		t.Run(mk.name, func(t *testing.T) {
			x := mk.new(t)
			l := x.RDouble()
			for _, vs := range [][]float64{{1, 2, 3}, {4, 5, 6, 7, 8}, {9, 10}, {}, {11, 12, 13, 14}} {
				if !l.Assign(vs...) {
					t.Fatalf("Assign(%v) failed: %v", vs, x.Err())
				}
				if got := l.AppendTo(nil); !slices.Equal(got, vs) {
					t.Fatalf("after Assign(%v): %v", vs, got)
				}
			}
			n := len(x.Bytes())
			vs := []float64{15, 16, 17, 18}
			if allocs := testing.AllocsPerRun(100, func() { l.Assign(vs...) }); allocs != 0 {
				t.Errorf("a refill of the same length allocates %v times", allocs)
			}
			if len(x.Bytes()) != n {
				t.Errorf("a refill of the same length grew the payload from %d to %d bytes", n, len(x.Bytes()))
			}
			r := must(pb.ReadRepeated(x.Bytes()))
			if got := r.RDouble().AppendTo(nil); !slices.Equal(got, vs) {
				t.Errorf("read back: %v", got)
			}
			if r.RDouble().Assign(1) || r.Err() == nil {
				t.Error("Assign on a read-only message succeeded or was not recorded")
			}
			if x.Failed() {
				t.Fatal(x.Err())
			}
		})
	}

	// A full fixed buffer refuses and leaves the list unchanged.
	x, err := pb.NewRepeatedIn(make([]byte, 4096))
	if err != nil {
		t.Fatal(err)
	}
	l := x.RInt64()
	if !l.Assign(1, 2) {
		t.Fatal(x.Err())
	}
	if l.Assign(make([]int64, 1000)...) {
		t.Error("Assign of 8000 bytes into a 4096-byte buffer succeeded")
	}
	if got := l.AppendTo(nil); !slices.Equal(got, []int64{1, 2}) {
		t.Errorf("after a refused Assign: %v", got)
	}
	if !x.Failed() {
		t.Error("the refused Assign was not recorded")
	}

	// A fixed array takes at most N.
	e := pb.NewEverything()
	if e.Grid().Assign(1, 2, 3, 4, 5) {
		t.Error("Assign of 5 elements to int32[4] succeeded")
	}
	if !e.Grid().Assign(1, 2, 3, 4) || !slices.Equal(e.Grid().AppendTo(nil), []int32{1, 2, 3, 4}) {
		t.Errorf("Assign of 4 elements to int32[4]: %v, %v", e.Grid().AppendTo(nil), e.Err())
	}
}
