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

// dyn writes a message through the runtime's dynamic API: untyped Msg
// methods driven by the FieldInfo of each field, found by name.
type dyn struct {
	m runtime.Msg
	t *runtime.Type
}

func (d dyn) field(name string) *runtime.FieldInfo {
	fi := d.t.FieldByName(name)
	if fi == nil {
		panic(d.t.Name() + " has no field " + name)
	}
	return fi
}

func elemSize(k runtime.Kind) int {
	switch k {
	case runtime.Bool:
		return 1
	case runtime.Int64, runtime.Uint64, runtime.Double:
		return 8
	}
	return 4
}

// i32 and i64 give the stored bits of signed values.
func i32(v int32) uint64 { return uint64(uint32(v)) }
func i64(v int64) uint64 { return uint64(v) }

func (d dyn) set(name string, bits uint64) {
	fi := d.field(name)
	switch n := elemSize(fi.Kind); {
	case fi.Union != nil && n == 1:
		d.m.SetMember8(fi.Union, fi.Field, uint8(bits))
	case fi.Union != nil && n == 4:
		d.m.SetMember32(fi.Union, fi.Field, uint32(bits))
	case fi.Union != nil:
		d.m.SetMember64(fi.Union, fi.Field, bits)
	case n == 1:
		d.m.Set8(fi.Field, uint8(bits))
	case n == 4:
		d.m.Set32(fi.Field, uint32(bits))
	default:
		d.m.Set64(fi.Field, bits)
	}
}

func (d dyn) setString(name, s string) {
	if fi := d.field(name); fi.Union != nil {
		d.m.SetMemberString(fi.Union, fi.Field, s)
	} else {
		d.m.SetString(fi.Field, s)
	}
}

func (d dyn) mutable(name string) dyn {
	fi := d.field(name)
	if fi.Union != nil {
		return dyn{d.m.MutableMember(fi.Union, fi.Field, fi.Type), fi.Type}
	}
	return dyn{d.m.MutableMessage(fi.Field, fi.Type), fi.Type}
}

func (d dyn) push(name string, bits uint64) {
	fi := d.field(name)
	switch elemSize(fi.Kind) {
	case 1:
		d.m.Push8(fi.Field, uint8(bits))
	case 4:
		d.m.Push32(fi.Field, uint32(bits))
	default:
		d.m.Push64(fi.Field, bits)
	}
}

func (d dyn) pushString(name, s string) { d.m.PushString(d.field(name).Field, s) }

func (d dyn) add(name string) dyn {
	fi := d.field(name)
	return dyn{d.m.AddMessage(fi.Field, fi.Type), fi.Type}
}

func (d dyn) clear(name string) {
	fi := d.field(name)
	switch {
	case fi.Union != nil:
		d.m.ClearOneof(fi.Union, fi.Field)
	case fi.Repeated:
		d.m.ClearRepeated(fi)
	case fi.Kind == runtime.String || fi.Kind == runtime.Bytes:
		d.m.ClearString(fi.Field)
	case fi.Kind == runtime.Message:
		d.m.ClearMessage(fi.Field, fi.Type)
	default:
		d.m.ClearScalar(fi.Field)
	}
}

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
	s.set("f_double", math.Float64bits(math.Pi))
	s.set("f_float", uint64(math.Float32bits(-1.25)))
	s.set("f_int32", i32(-5))
	s.set("f_int64", i64(-1<<50))
	s.set("f_uint32", 7)
	s.set("f_uint64", 1<<63)
	s.set("f_sint32", i32(-9))
	s.set("f_sint64", 9)
	s.set("f_fixed32", 32)
	s.set("f_fixed64", 64)
	s.set("f_sfixed32", i32(-32))
	s.set("f_sfixed64", i64(-64))
	s.set("f_bool", 1)
	s.setString("f_string", "str")
	s.m.SetBytes(s.field("f_bytes").Field, []byte{0xff, 0})
	s.set("f_color", i32(-1))
	s.clear("f_sint64")
	r := d.mutable("repeated")
	r.push("r_int32", i32(-1))
	r.push("r_int32", 2)
	r.push("r_double", math.Float64bits(0.5))
	r.push("r_bool", 1)
	r.push("r_color", i32(math.MinInt32))
	r.push("u_fixed64", 1<<40)
	r.pushString("r_string", "a")
	r.pushString("r_string", "bc")
	r.pushString("r_bytes", "\x00")
	in := d.mutable("inner")
	in.set("a", 3)
	in.mutable("deep").set("x", i64(-4))
	in.mutable("deep").pushString("names", "n")
	d.mutable("remote").setString("id", "rid")
	d.mutable("remote").set("level", 2)
	d.mutable("remote").push("values", math.Float64bits(2.5))
	d.add("inners").setString("s", "e0")
	d.add("inners").set("a", 1)
	d.set("mode", i32(-5))
	d.push("modes", i32(-5))
	d.setString("choice_string", "first")
	d.mutable("choice_inner").set("a", 8)
	d.set("opt_int32", 0)
	d.setString("opt_string", "opt")
	e := d.add("counts")
	e.setString("key", "k")
	e.set("value", 1)
	b := d.add("by_id")
	b.set("key", i64(-2))
	b.mutable("value").setString("s", "v")
	inner := runtime.FindType("phasertest.Inner")
	any := d.mutable("any")
	dyn{any.m.MutableAny(inner), inner}.set("a", 42)
	at := d.mutable("at")
	at.set("seconds", 100)
	at.set("nanos", i32(-1))
	d.m.SetBytes(d.field("bytes").Field, []byte("b"))
	d.set("clear", 1)
	d.set("has_value", 1)
	d.push("grid", 1)
	d.pushString("labels", "L")
	d.setString("name", "gone")
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
		d := dyn{runtime.New(typ, opts), typ}
		buildDynamic(d)
		if !bytes.Equal(x.Bytes(), d.m.PayloadBytes()) {
			t.Fatalf("%+v: the generated and the dynamic API wrote different payloads (%d and %d bytes)",
				opts, len(x.Bytes()), len(d.m.PayloadBytes()))
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
		buildDynamic(dyn{fd, typ})
		if !bytes.Equal(fx.Bytes(), fd.PayloadBytes()) {
			t.Fatalf("%+v: fixed buffers: different payloads", opts)
		}

		got, err := x.ToProto()
		if err != nil {
			t.Fatal(err)
		}
		want, err := d.m.ToProto(typ)
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
