package testpbphaser_test

import (
	"bytes"
	"math"
	"slices"
	"testing"

	pb "github.com/phaser-go/phaser/internal/testpb/testpbphaser"
	"github.com/phaser-go/phaser/runtime"
)

// Values of the repeated fields: packed (r_*) and unpacked (u_*) fields get
// the same values and the same storage.
var (
	doubles   = []float64{1.5, -0.0, math.MaxFloat64, math.SmallestNonzeroFloat64}
	floats    = []float32{1.5, -3, math.MaxFloat32}
	int32s    = []int32{0, -1, math.MaxInt32, math.MinInt32, 42}
	int64s    = []int64{0, -1, math.MaxInt64, math.MinInt64}
	uint32s   = []uint32{0, 1, math.MaxUint32}
	uint64s   = []uint64{0, 1, math.MaxUint64, 1 << 63}
	bools     = []bool{true, false, true, true}
	colors    = []pb.Color{pb.Color_COLOR_RED, pb.Color_COLOR_NEGATIVE, pb.Color_COLOR_MIN, 12345}
	strs      = []string{"", "a", "héllo wörld", string(make([]byte, 300))}
	byteStrs  = []string{"\x00", "", "\xff\xfe"}
	unpackedI = []int32{7, 8, 9}
)

// fillRepeated runs every operation on every list of x and leaves them
// holding the values above.
func fillRepeated(t *testing.T, x pb.Repeated) {
	t.Helper()
	exerciseList(t, "r_double", x.RDouble(), doubles)
	exerciseList(t, "r_float", x.RFloat(), floats)
	exerciseList(t, "r_int32", x.RInt32(), int32s)
	exerciseList(t, "r_int64", x.RInt64(), int64s)
	exerciseList(t, "r_uint32", x.RUint32(), uint32s)
	exerciseList(t, "r_uint64", x.RUint64(), uint64s)
	exerciseList(t, "r_sint32", x.RSint32(), int32s)
	exerciseList(t, "r_sint64", x.RSint64(), int64s)
	exerciseList(t, "r_fixed32", x.RFixed32(), uint32s)
	exerciseList(t, "r_fixed64", x.RFixed64(), uint64s)
	exerciseList(t, "r_sfixed32", x.RSfixed32(), int32s)
	exerciseList(t, "r_sfixed64", x.RSfixed64(), int64s)
	exerciseList(t, "r_bool", x.RBool(), bools)
	exerciseList(t, "r_color", x.RColor(), colors)
	exerciseList(t, "u_double", x.UDouble(), doubles)
	exerciseList(t, "u_float", x.UFloat(), floats)
	exerciseList(t, "u_int32", x.UInt32(), unpackedI)
	exerciseList(t, "u_int64", x.UInt64(), int64s)
	exerciseList(t, "u_uint32", x.UUint32(), uint32s)
	exerciseList(t, "u_uint64", x.UUint64(), uint64s)
	exerciseList(t, "u_sint32", x.USint32(), int32s)
	exerciseList(t, "u_sint64", x.USint64(), int64s)
	exerciseList(t, "u_fixed32", x.UFixed32(), uint32s)
	exerciseList(t, "u_fixed64", x.UFixed64(), uint64s)
	exerciseList(t, "u_sfixed32", x.USfixed32(), int32s)
	exerciseList(t, "u_sfixed64", x.USfixed64(), int64s)
	exerciseList(t, "u_bool", x.UBool(), bools)
	exerciseList(t, "u_color", x.UColor(), colors)
	exerciseStrings(t, x.RString(), strs)
	exerciseStrings(t, x.RBytes(), byteStrs)
}

func exerciseStrings(t *testing.T, l runtime.StringList, vals []string) {
	t.Helper()
	l.Clear()
	l.Reserve(len(vals))
	for _, v := range vals {
		l.Append(v)
	}
	if got := stringsOf(l); !slices.Equal(got, vals) {
		t.Fatalf("strings = %q, want %q", got, vals)
	}
	if l.At(len(vals)) != "" || l.AtBytes(-1) != nil {
		t.Error("out-of-range string elements are not empty")
	}
	// Set replaces an element; past the end it grows the list.
	l.Set(0, "replaced")
	l.SetBytes(len(vals)+1, []byte("grown"))
	if l.At(0) != "replaced" || l.Len() != len(vals)+2 || l.At(len(vals)) != "" || l.At(len(vals)+1) != "grown" {
		t.Errorf("after Set: %q", stringsOf(l))
	}
	// AppendBytes and SetBytes may take bytes of the payload itself.
	l.AppendBytes(l.AtBytes(0))
	if l.At(l.Len()-1) != "replaced" {
		t.Errorf("AppendBytes(alias) = %q", l.At(l.Len()-1))
	}
	l.Resize(1)
	if l.Len() != 1 || l.At(0) != "replaced" {
		t.Errorf("after Resize(1): %q", stringsOf(l))
	}
	l.Clear()
	for _, v := range vals {
		l.AppendBytes([]byte(v))
	}
	if got := stringsOf(l); !slices.Equal(got, vals) {
		t.Fatalf("strings = %q, want %q", got, vals)
	}
}

func checkRepeated(t *testing.T, x pb.Repeated) {
	t.Helper()
	checkList(t, "r_double", x.RDouble(), doubles)
	checkList(t, "r_float", x.RFloat(), floats)
	checkList(t, "r_int32", x.RInt32(), int32s)
	checkList(t, "r_int64", x.RInt64(), int64s)
	checkList(t, "r_uint32", x.RUint32(), uint32s)
	checkList(t, "r_uint64", x.RUint64(), uint64s)
	checkList(t, "r_sint32", x.RSint32(), int32s)
	checkList(t, "r_sint64", x.RSint64(), int64s)
	checkList(t, "r_fixed32", x.RFixed32(), uint32s)
	checkList(t, "r_fixed64", x.RFixed64(), uint64s)
	checkList(t, "r_sfixed32", x.RSfixed32(), int32s)
	checkList(t, "r_sfixed64", x.RSfixed64(), int64s)
	checkList(t, "r_bool", x.RBool(), bools)
	checkList(t, "r_color", x.RColor(), colors)
	checkList(t, "u_int32", x.UInt32(), unpackedI)
	checkList(t, "u_double", x.UDouble(), doubles)
	checkList(t, "u_bool", x.UBool(), bools)
	checkList(t, "u_color", x.UColor(), colors)
	if got := stringsOf(x.RString()); !slices.Equal(got, strs) {
		t.Errorf("r_string = %q", got)
	}
	if got := stringsOf(x.RBytes()); !slices.Equal(got, byteStrs) {
		t.Errorf("r_bytes = %q", got)
	}
}

func TestRepeated(t *testing.T) {
	for _, mk := range makers(pb.NewRepeated, pb.NewRepeatedIn) {
		t.Run(mk.name, func(t *testing.T) {
			x := mk.new(t)
			fillRepeated(t, x)
			checkWritten(t, x)
			checkRepeated(t, x)
			r, err := pb.ReadRepeated(bytes.Clone(x.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			checkRepeated(t, r)

			// The read-only lists ignore writes.
			r.RInt32().Append(1)
			r.RInt32().Set(0, 99)
			r.RString().Append("x")
			r.RDouble().Clear()
			checkRepeated(t, r)

			x.Clear()
			if x.RInt32().Len() != 0 || x.RString().Len() != 0 || x.UColor().Len() != 0 {
				t.Error("Clear left list elements")
			}
			checkWritten(t, x)
		})
	}
}
