package impl_test

import (
	"bytes"
	"errors"
	"slices"
	"testing"

	"github.com/phaser-go/phaser/internal/impl"
	pb "github.com/phaser-go/phaser/internal/testpb/testpbphaser"
	"github.com/phaser-go/phaser/payloadbuffer"
	"github.com/phaser-go/phaser/runtime"
)

// assignLists are the repeated scalar fields FuzzListAssign assigns: pb
// Repeated's packed fields of 8, 4 and 1 bytes, and pb Stamped's fixed
// array (phaser.array_size = 4) and repeated int32.
type assignLists struct {
	f64  runtime.List[float64]
	f32  runtime.List[float32]
	b    runtime.List[bool]
	i64  runtime.List[int64]
	fix  runtime.List[float64]
	i32  runtime.List[int32]
	root runtime.Msg
}

// newAssignLists makes the root of the lists in mem (Stamped's when
// stamped, else Repeated's).
func newAssignLists(mem []byte, stamped bool, opts runtime.Options) (assignLists, error) {
	if stamped {
		x, err := pb.NewStampedIn(mem, opts)
		return assignLists{fix: x.Covariance(), i32: x.Counts(), root: x.Msg()}, err
	}
	x, err := pb.NewRepeatedIn(mem, opts)
	return assignLists{f64: x.RDouble(), f32: x.RFloat(), b: x.RBool(), i64: x.RInt64(), root: x.Msg()}, err
}

// assignBoth assigns vs to a with List.Assign and to b with
// AssignCopyModel, and reports what each returned.
func assignBoth[T impl.Scalar](a, b runtime.List[T], vs []T) (bool, bool) {
	return a.Assign(vs...), impl.AssignCopyModel(impl.Repeated(b), vs)
}

// FuzzListAssign checks List.Assign's in-place case (AssignElems's
// straight line for a refill) against AssignCopy, which
// VectorAssign serves: two fixed buffers get the same operations decoded
// from the input, assigns of 0 to 19 elements to the lists of a Stamped or
// a Repeated root and bytes written behind the handles (a peer's, or a
// hostile payload continued in place), and after each the two report the
// same result, hold the same bytes and record the same failure. A buffer
// too small for the assigns fills up; the written bytes reach vector
// headers, length words and elements.
func FuzzListAssign(f *testing.F) {
	for _, seed := range []struct {
		stamped, scrub bool
		size           uint16
		ops            []byte
	}{
		{false, true, 1024, []byte{0, 9, 1, 0, 9, 2, 0, 4, 3, 0, 12, 4}},
		{false, false, 1024, []byte{1, 7, 1, 1, 3, 2, 2, 19, 3, 2, 5, 4, 3, 8, 1, 3, 2, 6}},
		{true, true, 512, []byte{4, 4, 1, 4, 4, 2, 4, 5, 3, 5, 10, 1, 5, 3, 4, 4, 2, 9}},
		{false, true, 400, []byte{0, 19, 1, 6, 60, 200, 0, 3, 2, 6, 61, 9, 0, 9, 3}},
		{true, true, 512, []byte{4, 4, 1, 6, 100, 0, 6, 101, 255, 4, 4, 7}},
		{false, true, 160, []byte{0, 19, 1, 1, 19, 2, 2, 19, 3, 3, 19, 4}},
	} {
		f.Add(seed.stamped, seed.scrub, seed.size, seed.ops)
	}
	f.Fuzz(func(t *testing.T, stamped, scrub bool, size uint16, ops []byte) {
		opts := runtime.Options{Version: payloadbuffer.V3, Scrub: payloadbuffer.ScrubOff}
		if scrub {
			opts.Scrub = payloadbuffer.ScrubOn
		}
		n := 128 + int(size)%2048
		mem := [2][]byte{make([]byte, n), make([]byte, n)}
		var ls [2]assignLists
		for k := range ls {
			var err error
			if ls[k], err = newAssignLists(mem[k], stamped, opts); err != nil {
				if errors.Is(err, runtime.ErrNoFit) {
					return // a buffer too small for the root
				}
				t.Fatal(err)
			}
		}
		for step := 0; len(ops) >= 3; step++ {
			op, count, seed := ops[0], int(ops[1])%20, ops[2]
			ops = ops[3:]
			if op%8 == 6 { // bytes written behind the handles, in both buffers
				at := (int(count)<<8 | int(op>>3)<<3 | int(seed)&7) % n
				mem[0][at], mem[1][at] = seed, seed
				continue
			}
			var a, b bool
			switch l0, l1 := ls[0], ls[1]; op % 8 {
			case 0:
				a, b = assignBoth(l0.f64, l1.f64, values(count, seed, func(i int) float64 { return float64(i) + 0.5 }))
			case 1:
				a, b = assignBoth(l0.f32, l1.f32, values(count, seed, func(i int) float32 { return float32(i) * 2 }))
			case 2:
				a, b = assignBoth(l0.b, l1.b, values(count, seed, func(i int) bool { return i%3 == 1 }))
			case 3:
				a, b = assignBoth(l0.i64, l1.i64, values(count, seed, func(i int) int64 { return -int64(i) << 40 }))
			case 4:
				a, b = assignBoth(l0.fix, l1.fix, values(count%6, seed, func(i int) float64 { return float64(i) }))
			default:
				a, b = assignBoth(l0.i32, l1.i32, values(count, seed, func(i int) int32 { return int32(i) - 7 }))
			}
			if a != b {
				t.Fatalf("step %d (op %d, %d elements): Assign reported %v, AssignCopy %v", step, op%8, count, a, b)
			}
			if !bytes.Equal(mem[0], mem[1]) {
				t.Fatalf("step %d (op %d, %d elements): the payloads differ after Assign and AssignCopy", step, op%8, count)
			}
			if e0, e1 := ls[0].root.Payload().Err(), ls[1].root.Payload().Err(); (e0 == nil) != (e1 == nil) || e0 != nil && e0.Error() != e1.Error() {
				t.Fatalf("step %d: errors differ: Assign %v, AssignCopy %v", step, e0, e1)
			}
		}
	})
}

// values returns count values of at(seed + i).
func values[T any](count int, seed byte, at func(int) T) []T {
	vs := make([]T, count)
	for i := range vs {
		vs[i] = at(int(seed) + i)
	}
	return vs
}

// TestAssignAsManyStoresOver: List.Assign of as many elements as the list
// holds stores each where List.Set would and relies on nothing else, so a
// block whose length word was written behind the handle (after Open) does
// not refuse it; the payload is the one a loop of Set makes. Both the
// in-line path (a compiled handle) and AssignCopy's (AssignCopyModel) are
// checked, in both formats.
func TestAssignAsManyStoresOver(t *testing.T) {
	f := impl.FindType("phasertest.Repeated").FieldByName("r_double")
	for _, v := range []payloadbuffer.Version{payloadbuffer.V2, payloadbuffer.V3} {
		x, err := pb.NewRepeatedIn(make([]byte, 1024), runtime.Options{Version: v})
		if err != nil {
			t.Fatal(err)
		}
		x.RDouble().Assign(1, 2, 3)
		open := func() (pb.Repeated, []byte) {
			mem := bytes.Clone(x.Bytes())
			mem = append(mem, make([]byte, 1024-len(mem))...)
			y, err := pb.OpenRepeated(mem)
			if err != nil {
				t.Fatal(err)
			}
			root := binaryLE.Uint32(mem[4:])
			data := binaryLE.Uint32(mem[root+f.Offset+4:])
			binaryLE.PutUint32(mem[data-8:], 0xFFFF) // the block's length word, behind the handle
			return y, mem
		}
		want := []float64{4, 5, 6}
		set, setMem := open()
		for i, e := range want {
			set.RDouble().Set(i, e)
		}
		for _, c := range []struct {
			name   string
			assign func(runtime.List[float64]) bool
		}{
			{"Assign", func(l runtime.List[float64]) bool { return l.Assign(want...) }},
			{"AssignCopy", func(l runtime.List[float64]) bool { return impl.AssignCopyModel(impl.Repeated(l), want) }},
		} {
			y, mem := open()
			if !c.assign(y.RDouble()) || y.Err() != nil {
				t.Errorf("%v, %s: refused (Err %v)", v, c.name, y.Err())
			}
			if got := y.RDouble().AppendTo(nil); !slices.Equal(got, want) {
				t.Errorf("%v, %s: the list holds %v, want %v", v, c.name, got, want)
			}
			if !bytes.Equal(mem, setMem) {
				t.Errorf("%v, %s: the payload differs from the one Set makes", v, c.name)
			}
		}
	}
}
