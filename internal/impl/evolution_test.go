package impl_test

import (
	"errors"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/phaser-go/phaser/internal/impl"
	pb "github.com/phaser-go/phaser/internal/testpb/testpbphaser"
	"github.com/phaser-go/phaser/payloadbuffer"
	"github.com/phaser-go/phaser/runtime"
)

// Schema evolution: payloads written with one version of a .proto, read
// and written with another of the same message names. A program registers
// one Type per name, so the other version is an isolated Type
// (impl.IsolatedType), as a peer built from it would have.

// isolated compiles message name of the FileDescriptorProto in text format
// src into an isolated Type.
func isolated(t *testing.T, src, name string) *impl.Type {
	t.Helper()
	fdp := new(descriptorpb.FileDescriptorProto)
	if err := prototext.Unmarshal([]byte(src), fdp); err != nil {
		t.Fatal(err)
	}
	fd, err := protodesc.NewFile(fdp, protoregistry.GlobalFiles)
	if err != nil {
		t.Fatal(err)
	}
	typ, err := impl.IsolatedType(fd.Messages().ByName(protoreflect.Name(name)))
	if err != nil {
		t.Fatal(err)
	}
	return typ
}

// dynMsg is an engine handle with its type, read and written by field name.
type dynMsg struct {
	t *testing.T
	m impl.Msg
	y *impl.Type
}

func (d dynMsg) field(name string) *impl.FieldInfo {
	d.t.Helper()
	f := d.y.FieldByName(name)
	if f == nil {
		d.t.Fatalf("%s has no field %s", d.y.Name(), name)
	}
	return f
}

func (d dynMsg) set(name string, v any) {
	d.t.Helper()
	if !d.m.SetValue(d.field(name), protoreflect.ValueOf(v)) {
		d.t.Fatalf("SetValue(%s, %T) refused", name, v)
	}
}

func (d dynMsg) get(name string) (protoreflect.Value, bool) {
	d.t.Helper()
	return d.m.Value(d.field(name))
}

func (d dynMsg) mutable(name string) dynMsg {
	d.t.Helper()
	f := d.field(name)
	return dynMsg{d.t, d.m.MutableField(f), f.Type}
}

func (d dynMsg) message(name string) dynMsg {
	d.t.Helper()
	f := d.field(name)
	return dynMsg{d.t, d.m.MessageField(f), f.Type}
}

// evolvedInner is another version of phasertest.Inner: a field added
// before the others, fields reordered, and Deep with a new field. Its
// payloads have other layouts, which readers resolve through the payload's
// field tables.
const evolvedInner = `
name: "evolved.proto" package: "phasertest" syntax: "proto3"
message_type {
  name: "Inner"
  field { name: "added" number: 4 label: LABEL_OPTIONAL type: TYPE_INT64 }
  field { name: "s" number: 2 label: LABEL_OPTIONAL type: TYPE_STRING }
  field { name: "flag" number: 5 label: LABEL_OPTIONAL type: TYPE_BOOL }
  field { name: "a" number: 1 label: LABEL_OPTIONAL type: TYPE_INT32 }
  field { name: "deep" number: 3 label: LABEL_OPTIONAL type: TYPE_MESSAGE type_name: ".phasertest.Inner.Deep" }
  nested_type {
    name: "Deep"
    field { name: "extra" number: 3 label: LABEL_OPTIONAL type: TYPE_STRING }
    field { name: "names" number: 2 label: LABEL_REPEATED type: TYPE_STRING }
    field { name: "x" number: 1 label: LABEL_OPTIONAL type: TYPE_INT64 }
  }
}`

func TestSchemaEvolution(t *testing.T) {
	typ := isolated(t, evolvedInner, "Inner")
	for _, v := range []payloadbuffer.Version{payloadbuffer.V2, payloadbuffer.V3} {
		// Written by the new version, read by the generated (old) one.
		d := dynMsg{t, impl.New(typ, impl.Options{Version: v}), typ}
		d.set("added", int64(9))
		d.set("s", "evolved")
		d.set("flag", true)
		d.set("a", int32(5))
		deep := d.mutable("deep")
		deep.set("extra", "x")
		if !deep.m.AppendValue(deep.field("names"), protoreflect.ValueOfString("n0")) {
			t.Fatal("AppendValue refused")
		}
		deep.set("x", int64(-1))
		r, err := pb.ReadInner(d.m.PayloadBytes())
		if err != nil {
			t.Fatalf("v%d: ReadInner of the same message's other version: %v", v, err)
		}
		if r.A() != 5 || r.S() != "evolved" || r.Deep().X() != -1 || r.Deep().Names().At(0) != "n0" || !r.HasA() {
			t.Errorf("v%d: old reader: a %d, s %q, deep.x %d", v, r.A(), r.S(), r.Deep().X())
		}
		if p, err := r.ToProto(); err != nil || p.ProtoReflect().Get(p.ProtoReflect().Descriptor().Fields().ByName("s")).String() != "evolved" {
			t.Errorf("v%d: ToProto of an evolved payload: %v", v, err)
		}
		// Opened for writing by the old version: its writes land where the
		// payload's tables say.
		o, err := pb.OpenInner(append([]byte(nil), d.m.Payload().Buffer().Memory()...))
		if err != nil {
			t.Fatalf("v%d: OpenInner: %v", v, err)
		}
		o.SetA(6)
		o.MutableDeep().SetX(7)
		o.MutableDeep().Names().Append("n1")
		if o.Failed() || o.Err() != nil {
			t.Fatalf("v%d: writes through an old handle: Failed %v, Err %v", v, o.Failed(), o.Err())
		}
		rm, err := impl.Read(typ, o.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		back := dynMsg{t, rm, typ}
		bd := back.message("deep")
		a, _ := back.get("a")
		added, _ := back.get("added")
		x, _ := bd.get("x")
		extra, _ := bd.get("extra")
		if a.Int() != 6 || added.Int() != 9 || x.Int() != 7 || bd.m.ElemValue(bd.field("names"), 1).String() != "n1" || extra.String() != "x" {
			t.Errorf("v%d: writes through an old handle on a new payload: a %v, added %v, deep.x %v, extra %v", v, a, added, x, extra)
		}

		// Written by the generated (old) version, read by the new one.
		old := pb.NewInner(runtime.Options{Version: v})
		old.SetA(3)
		old.SetS("old")
		old.MutableDeep().SetX(4)
		nm, err := impl.Read(typ, old.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		n := dynMsg{t, nm, typ}
		if a, ok := n.get("a"); !ok || a.Int() != 3 {
			t.Errorf("v%d: new reader: a = %v", v, a)
		}
		if _, ok := n.get("added"); ok {
			t.Errorf("v%d: new reader: a field the writer does not know is present", v)
		}
		nd := n.message("deep")
		if x, ok := nd.get("x"); !ok || x.Int() != 4 {
			t.Errorf("v%d: new reader: deep.x = %v", v, x)
		}
		if _, ok := nd.get("extra"); ok {
			t.Errorf("v%d: new reader: deep.extra present", v)
		}
	}
}

// widenOld and widenNew are two versions of one message: every change
// protobuf documents as compatible between integer types, and fields the
// newer version added. (A value's width is bounded by the next field or
// union the old table places: c is followed by another bool, and oneof o
// by another oneof, o2.)
const widenOld = `
name: "widen.proto" package: "evolution" syntax: "proto3"
enum_type { name: "E" value { name: "E0" number: 0 } value { name: "E_NEG" number: -2 } }
message_type {
  name: "M"
  field { name: "a" number: 1 label: LABEL_OPTIONAL type: TYPE_INT32 }
  field { name: "b" number: 2 label: LABEL_OPTIONAL type: TYPE_UINT32 }
  field { name: "c" number: 3 label: LABEL_OPTIONAL type: TYPE_BOOL }
  field { name: "c2" number: 17 label: LABEL_OPTIONAL type: TYPE_BOOL }
  field { name: "d" number: 4 label: LABEL_OPTIONAL type: TYPE_SINT32 }
  field { name: "e" number: 5 label: LABEL_OPTIONAL type: TYPE_ENUM type_name: ".evolution.E" }
  field { name: "g" number: 6 label: LABEL_OPTIONAL type: TYPE_INT64 }
  field { name: "h" number: 7 label: LABEL_OPTIONAL type: TYPE_SFIXED32 }
  field { name: "i" number: 8 label: LABEL_OPTIONAL type: TYPE_INT32 }
  field { name: "tail" number: 9 label: LABEL_OPTIONAL type: TYPE_INT32 }
  field { name: "oi" number: 10 label: LABEL_OPTIONAL type: TYPE_INT32 oneof_index: 0 }
  field { name: "os" number: 11 label: LABEL_OPTIONAL type: TYPE_STRING oneof_index: 0 }
  field { name: "z" number: 18 label: LABEL_OPTIONAL type: TYPE_INT32 oneof_index: 1 }
  oneof_decl { name: "o" }
  oneof_decl { name: "o2" }
}`

const widenNew = `
name: "widen.proto" package: "evolution" syntax: "proto3"
enum_type { name: "E" value { name: "E0" number: 0 } value { name: "E_NEG" number: -2 } }
message_type {
  name: "M"
  field { name: "a" number: 1 label: LABEL_OPTIONAL type: TYPE_INT64 }
  field { name: "b" number: 2 label: LABEL_OPTIONAL type: TYPE_UINT64 }
  field { name: "c" number: 3 label: LABEL_OPTIONAL type: TYPE_INT32 }
  field { name: "c2" number: 17 label: LABEL_OPTIONAL type: TYPE_BOOL }
  field { name: "d" number: 4 label: LABEL_OPTIONAL type: TYPE_SINT64 }
  field { name: "e" number: 5 label: LABEL_OPTIONAL type: TYPE_INT32 }
  field { name: "g" number: 6 label: LABEL_OPTIONAL type: TYPE_INT32 }
  field { name: "h" number: 7 label: LABEL_OPTIONAL type: TYPE_SFIXED64 }
  field { name: "i" number: 8 label: LABEL_OPTIONAL type: TYPE_BOOL }
  field { name: "tail" number: 9 label: LABEL_OPTIONAL type: TYPE_INT32 }
  field { name: "oi" number: 10 label: LABEL_OPTIONAL type: TYPE_INT64 oneof_index: 0 }
  field { name: "os" number: 11 label: LABEL_OPTIONAL type: TYPE_STRING oneof_index: 0 }
  field { name: "added_o" number: 16 label: LABEL_OPTIONAL type: TYPE_INT32 oneof_index: 0 }
  field { name: "added" number: 12 label: LABEL_OPTIONAL type: TYPE_INT32 }
  field { name: "added_s" number: 13 label: LABEL_OPTIONAL type: TYPE_STRING }
  field { name: "added_r" number: 14 label: LABEL_REPEATED type: TYPE_INT32 }
  field { name: "added_m" number: 15 label: LABEL_OPTIONAL type: TYPE_MESSAGE type_name: ".evolution.M" }
  field { name: "z" number: 18 label: LABEL_OPTIONAL type: TYPE_INT32 oneof_index: 1 }
  oneof_decl { name: "o" }
  oneof_decl { name: "o2" }
}`

// TestSchemaWidening reads payloads of the old version with the new one,
// which widened or retyped every integer field: each value reads as
// protobuf's wire format converts it (an int32 -5 read as int64 is -5, not
// 4294967291).
func TestSchemaWidening(t *testing.T) {
	oldT, newT := isolated(t, widenOld, "M"), isolated(t, widenNew, "M")
	for _, v := range []payloadbuffer.Version{payloadbuffer.V2, payloadbuffer.V3} {
		o := dynMsg{t, impl.New(oldT, impl.Options{Version: v}), oldT}
		o.set("a", int32(-5))
		o.set("b", uint32(4000000000))
		o.set("c", true)
		o.set("d", int32(-7))
		o.set("e", protoreflect.EnumNumber(-2))
		o.set("g", int64(-3)) // narrowed to int32: truncated, as protobuf does
		o.set("h", int32(-9))
		o.set("i", int32(256)) // an int32 read as bool: true
		o.set("tail", int32(-1))
		o.set("oi", int32(-11))
		nm, err := impl.Read(newT, o.m.PayloadBytes())
		if err != nil {
			t.Fatal(err)
		}
		n := dynMsg{t, nm, newT}
		for _, c := range []struct {
			name string
			want any
		}{
			{"a", int64(-5)}, {"b", uint64(4000000000)}, {"c", int32(1)}, {"d", int64(-7)},
			{"e", int32(-2)}, {"g", int32(-3)}, {"h", int64(-9)}, {"i", true}, {"tail", int32(-1)},
			{"oi", int64(-11)},
		} {
			got, ok := n.get(c.name)
			if !ok || got.Interface() != c.want {
				t.Errorf("v%d: %s = %v (present %v), want %v", v, c.name, got.Interface(), ok, c.want)
			}
		}
		// ToProto and the view copy read the same.
		pm, err := nm.ToProto(newT)
		if err != nil {
			t.Fatal(err)
		}
		if got := pm.ProtoReflect().Get(newT.FieldByName("a").Desc).Int(); got != -5 {
			t.Errorf("v%d: ToProto: a = %d", v, got)
		}
		if got := nm.ViewOf(newT).Get64(newT.FieldByName("a").Field); int64(got) != -5 {
			t.Errorf("v%d: ViewOf: a = %d", v, int64(got))
		}

		// Writes through the new version into the old payload: a value the
		// old width holds is stored in it, so that the old reader reads it;
		// one it cannot hold is not stored, and reported.
		buf := append([]byte(nil), o.m.Payload().Buffer().Memory()...)
		wm, err := impl.Open(newT, append([]byte(nil), buf...))
		if err != nil {
			t.Fatal(err)
		}
		w := dynMsg{t, wm, newT}
		w.set("a", int64(-70000))
		w.set("b", uint64(5))
		w.set("c", int32(0))
		w.set("g", int32(-4)) // the old int64 field: sign-extended
		w.set("i", false)
		w.set("oi", int64(-12))
		if wm.Failed() || wm.Err() != nil {
			t.Fatalf("v%d: writes that fit: Failed %v, Err %v", v, wm.Failed(), wm.Err())
		}
		back, err := impl.Read(oldT, wm.PayloadBytes())
		if err != nil {
			t.Fatal(err)
		}
		b := dynMsg{t, back, oldT}
		for _, c := range []struct {
			name string
			want any
		}{
			{"a", int32(-70000)}, {"b", uint32(5)}, {"c", false}, {"g", int64(-4)}, {"i", int32(0)},
			{"tail", int32(-1)}, {"oi", int32(-12)}, {"d", int32(-7)},
		} {
			if got, _ := b.get(c.name); got.Interface() != c.want {
				t.Errorf("v%d: old reader after new writes: %s = %v, want %v", v, c.name, got.Interface(), c.want)
			}
		}
		for _, c := range []struct {
			name  string
			value any
			width uint32
		}{
			{"a", int64(1) << 40, 4}, {"b", uint64(1) << 32, 4}, {"c", int32(2), 1}, {"oi", int64(-1) << 33, 4},
		} {
			wm, err := impl.Open(newT, append([]byte(nil), buf...))
			if err != nil {
				t.Fatal(err)
			}
			dynMsg{t, wm, newT}.set(c.name, c.value)
			var fe *impl.FieldError
			if err := wm.Err(); !wm.Failed() || !errors.Is(err, impl.ErrNoField) || !errors.As(err, &fe) || fe.Width != c.width ||
				fe.Type != "evolution.M" && v == payloadbuffer.V2 {
				t.Errorf("v%d: %s = %v into %d bytes: Failed %v, Err %v", v, c.name, c.value, c.width, wm.Failed(), err)
			}
			old, _ := impl.Read(oldT, wm.PayloadBytes())
			before, _ := o.get(c.name)
			if got, _ := (dynMsg{t, old, oldT}).get(c.name); got.Interface() != before.Interface() {
				t.Errorf("v%d: a write not stored changed %s: %v, was %v", v, c.name, got.Interface(), before.Interface())
			}
		}
	}
}

// TestSchemaAddedFieldNotStored writes, through the new version, fields
// that an opened payload of the old version has no room for: the writes
// are not stored, and Failed and Err say so, naming the field.
func TestSchemaAddedFieldNotStored(t *testing.T) {
	oldT, newT := isolated(t, widenOld, "M"), isolated(t, widenNew, "M")
	for _, v := range []payloadbuffer.Version{payloadbuffer.V2, payloadbuffer.V3} {
		o := impl.New(oldT, impl.Options{Version: v})
		dynMsg{t, o, oldT}.set("a", int32(1))
		mem := o.Payload().Buffer().Memory()
		for _, c := range []struct {
			field string
			write func(w dynMsg)
		}{
			{"added", func(w dynMsg) { w.set("added", int32(1)) }},
			{"added_s", func(w dynMsg) { w.set("added_s", "s") }},
			{"added_r", func(w dynMsg) { w.m.AppendValue(w.field("added_r"), protoreflect.ValueOfInt32(1)) }},
			{"added_m", func(w dynMsg) { w.mutable("added_m") }},
			{"added_o", func(w dynMsg) { w.set("added_o", int32(1)) }},
		} {
			wm, err := impl.Open(newT, append([]byte(nil), mem...))
			if err != nil {
				t.Fatal(err)
			}
			w := dynMsg{t, wm, newT}
			w.m.ClearField(w.field(c.field)) // clearing what is not there loses nothing
			if wm.Failed() || wm.Err() != nil {
				t.Fatalf("v%d: clear of %s: Failed %v, Err %v", v, c.field, wm.Failed(), wm.Err())
			}
			c.write(w)
			err = wm.Err()
			var fe *impl.FieldError
			if !wm.Failed() || !errors.Is(err, impl.ErrNoField) || !errors.As(err, &fe) ||
				fe.Number != uint32(newT.FieldByName(c.field).Number) || fe.Width != 0 {
				t.Errorf("v%d: write of %s: Failed %v, Err %v", v, c.field, wm.Failed(), err)
				continue
			}
			if v == payloadbuffer.V2 && !strings.Contains(err.Error(), "evolution.M") {
				t.Errorf("v%d: %v does not name the message type", v, err)
			}
			if a, _ := w.get("a"); a.Int() != 1 {
				t.Errorf("v%d: a = %v after a write not stored", v, a)
			}
		}
	}
}
