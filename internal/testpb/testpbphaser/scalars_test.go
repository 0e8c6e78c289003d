package testpbphaser_test

import (
	"bytes"
	"errors"
	"math"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"

	pb "github.com/phaser-go/phaser/internal/testpb/testpbphaser"
	"github.com/phaser-go/phaser/runtime"
)

func fillScalars(x pb.Scalars) {
	x.SetFDouble(-2.5)
	x.SetFFloat(float32(math.Inf(1)))
	x.SetFInt32(math.MinInt32)
	x.SetFInt64(math.MinInt64)
	x.SetFUint32(math.MaxUint32)
	x.SetFUint64(math.MaxUint64)
	x.SetFSint32(-7)
	x.SetFSint64(-1 << 40)
	x.SetFFixed32(0xdeadbeef)
	x.SetFFixed64(0xfeedfacecafebeef)
	x.SetFSfixed32(-32)
	x.SetFSfixed64(-64)
	x.SetFBool(true)
	x.SetFString("héllo")
	x.SetFBytes([]byte{0, 1, 2, 0xff})
	x.SetFColor(pb.Color_COLOR_MIN)
}

func checkScalars(t *testing.T, x pb.Scalars) {
	t.Helper()
	type check struct {
		name      string
		got, want any
		has       bool
	}
	for _, c := range []check{
		{"f_double", x.FDouble(), -2.5, x.HasFDouble()},
		{"f_float", x.FFloat(), float32(math.Inf(1)), x.HasFFloat()},
		{"f_int32", x.FInt32(), int32(math.MinInt32), x.HasFInt32()},
		{"f_int64", x.FInt64(), int64(math.MinInt64), x.HasFInt64()},
		{"f_uint32", x.FUint32(), uint32(math.MaxUint32), x.HasFUint32()},
		{"f_uint64", x.FUint64(), uint64(math.MaxUint64), x.HasFUint64()},
		{"f_sint32", x.FSint32(), int32(-7), x.HasFSint32()},
		{"f_sint64", x.FSint64(), int64(-1 << 40), x.HasFSint64()},
		{"f_fixed32", x.FFixed32(), uint32(0xdeadbeef), x.HasFFixed32()},
		{"f_fixed64", x.FFixed64(), uint64(0xfeedfacecafebeef), x.HasFFixed64()},
		{"f_sfixed32", x.FSfixed32(), int32(-32), x.HasFSfixed32()},
		{"f_sfixed64", x.FSfixed64(), int64(-64), x.HasFSfixed64()},
		{"f_bool", x.FBool(), true, x.HasFBool()},
		{"f_string", x.FString(), "héllo", x.HasFString()},
		{"f_string view", string(x.FStringBytes()), "héllo", true},
		{"f_bytes", string(x.FBytes()), "\x00\x01\x02\xff", x.HasFBytes()},
		{"f_bytes view", string(x.FBytesBytes()), "\x00\x01\x02\xff", true},
		{"f_color", x.FColor(), pb.Color_COLOR_MIN, x.HasFColor()},
	} {
		if c.got != c.want || !c.has {
			t.Errorf("%s = %v (has %v), want %v", c.name, c.got, c.has, c.want)
		}
	}
}

func TestScalars(t *testing.T) {
	for _, mk := range makers(pb.NewScalars, pb.NewScalarsIn) {
		t.Run(mk.name, func(t *testing.T) {
			x := mk.new(t)
			if x.HasFInt32() || x.HasFString() || x.FInt32() != 0 || x.FString() != "" || x.FBytes() != nil {
				t.Fatal("a new message is not empty")
			}
			fillScalars(x)
			checkWritten(t, x)
			checkScalars(t, x)
			r, err := pb.ReadScalars(bytes.Clone(x.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			checkScalars(t, r)
			// The returned copy does not alias the payload; the view does.
			b := x.FBytes()
			b[0] = 9
			if x.FBytes()[0] != 0 {
				t.Error("FBytes returned an alias of the payload")
			}

			// Clear: Has goes false and the getter reads 0 (C++ would read
			// the stale value); other fields keep theirs.
			x.ClearFInt32()
			x.ClearFString()
			x.ClearFBytes()
			x.ClearFColor()
			if x.HasFInt32() || x.FInt32() != 0 || x.HasFString() || x.FString() != "" || x.HasFBytes() || x.HasFColor() || x.FColor() != 0 {
				t.Error("cleared fields still read as set")
			}
			if x.FInt64() != math.MinInt64 || x.FFixed64() != 0xfeedfacecafebeef {
				t.Error("clearing a field changed another")
			}
			// Setting a zero value marks the field present (a presence bit,
			// even in proto3).
			x.SetFInt32(0)
			x.SetFString("")
			if !x.HasFInt32() || !x.HasFString() {
				t.Error("zero values set are not present")
			}
			// Negative enum values round-trip.
			x.SetFColor(pb.Color_COLOR_NEGATIVE)
			if x.FColor() != pb.Color_COLOR_NEGATIVE || x.FColor().String() != "COLOR_NEGATIVE" {
				t.Errorf("FColor = %v", x.FColor())
			}
			x.Clear()
			if x.HasFDouble() || x.HasFString() || x.HasFBool() || x.FUint64() != 0 {
				t.Error("Clear left fields set")
			}
			checkWritten(t, x)
		})
	}
}

func TestReadOnly(t *testing.T) {
	x := pb.NewScalars()
	fillScalars(x)
	r, err := pb.ReadScalars(x.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	before := bytes.Clone(r.Bytes())
	r.SetFInt32(1)
	r.SetFString("changed")
	r.ClearFBool()
	if !bytes.Equal(before, r.Bytes()) {
		t.Error("writes through a read-only handle changed the payload")
	}
	if !errors.Is(r.Err(), runtime.ErrReadOnly) || r.Failed() {
		t.Errorf("Err = %v, Failed = %v; want ErrReadOnly, false", r.Err(), r.Failed())
	}
	checkScalars(t, r)

	if _, err := pb.ReadScalars([]byte("not a payload at all, not at all")); !errors.Is(err, runtime.ErrNotPayload) {
		t.Errorf("ReadScalars(junk) error = %v", err)
	}
	var zero pb.Scalars
	zero.SetFInt32(3)
	if zero.FInt32() != 0 || zero.IsPresent() || zero.Bytes() != nil || !errors.Is(zero.Err(), runtime.ErrNoMessage) || !zero.Failed() {
		t.Errorf("the zero handle is not an empty message that stores nothing: Err %v, Failed %v", zero.Err(), zero.Failed())
	}
}

// TestScalarsToProto checks ToProto against the message built with the
// protobuf API.
func TestScalarsToProto(t *testing.T) {
	x := pb.NewScalars()
	fillScalars(x)
	got, err := x.ToProto()
	if err != nil {
		t.Fatal(err)
	}
	md := x.PhaserType().Descriptor()
	want := dynamicpb.NewMessage(md)
	set := func(name string, v protoreflect.Value) { want.Set(md.Fields().ByName(protoreflect.Name(name)), v) }
	set("f_double", protoreflect.ValueOfFloat64(-2.5))
	set("f_float", protoreflect.ValueOfFloat32(float32(math.Inf(1))))
	set("f_int32", protoreflect.ValueOfInt32(math.MinInt32))
	set("f_int64", protoreflect.ValueOfInt64(math.MinInt64))
	set("f_uint32", protoreflect.ValueOfUint32(math.MaxUint32))
	set("f_uint64", protoreflect.ValueOfUint64(math.MaxUint64))
	set("f_sint32", protoreflect.ValueOfInt32(-7))
	set("f_sint64", protoreflect.ValueOfInt64(-1<<40))
	set("f_fixed32", protoreflect.ValueOfUint32(0xdeadbeef))
	set("f_fixed64", protoreflect.ValueOfUint64(0xfeedfacecafebeef))
	set("f_sfixed32", protoreflect.ValueOfInt32(-32))
	set("f_sfixed64", protoreflect.ValueOfInt64(-64))
	set("f_bool", protoreflect.ValueOfBool(true))
	set("f_string", protoreflect.ValueOfString("héllo"))
	set("f_bytes", protoreflect.ValueOfBytes([]byte{0, 1, 2, 0xff}))
	set("f_color", protoreflect.ValueOfEnum(math.MinInt32))
	if !proto.Equal(got, want) {
		t.Errorf("ToProto = %v\nwant %v", got, want)
	}
}
