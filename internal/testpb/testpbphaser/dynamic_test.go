package testpbphaser_test

import (
	"bytes"
	"math"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/phaser-go/phaser/internal/testpb/importedpb/importedpbphaser"
	pb "github.com/phaser-go/phaser/internal/testpb/testpbphaser"
	"github.com/phaser-go/phaser/payloadbuffer"
	"github.com/phaser-go/phaser/runtime"
	"github.com/phaser-go/phaser/types/known/timestamppbphaser"
)

// dyn writes a message through the runtime's dynamic API: runtime.Msg's
// methods, fields named by their descriptors, found by name.
type dyn struct{ m runtime.Msg }

func (d dyn) field(name string) protoreflect.FieldDescriptor {
	fd := d.m.Type().Descriptor().Fields().ByName(protoreflect.Name(name))
	if fd == nil {
		panic(d.m.Type().Name() + " has no field " + name)
	}
	return fd
}

func (d dyn) set(name string, v any)       { d.m.Set(d.field(name), protoreflect.ValueOf(v)) }
func (d dyn) push(name string, v any)      { d.m.Append(d.field(name), protoreflect.ValueOf(v)) }
func (d dyn) mutable(name string) dyn      { return dyn{d.m.Mutable(d.field(name))} }
func (d dyn) add(name string) dyn          { return dyn{d.m.AppendMessage(d.field(name))} }
func (d dyn) clear(name string)            { d.m.ClearField(d.field(name)) }
func enum(n int32) protoreflect.EnumNumber { return protoreflect.EnumNumber(n) }

// buildGenerated and buildDynamic perform the same sequence of writes, one
// through the generated accessors, one through the dynamic API.
func buildGenerated(x pb.Everything) {
	s := x.MutableScalars()
	s.SetFDouble(math.Pi)
	s.SetFFloat(-1.25)
	s.SetFInt32(-5)
	s.SetFInt64(-1 << 50)
	s.SetFUint32(7)
	s.SetFUint64(1 << 63)
	s.SetFSint32(-9)
	s.SetFSint64(9)
	s.SetFFixed32(32)
	s.SetFFixed64(64)
	s.SetFSfixed32(-32)
	s.SetFSfixed64(-64)
	s.SetFBool(true)
	s.SetFString("str")
	s.SetFBytes([]byte{0xff, 0})
	s.SetFColor(pb.Color_COLOR_NEGATIVE)
	s.ClearFSint64()
	r := x.MutableRepeated()
	r.RInt32().Append(-1)
	r.RInt32().Append(2)
	r.RDouble().Append(0.5)
	r.RBool().Append(true)
	r.RColor().Append(pb.Color_COLOR_MIN)
	r.UFixed64().Append(1 << 40)
	r.RString().Append("a")
	r.RString().Append("bc")
	r.RBytes().Append("\x00")
	in := x.MutableInner()
	in.SetA(3)
	in.MutableDeep().SetX(-4)
	in.MutableDeep().Names().Append("n")
	x.MutableRemote().SetId("rid")
	x.MutableRemote().SetLevel(importedpbphaser.Level_LEVEL_HIGH)
	x.MutableRemote().Values().Append(2.5)
	x.Inners().Append().SetS("e0")
	x.Inners().Append().SetA(1)
	x.SetMode(pb.Everything_MODE_SLOW)
	x.Modes().Append(pb.Everything_MODE_SLOW)
	x.SetChoiceString("first")
	x.MutableChoiceInner().SetA(8) // switches the arm: frees the string
	x.SetOptInt32(0)
	x.SetOptString("opt")
	e := x.Counts().Append()
	e.SetKey("k")
	e.SetValue(1)
	b := x.ById().Append()
	b.SetKey(-2)
	b.MutableValue().SetS("v")
	pb.MutableAnyInner(x.MutableAny()).SetA(42)
	x.MutableAt().SetSeconds(100)
	x.MutableAt().SetNanos(-1)
	x.SetBytes_([]byte("b"))
	x.SetClear_(1)
	x.SetHasValue_(true)
	x.Grid().Append(1)
	x.Labels().Append("L")
	x.SetName("gone")
	x.ClearName()
	x.MutableEmpty()
}

func buildDynamic(d dyn) {
	s := d.mutable("scalars")
	s.set("f_double", math.Pi)
	s.set("f_float", float32(-1.25))
	s.set("f_int32", int32(-5))
	s.set("f_int64", int64(-1<<50))
	s.set("f_uint32", uint32(7))
	s.set("f_uint64", uint64(1<<63))
	s.set("f_sint32", int32(-9))
	s.set("f_sint64", int64(9))
	s.set("f_fixed32", uint32(32))
	s.set("f_fixed64", uint64(64))
	s.set("f_sfixed32", int32(-32))
	s.set("f_sfixed64", int64(-64))
	s.set("f_bool", true)
	s.set("f_string", "str")
	s.set("f_bytes", []byte{0xff, 0})
	s.set("f_color", enum(-1))
	s.clear("f_sint64")
	r := d.mutable("repeated")
	r.push("r_int32", int32(-1))
	r.push("r_int32", int32(2))
	r.push("r_double", 0.5)
	r.push("r_bool", true)
	r.push("r_color", enum(math.MinInt32))
	r.push("u_fixed64", uint64(1<<40))
	r.push("r_string", "a")
	r.push("r_string", "bc")
	r.push("r_bytes", []byte("\x00"))
	in := d.mutable("inner")
	in.set("a", int32(3))
	in.mutable("deep").set("x", int64(-4))
	in.mutable("deep").push("names", "n")
	d.mutable("remote").set("id", "rid")
	d.mutable("remote").set("level", enum(2))
	d.mutable("remote").push("values", 2.5)
	d.add("inners").set("s", "e0")
	d.add("inners").set("a", int32(1))
	d.set("mode", enum(-5))
	d.push("modes", enum(-5))
	d.set("choice_string", "first")
	d.mutable("choice_inner").set("a", int32(8))
	d.set("opt_int32", int32(0))
	d.set("opt_string", "opt")
	e := d.add("counts")
	e.set("key", "k")
	e.set("value", int32(1))
	b := d.add("by_id")
	b.set("key", int64(-2))
	b.mutable("value").set("s", "v")
	any := d.mutable("any")
	dyn{runtime.AnyOf(any.m).Mutable(runtime.FindType("phasertest.Inner"))}.set("a", int32(42))
	at := d.mutable("at")
	at.set("seconds", int64(100))
	at.set("nanos", int32(-1))
	d.set("bytes", []byte("b"))
	d.set("clear", int32(1))
	d.set("has_value", true)
	d.push("grid", int32(1))
	d.push("labels", "L")
	d.set("name", "gone")
	d.clear("name")
	d.mutable("empty")
}

func TestDynamicSameBytes(t *testing.T) {
	for _, opts := range []runtime.Options{
		{},
		{Tuning: payloadbuffer.Size},
		{Version: payloadbuffer.V3},
		{Version: payloadbuffer.V3, Tuning: payloadbuffer.Size},
	} {
		x := pb.NewEverything(opts)
		buildGenerated(x)
		checkWritten(t, x)
		typ := x.PhaserType()
		if typ != runtime.FindType("phasertest.Everything") {
			t.Fatal("PhaserType is not the registered type")
		}
		d := dyn{runtime.New(typ, opts)}
		buildDynamic(d)
		if !bytes.Equal(x.Bytes(), d.m.Bytes()) {
			t.Fatalf("%+v: the generated and the dynamic API wrote different payloads (%d and %d bytes)",
				opts, len(x.Bytes()), len(d.m.Bytes()))
		}
		// Fixed buffers give the same bytes too.
		mem := make([]byte, 16<<10)
		fx, err := pb.NewEverythingIn(mem, opts)
		if err != nil {
			t.Fatal(err)
		}
		buildGenerated(fx)
		mem2 := make([]byte, 16<<10)
		fd, err := runtime.NewIn(typ, mem2, opts)
		if err != nil {
			t.Fatal(err)
		}
		buildDynamic(dyn{fd})
		if !bytes.Equal(fx.Bytes(), fd.Bytes()) {
			t.Fatalf("%+v: fixed buffers: different payloads", opts)
		}

		got, err := x.ToProto()
		if err != nil {
			t.Fatal(err)
		}
		want, err := d.m.ToProto()
		if err != nil {
			t.Fatal(err)
		}
		if !proto.Equal(got, want) {
			t.Errorf("ToProto differs:\n%v\n%v", got, want)
		}
		checkToProto(t, got)
	}
}

// checkToProto checks a few values of the protobuf form of the message
// buildGenerated writes.
func checkToProto(t *testing.T, m proto.Message) {
	t.Helper()
	pm := m.ProtoReflect()
	get := func(msg protoreflect.Message, name string) protoreflect.Value {
		return msg.Get(msg.Descriptor().Fields().ByName(protoreflect.Name(name)))
	}
	has := func(msg protoreflect.Message, name string) bool {
		return msg.Has(msg.Descriptor().Fields().ByName(protoreflect.Name(name)))
	}
	s := get(pm, "scalars").Message()
	if get(s, "f_double").Float() != math.Pi || get(s, "f_int64").Int() != -1<<50 || get(s, "f_color").Enum() != -1 ||
		has(s, "f_sint64") || get(s, "f_string").String() != "str" {
		t.Errorf("scalars = %v", s)
	}
	if l := get(get(pm, "repeated").Message(), "r_string").List(); l.Len() != 2 || l.Get(1).String() != "bc" {
		t.Error("repeated strings")
	}
	if get(get(pm, "choice_inner").Message(), "a").Int() != 8 || pm.WhichOneof(pm.Descriptor().Oneofs().ByName("choice")).Name() != "choice_inner" {
		t.Error("oneof")
	}
	if !has(pm, "opt_int32") || get(pm, "opt_int32").Int() != 0 || has(pm, "opt_bool") {
		t.Error("proto3 optional presence")
	}
	if mp := get(pm, "counts").Map(); mp.Len() != 1 || mp.Get(protoreflect.ValueOfString("k").MapKey()).Int() != 1 {
		t.Error("map<string, int32>")
	}
	if mp := get(pm, "by_id").Map(); get(mp.Get(protoreflect.ValueOfInt64(-2).MapKey()).Message(), "s").String() != "v" {
		t.Error("map<int64, Inner>")
	}
	a := get(pm, "any").Message()
	if get(a, "type_url").String() != "type.googleapis.com/phasertest.Inner" || len(get(a, "value").Bytes()) == 0 {
		t.Errorf("any = %v", a)
	}
	if has(pm, "name") || get(pm, "clear").Int() != 1 || !get(pm, "has_value").Bool() {
		t.Error("clashing names")
	}
	if get(get(pm, "at").Message(), "nanos").Int() != -1 || !has(pm, "empty") {
		t.Error("timestamp, empty")
	}
}

// TestToProtoEverything converts the fully filled message, and its
// read-only form, and checks the dynamic view of every field agrees with
// the generated getters.
func TestToProtoEverything(t *testing.T) {
	x := pb.NewEverything()
	fillEverything(t, x)
	got, err := x.ToProto()
	if err != nil {
		t.Fatal(err)
	}
	r := must(pb.ReadEverything(x.Bytes()))
	again, err := r.ToProto()
	if err != nil {
		t.Fatal(err)
	}
	if !proto.Equal(got, again) {
		t.Error("ToProto of the read-only message differs")
	}
	// The entry without a value converts to an empty Inner value.
	pm := got.ProtoReflect()
	byID := pm.Get(pm.Descriptor().Fields().ByName("by_id")).Map()
	if v := byID.Get(protoreflect.ValueOfInt64(7).MapKey()); !v.IsValid() {
		t.Error("map entry without a value lost")
	}
	// Marshaling works and round-trips.
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	back := got.ProtoReflect().New().Interface()
	if err := proto.Unmarshal(b, back); err != nil || !proto.Equal(back, got) {
		t.Errorf("round trip: %v", err)
	}
	// Wrapped and well-known handles convert too.
	ts := timestamppbphaser.NewTimestamp()
	ts.SetSeconds(5)
	if m, err := ts.ToProto(); err != nil || m.ProtoReflect().Get(m.ProtoReflect().Descriptor().Fields().ByNumber(1)).Int() != 5 {
		t.Errorf("timestamp ToProto: %v", err)
	}
}

// TestTruncatedRead reads every prefix of a full payload: reads are bounded
// by the data, so nothing panics.
func TestTruncatedRead(t *testing.T) {
	x := pb.NewEverything(runtime.Options{InitialSize: 64})
	fillEverything(t, x)
	full := bytes.Clone(x.Bytes())
	for n := 0; n <= len(full); n += max(1, len(full)/997) {
		r, err := pb.ReadEverything(full[:n:n])
		if err != nil {
			continue
		}
		_, _ = r.ToProto()
		_ = r.Inner().Deep().Names().At(0)
		_ = r.Counts().At(0).Key()
		_ = r.Scalars().FString()
		_ = r.Remote().Values().At(0)
		_ = r.ChoiceMode()
		_, _ = pb.InnerFromAny(r.Any())
	}
}
