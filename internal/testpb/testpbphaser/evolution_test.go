package testpbphaser_test

import (
	"testing"

	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"

	pb "github.com/phaser-go/phaser/internal/testpb/testpbphaser"
	"github.com/phaser-go/phaser/payloadbuffer"
	"github.com/phaser-go/phaser/runtime"
)

// evolvedInner is another version of phasertest.Inner (under another name,
// since the runtime keys its types by name): a field added before the
// others, fields reordered, and Deep with a new field. Its payloads have
// other layouts, which readers resolve through the payload's field tables.
const evolvedInner = `
name: "evolved.proto" package: "evolved" syntax: "proto3"
message_type {
  name: "Inner"
  field { name: "added" number: 4 label: LABEL_OPTIONAL type: TYPE_INT64 }
  field { name: "s" number: 2 label: LABEL_OPTIONAL type: TYPE_STRING }
  field { name: "flag" number: 5 label: LABEL_OPTIONAL type: TYPE_BOOL }
  field { name: "a" number: 1 label: LABEL_OPTIONAL type: TYPE_INT32 }
  field { name: "deep" number: 3 label: LABEL_OPTIONAL type: TYPE_MESSAGE type_name: ".evolved.Inner.Deep" }
  nested_type {
    name: "Deep"
    field { name: "extra" number: 3 label: LABEL_OPTIONAL type: TYPE_STRING }
    field { name: "names" number: 2 label: LABEL_REPEATED type: TYPE_STRING }
    field { name: "x" number: 1 label: LABEL_OPTIONAL type: TYPE_INT64 }
  }
}`

func evolvedType(t *testing.T) *runtime.Type {
	t.Helper()
	fdp := new(descriptorpb.FileDescriptorProto)
	if err := prototext.Unmarshal([]byte(evolvedInner), fdp); err != nil {
		t.Fatal(err)
	}
	fd, err := protodesc.NewFile(fdp, protoregistry.GlobalFiles)
	if err != nil {
		t.Fatal(err)
	}
	typ, err := runtime.TypeOf(fd.Messages().ByName("Inner"))
	if err != nil {
		t.Fatal(err)
	}
	return typ
}

func TestSchemaEvolution(t *testing.T) {
	typ := evolvedType(t)
	for _, v := range []payloadbuffer.Version{payloadbuffer.V2, payloadbuffer.V3} {
		// Written by the new version, read by the generated (old) one.
		d := dyn{runtime.New(typ, runtime.Options{Version: v})}
		d.set("added", int64(9))
		d.set("s", "evolved")
		d.set("flag", true)
		d.set("a", int32(5))
		deep := d.mutable("deep")
		deep.set("extra", "x")
		deep.push("names", "n0")
		deep.set("x", int64(-1))
		r := must(pb.ReadInner(d.m.Bytes()))
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
		checkWritten(t, o)
		back := dyn{must(runtime.Read(typ, o.Bytes()))}
		bd := dyn{back.m.Message(back.field("deep"))}
		if back.m.Get(back.field("a")).Int() != 6 || back.m.Get(back.field("added")).Int() != 9 ||
			bd.m.Get(bd.field("x")).Int() != 7 || bd.m.Index(bd.field("names"), 1).String() != "n1" ||
			bd.m.Get(bd.field("extra")).String() != "x" {
			t.Errorf("v%d: writes through an old handle on a new payload", v)
		}

		// Written by the generated (old) version, read by the new one.
		x := pb.NewInner(runtime.Options{Version: v})
		x.SetA(3)
		x.SetS("old")
		x.MutableDeep().SetX(4)
		m, err := runtime.Read(typ, x.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		val := func(m runtime.Msg, name string) (protoreflect.Value, bool) {
			fd := dyn{m}.field(name)
			return m.Get(fd), m.Has(fd)
		}
		if a, ok := val(m, "a"); !ok || a.Int() != 3 {
			t.Errorf("v%d: new reader: a = %v", v, a)
		}
		if _, ok := val(m, "added"); ok {
			t.Errorf("v%d: new reader: a field the writer does not know is present", v)
		}
		dm := m.Message(dyn{m}.field("deep"))
		if x, ok := val(dm, "x"); !ok || x.Int() != 4 {
			t.Errorf("v%d: new reader: deep.x = %v", v, x)
		}
		if _, ok := val(dm, "extra"); ok {
			t.Errorf("v%d: new reader: deep.extra present", v)
		}
	}
}
