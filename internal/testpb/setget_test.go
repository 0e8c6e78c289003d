package testpb_test

import (
	"bytes"
	"math/rand/v2"
	"testing"

	gproto "google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/phaser-go/phaser/payloadbuffer"
	phaserproto "github.com/phaser-go/phaser/proto"
	"github.com/phaser-go/phaser/runtime"
)

// TestSetGetEveryKind writes random messages of the test schemas through
// the dynamic view's Set, one protoreflect value per field whatever its
// kind (scalar, enum, string, bytes, message, list, map, Any, oneof), and
// through CopyFromProto, and reads every field back with Get: the payload
// marshals to protobuf-go's bytes, and Get's values make protobuf-go's
// message again.
func TestSetGetEveryKind(t *testing.T) {
	registerAll(t)
	for _, root := range conformanceRoots() {
		md := root.ProtoReflect().Descriptor()
		typ, err := runtime.TypeOf(md)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(string(md.Name()), func(t *testing.T) {
			for seed := range uint64(300) {
				rng := rand.New(rand.NewPCG(seed, 0x51ed2701))
				src := root.ProtoReflect().New()
				fill(rng, src, 0)
				ref, err := gproto.MarshalOptions{Deterministic: true}.Marshal(src.Interface())
				if err != nil {
					t.Fatal(err)
				}
				v := payloadbuffer.Version(2 + seed%2)
				set := runtime.New(typ, runtime.Options{Version: v})
				src.Range(func(fd protoreflect.FieldDescriptor, val protoreflect.Value) bool {
					set.Set(fd, val)
					return true
				})
				copied := runtime.New(typ, runtime.Options{Version: v})
				if err := copied.CopyFromProto(src.Interface()); err != nil {
					t.Fatalf("seed %d: CopyFromProto: %v", seed, err)
				}
				for how, m := range map[string]runtime.Msg{"Set": set, "CopyFromProto": copied} {
					if m.Failed() {
						t.Fatalf("seed %d: %s: %v", seed, how, m.Err())
					}
					got, err := phaserproto.Marshal(m)
					if err != nil || !bytes.Equal(got, ref) {
						t.Fatalf("seed %d %s: %s: marshals to other bytes (%v)\n got: % x\nwant: % x", seed, v, how, err, got, ref)
					}
					// Get of every field, into a protobuf message.
					back := dynamicpb.NewMessage(md)
					fields := md.Fields()
					for i := range fields.Len() {
						fd := fields.Get(i)
						if !m.Has(fd) {
							continue
						}
						val := m.Get(fd)
						if !val.IsValid() {
							t.Fatalf("seed %d %s: Get(%s) is invalid", seed, how, fd.Name())
						}
						back.Set(fd, val)
					}
					if !gproto.Equal(back, src.Interface()) {
						t.Fatalf("seed %d %s: Get's values make another message", seed, how)
					}
				}
			}
		})
	}
}
