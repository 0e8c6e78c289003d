package impl_test

import (
	"testing"

	gproto "google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/phaser-go/phaser/internal/impl"
	"github.com/phaser-go/phaser/internal/layout"
	"github.com/phaser-go/phaser/payloadbuffer"
)

// TestReadInlineMessages reads a v3 payload laid out by the ROS frontend
// (spec 8.9: a singular message stored inside its holder, table id 0xFF)
// through the protobuf-frontend type: the reader finds the inline message
// through the payload's table, and an inline message whose word is 0 is
// absent.
func TestReadInlineMessages(t *testing.T) {
	opt := descriptorpb.FieldDescriptorProto_LABEL_OPTIONAL.Enum()
	f := func(name string, num int32, typ descriptorpb.FieldDescriptorProto_Type, msg string) *descriptorpb.FieldDescriptorProto {
		fd := &descriptorpb.FieldDescriptorProto{Name: gproto.String(name), Number: gproto.Int32(num), Type: typ.Enum(), Label: opt, JsonName: gproto.String(name)}
		if msg != "" {
			fd.TypeName = gproto.String(msg)
		}
		return fd
	}
	fd, err := protodesc.NewFile(&descriptorpb.FileDescriptorProto{
		Name: gproto.String("phasertest/inline.proto"), Package: gproto.String("phasertest.inline"), Syntax: gproto.String("proto3"),
		MessageType: []*descriptorpb.DescriptorProto{
			{Name: gproto.String("Inner"), Field: []*descriptorpb.FieldDescriptorProto{
				f("a", 1, descriptorpb.FieldDescriptorProto_TYPE_INT32, ""),
				f("b", 2, descriptorpb.FieldDescriptorProto_TYPE_INT64, ""),
			}},
			{Name: gproto.String("Holder"), Field: []*descriptorpb.FieldDescriptorProto{
				f("seq", 1, descriptorpb.FieldDescriptorProto_TYPE_UINT32, ""),
				f("inner", 2, descriptorpb.FieldDescriptorProto_TYPE_MESSAGE, ".phasertest.inline.Inner"),
				f("name", 3, descriptorpb.FieldDescriptorProto_TYPE_STRING, ""),
			}},
		},
	}, protoregistry.GlobalFiles)
	if err != nil {
		t.Fatal(err)
	}
	innerD, holderD := fd.Messages().Get(0), fd.Messages().Get(1)
	ros, err := layout.NewCache(layout.Options{Version: 3, ROSFrontend: true}).Of(holderD)
	if err != nil {
		t.Fatal(err)
	}
	in := ros.FieldByName("inner")
	if !in.Inline || in.ID != layout.InlineID {
		t.Fatalf("the ROS layout does not inline inner: %+v", in)
	}
	innerL := in.Message

	// Write the payload as a ROS-frontend writer would.
	for _, present := range []bool{true, false} {
		buf, err := payloadbuffer.NewFixed(make([]byte, 1024), payloadbuffer.Options{Version: payloadbuffer.V3, Tuning: payloadbuffer.Size})
		if err != nil {
			t.Fatal(err)
		}
		root := buf.Allocate(int(ros.BinarySize), payloadbuffer.Zero)
		buf.SetMessage(root)
		table := func(b []byte) uint32 {
			off := buf.Allocate(len(b), 0)
			copy(buf.Slice(off, uint32(len(b))), b)
			return off
		}
		buf.PutUint32(root, table(ros.Table))
		seq := ros.FieldByName("seq")
		buf.PutUint32(root+seq.Offset, 7)
		buf.PutUint32(root+4, buf.Uint32(root+4)|1<<seq.ID)
		if present {
			im := root + in.Offset
			buf.PutUint32(im, table(innerL.Table))
			a := innerL.FieldByName("a")
			buf.PutUint32(im+a.Offset, 0xABCD)
			buf.PutUint32(im+4, buf.Uint32(im+4)|1<<a.ID)
		}

		holder, err := impl.TypeOf(holderD)
		if err != nil {
			t.Fatal(err)
		}
		inner, err := impl.TypeOf(innerD)
		if err != nil {
			t.Fatal(err)
		}
		m, err := impl.Read(holder, buf.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		hf, af := holder.FieldByName("inner"), inner.FieldByName("a")
		if got := m.Get32(holder.FieldByName("seq").Field); got != 7 {
			t.Fatalf("seq = %d, want 7", got)
		}
		if m.HasMessage(hf.Field) != present {
			t.Fatalf("present=%t: HasMessage = %t", present, !present)
		}
		want := uint32(0)
		if present {
			want = 0xABCD
		}
		if got := m.Message(hf.Field, inner).Get32(af.Field); got != want {
			t.Fatalf("present=%t: inner.a = %#x, want %#x", present, got, want)
		}
		if _, err := m.ToProto(holder); err != nil {
			t.Fatal(err)
		}

		// Continuing the payload (Open) writes the inline message in place.
		w, err := impl.Open(holder, append([]byte(nil), buf.Memory()...))
		if err != nil {
			t.Fatal(err)
		}
		w.MutableMessage(hf.Field, inner).Set32(af.Field, 99)
		if got := w.Message(hf.Field, inner).Get32(af.Field); got != 99 || !w.HasMessage(hf.Field) {
			t.Fatalf("present=%t: inline write reads %d", present, got)
		}
		if got := binaryLE.Uint32(w.PayloadBytes()[root+in.Offset+innerL.FieldByName("a").Offset:]); got != 99 {
			t.Fatalf("present=%t: the write did not land in the holder (%d)", present, got)
		}
		w.ClearMessage(hf.Field, inner)
		if w.HasMessage(hf.Field) {
			t.Fatalf("present=%t: inline message present after ClearMessage", present)
		}
	}
}
