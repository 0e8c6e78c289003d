package testpbphaser_test

import (
	"bytes"
	"slices"
	"testing"

	pb "github.com/phaser-go/phaser/internal/testpb/testpbphaser"
	"github.com/phaser-go/phaser/runtime"
)

// appendList is what every scalar list handle has for AppendTo's model.
type appendList[T any] interface {
	Len() int
	At(int) T
	AppendTo([]T) []T
}

// checkAppendTo requires AppendTo to append to a prefix what At returns
// for every index (its model), without allocating when dst has room.
func checkAppendTo[T comparable](t *testing.T, name string, l appendList[T], prefix T) {
	t.Helper()
	want := []T{prefix}
	for i := range l.Len() {
		want = append(want, l.At(i))
	}
	if got := l.AppendTo([]T{prefix}); !slices.Equal(got, want) {
		t.Fatalf("%s: AppendTo = %v, want %v", name, got, want)
	}
	if !checkAllocs {
		return
	}
	dst := make([]T, 1, 1+l.Len())
	dst[0] = prefix
	if allocs := testing.AllocsPerRun(10, func() { dst = l.AppendTo(dst[:1]) }); allocs != 0 {
		t.Fatalf("%s: AppendTo into room allocates %v", name, allocs)
	}
	if !slices.Equal(dst, want) {
		t.Fatalf("%s: AppendTo into room = %v, want %v", name, dst, want)
	}
}

// checkAllocs turns on checkAppendTo's allocation check (off for the
// thousands of truncated payloads).
var checkAllocs = true

// checkAppendAll runs checkAppendTo on every scalar list of x.
func checkAppendAll(t *testing.T, x pb.Repeated) {
	t.Helper()
	checkAppendTo(t, "r_double", x.RDouble(), 7)
	checkAppendTo(t, "r_float", x.RFloat(), 7)
	checkAppendTo(t, "r_int32", x.RInt32(), 7)
	checkAppendTo(t, "r_int64", x.RInt64(), 7)
	checkAppendTo(t, "r_uint32", x.RUint32(), 7)
	checkAppendTo(t, "r_uint64", x.RUint64(), 7)
	checkAppendTo(t, "r_sint32", x.RSint32(), 7)
	checkAppendTo(t, "r_sint64", x.RSint64(), 7)
	checkAppendTo(t, "r_fixed32", x.RFixed32(), 7)
	checkAppendTo(t, "r_fixed64", x.RFixed64(), 7)
	checkAppendTo(t, "r_sfixed32", x.RSfixed32(), 7)
	checkAppendTo(t, "r_sfixed64", x.RSfixed64(), 7)
	checkAppendTo(t, "r_bool", x.RBool(), true)
	checkAppendTo(t, "r_color", x.RColor(), pb.Color_COLOR_RED)
	checkAppendTo(t, "u_double", x.UDouble(), 7)
	checkAppendTo(t, "u_int32", x.UInt32(), 7)
}

// TestAppendTo compares AppendTo with At on written, read-only, truncated
// and absent lists.
func TestAppendTo(t *testing.T) {
	for _, mk := range makers(pb.NewRepeated, pb.NewRepeatedIn) {
		t.Run(mk.name, func(t *testing.T) {
			x := mk.new(t)
			checkAppendAll(t, x) // empty
			fillRepeated(t, x)
			checkAppendAll(t, x)
			data := bytes.Clone(x.Bytes())
			r, err := pb.ReadRepeated(data)
			if err != nil {
				t.Fatal(err)
			}
			checkAppendAll(t, r)
			if r.RDouble().AppendTo(nil) == nil {
				t.Fatal("r_double read back empty")
			}
			// Every truncation: vectors that do not fit read as empty, in
			// AppendTo as in At, and nothing reads past the bytes.
			checkAllocs = false
			defer func() { checkAllocs = true }()
			for n := range len(data) {
				r, err := pb.ReadRepeated(data[:n:n])
				if err != nil {
					continue
				}
				checkAppendAll(t, r)
			}
		})
	}
	checkAppendAll(t, pb.Repeated{})
	if got := (runtime.List[float64]{}).AppendTo(nil); got != nil {
		t.Fatalf("zero handle: AppendTo(nil) = %v", got)
	}
}

// insertList is what every scalar list handle has for Insert's model.
type insertList[T any] interface {
	appendList[T]
	Insert(i int, vs ...T) bool
	Clear()
}

// checkInsert inserts runs of vals at every kind of index into l and
// compares l with slices.Insert on a plain slice after each; an index out
// of range, and any Insert on a read-only list, reports false and changes
// nothing.
func checkInsert[T comparable](t *testing.T, name string, l, readOnly insertList[T], vals []T) {
	t.Helper()
	l.Clear()
	var model []T
	for step := range 12 {
		vs := vals[:step%len(vals)]
		i := []int{0, len(model), len(model) / 2}[step%3]
		if !l.Insert(i, vs...) {
			t.Fatalf("%s: Insert(%d, %d values) failed", name, i, len(vs))
		}
		model = slices.Insert(model, i, vs...)
		if got := l.AppendTo(nil); !slices.Equal(got, model) {
			t.Fatalf("%s: after Insert(%d, %v): %v, want %v", name, i, vs, got, model)
		}
		for _, bad := range []int{-1, len(model) + 1} {
			if l.Insert(bad, vals...) {
				t.Fatalf("%s: Insert(%d) of %d elements reported true", name, bad, len(model))
			}
		}
		if l.Len() != len(model) {
			t.Fatalf("%s: Len %d after bad Inserts, want %d", name, l.Len(), len(model))
		}
	}
	n := readOnly.Len()
	if readOnly.Insert(0, vals...) || readOnly.Len() != n {
		t.Fatalf("%s: Insert into a read-only list: Len %d -> %d", name, n, readOnly.Len())
	}
}

// TestInsertModel runs checkInsert on every scalar list type.
func TestInsertModel(t *testing.T) {
	for _, mk := range makers(pb.NewRepeated, pb.NewRepeatedIn) {
		t.Run(mk.name, func(t *testing.T) {
			x := mk.new(t)
			fillRepeated(t, x)
			r, err := pb.ReadRepeated(bytes.Clone(x.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			checkInsert(t, "r_double", x.RDouble(), r.RDouble(), doubles)
			checkInsert(t, "r_float", x.RFloat(), r.RFloat(), floats)
			checkInsert(t, "r_int32", x.RInt32(), r.RInt32(), int32s)
			checkInsert(t, "r_int64", x.RInt64(), r.RInt64(), int64s)
			checkInsert(t, "r_uint32", x.RUint32(), r.RUint32(), uint32s)
			checkInsert(t, "r_uint64", x.RUint64(), r.RUint64(), uint64s)
			checkInsert(t, "r_bool", x.RBool(), r.RBool(), bools)
			checkInsert(t, "r_color", x.RColor(), r.RColor(), colors)
		})
	}
}
