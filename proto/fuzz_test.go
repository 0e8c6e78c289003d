package proto_test

import (
	"errors"
	"testing"

	gproto "google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/phaser-go/phaser/payloadbuffer"
	"github.com/phaser-go/phaser/proto"
	"github.com/phaser-go/phaser/runtime"
)

// fileDescriptorType is a rich schema known to every build: nested and
// repeated messages, enums, strings, proto2 presence.
func fileDescriptorType(t testing.TB) *runtime.Type {
	typ, err := runtime.TypeOf((&descriptorpb.FileDescriptorProto{}).ProtoReflect().Descriptor())
	if err != nil {
		t.Fatal(err)
	}
	return typ
}

// FuzzUnmarshal parses arbitrary bytes into a fixed and an owned buffer: no
// panic, errors wrap ErrInvalid or ErrFull, and what parses marshals to
// bytes protobuf-go reads as the same message, its unknown fields
// included.
func FuzzUnmarshal(f *testing.F) {
	typ := fileDescriptorType(f)
	seed, _ := gproto.Marshal(protodesc.ToFileDescriptorProto(descriptorpb.File_google_protobuf_descriptor_proto))
	f.Add(seed[:min(len(seed), 2000)])
	f.Add([]byte{0x0a, 0x03, 'a', 'b', 'c', 0x12, 0x01, 'x'})
	f.Add([]byte{0x22, 0x80, 0x80, 0x80, 0x80, 0x10})                                     // overlong length
	f.Add([]byte{0x22, 0x05, 0x0a, 0x03, 'a'})                                            // truncated nested
	f.Add([]byte{0x50, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}) // bad varint
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<16 {
			return
		}
		fixed, err := runtime.NewIn(typ, make([]byte, 4096), runtime.Options{Tuning: payloadbuffer.Size})
		if err != nil {
			t.Fatal(err)
		}
		if err := proto.Unmarshal(data, fixed); err != nil && !errors.Is(err, proto.ErrInvalid) && !errors.Is(err, runtime.ErrFull) {
			t.Fatalf("unexpected error kind: %v", err)
		}
		owned := runtime.New(typ, runtime.Options{})
		err = proto.Unmarshal(data, owned)
		if err != nil {
			if !errors.Is(err, proto.ErrInvalid) {
				t.Fatalf("unexpected error kind: %v", err)
			}
			return
		}
		if n := len(owned.Bytes()); n > 64*len(data)+1<<16 {
			t.Fatalf("%d input bytes made a %d-byte payload", len(data), n)
		}
		out, err := proto.Marshal(owned)
		if err != nil {
			t.Fatal(err)
		}
		var ref, back descriptorpb.FileDescriptorProto
		if err := gproto.Unmarshal(data, &ref); err != nil {
			return // protobuf-go is stricter in places (e.g. groups in unknown fields are fine for both)
		}
		if err := gproto.Unmarshal(out, &back); err != nil {
			t.Fatalf("protobuf-go rejects our output: %v", err)
		}
		if !gproto.Equal(&ref, &back) {
			t.Fatalf("round trip differs:\n in: %v\nout: %v", &ref, &back)
		}
	})
}
