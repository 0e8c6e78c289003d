package impl_test

import (
	"bytes"
	"fmt"
	"testing"

	gproto "google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/phaser-go/phaser/internal/impl"
	"github.com/phaser-go/phaser/payloadbuffer"
)

// TestInstallAfterClear: Clear of the root returns the buffer to its
// creation image, which drops tables registered since; building the same
// message again after Clear must give the bytes a fresh payload gives, and
// read back (a message given a table the reset dropped would point at
// free memory).
func TestInstallAfterClear(t *testing.T) {
	fdp, err := impl.TypeOf((&descriptorpb.FileDescriptorProto{}).ProtoReflect().Descriptor())
	if err != nil {
		t.Fatal(err)
	}
	opts, msgs := fdp.FieldByName("options"), fdp.FieldByName("message_type")
	javaPkg := opts.Type.FieldByName("java_package")
	fields := msgs.Type.FieldByName("field")
	num := fields.Type.FieldByName("number")
	build := func(m impl.Msg) []byte {
		m.MutableMessage(opts.Field, opts.Type).SetString(javaPkg.Field, "p")
		d := impl.NewMessageList(m, msgs.Field, msgs.Type).Append()
		for i := range 3 {
			impl.NewMessageList(d, fields.Field, fields.Type).Append().Set32(num.Field, uint32(i+1))
		}
		return bytes.Clone(m.PayloadBytes())
	}
	for _, v := range []payloadbuffer.Version{payloadbuffer.V2, payloadbuffer.V3} {
		want := build(impl.New(fdp, impl.Options{Version: v}))
		m := impl.New(fdp, impl.Options{Version: v})
		build(m)
		m.Clear(fdp)
		if got := build(m); v == payloadbuffer.V3 && !bytes.Equal(got, want) {
			t.Errorf("%v: built after Clear:\n% x\nfresh:\n% x", v, got, want)
		}
		r, err := impl.Read(fdp, m.PayloadBytes())
		if err != nil {
			t.Fatal(err)
		}
		d := impl.NewMessageList(r, msgs.Field, msgs.Type).At(0)
		if n := impl.NewMessageList(d, fields.Field, fields.Type).At(2).Get32(num.Field); n != 3 {
			t.Errorf("%v: the third field's number reads %d after Clear and rebuild", v, n)
		}
		if s := r.Message(opts.Field, opts.Type).StringBytes(javaPkg.Field); string(s) != "p" {
			t.Errorf("%v: java_package reads %q", v, s)
		}
	}
}

// TestInstallAfterClearLateTable is TestInstallAfterClear for a root whose
// reachable tables are too large for the creation block (spec 8.7), so
// that the nested type's table is registered only when its first message
// is made, after the creation image: Clear drops it.
func TestInstallAfterClearLateTable(t *testing.T) {
	// Root holds five messages of 250 fields: about 5 KiB of tables.
	file := &descriptorpb.FileDescriptorProto{
		Name: gproto.String("phasertest/late.proto"), Package: gproto.String("phasertest.late"), Syntax: gproto.String("proto3"),
	}
	rootD := &descriptorpb.DescriptorProto{Name: gproto.String("Root")}
	for k := range 5 {
		big := &descriptorpb.DescriptorProto{Name: gproto.String(fmt.Sprintf("Big%d", k))}
		for i := range 250 {
			big.Field = append(big.Field, &descriptorpb.FieldDescriptorProto{
				Name: gproto.String(fmt.Sprintf("f%d", i)), Number: gproto.Int32(int32(i + 1)),
				Type:  descriptorpb.FieldDescriptorProto_TYPE_INT32.Enum(),
				Label: descriptorpb.FieldDescriptorProto_LABEL_OPTIONAL.Enum(),
			})
		}
		file.MessageType = append(file.MessageType, big)
		rootD.Field = append(rootD.Field, &descriptorpb.FieldDescriptorProto{
			Name: gproto.String(fmt.Sprintf("big%d", k)), Number: gproto.Int32(int32(k + 1)), Type: descriptorpb.FieldDescriptorProto_TYPE_MESSAGE.Enum(),
			Label: descriptorpb.FieldDescriptorProto_LABEL_OPTIONAL.Enum(), TypeName: gproto.String(fmt.Sprintf(".phasertest.late.Big%d", k)),
		})
	}
	file.MessageType = append(file.MessageType, rootD)
	fd, err := protodesc.NewFile(file, nil)
	if err != nil {
		t.Fatal(err)
	}
	root, err := impl.TypeOf(fd.Messages().ByName("Root"))
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, f := range root.Fields() {
		total += len(f.Type.Table())
	}
	if total <= 4096 {
		t.Fatalf("the reachable tables are %d bytes: they would be in the creation block", total)
	}
	bigF := root.FieldByName("big4")
	last := bigF.Type.FieldByName("f249")
	build := func(m impl.Msg) []byte {
		m.MutableMessage(bigF.Field, bigF.Type).Set32(last.Field, 7)
		return bytes.Clone(m.PayloadBytes())
	}
	want := build(impl.New(root))
	m := impl.New(root)
	build(m)
	m.Clear(root)
	if got := build(m); !bytes.Equal(got, want) {
		t.Errorf("built after Clear: %d bytes, fresh: %d bytes, or different bytes", len(got), len(want))
	}
	r, err := impl.Read(root, m.PayloadBytes())
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Message(bigF.Field, bigF.Type).Get32(last.Field); got != 7 {
		t.Errorf("f249 reads %d after Clear and rebuild", got)
	}
}
