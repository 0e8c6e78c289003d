package impl_test

import (
	"bytes"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/phaser-go/phaser/internal/impl"
	"github.com/phaser-go/phaser/payloadbuffer"
	"github.com/phaser-go/phaser/runtime/phaserimpl"
)

// Writes through impl.Open to payloads written elsewhere (hostile input
// on the write path; FuzzOpenWrite finds these).

// openDesc writes a DescriptorProto with two nested types, two reserved
// names and options into fixed memory, lets mutate rewrite its bytes, and
// opens the result for writing.
func openDesc(t *testing.T, v payloadbuffer.Version, mutate func(data []byte, root uint32, dt *impl.Type)) (impl.Msg, *impl.Type, []byte) {
	t.Helper()
	return openDescIn(t, v, false, mutate)
}

// openDescIn is openDesc in fixed memory or, owned, in an owned buffer
// whose memory a copy of which is opened (a movable payload: Open makes it
// owned and growable).
func openDescIn(t *testing.T, v payloadbuffer.Version, owned bool, mutate func(data []byte, root uint32, dt *impl.Type)) (impl.Msg, *impl.Type, []byte) {
	t.Helper()
	dt := typeOfMessage(t, &descriptorpb.DescriptorProto{})
	m := newOwnedOrFixed(t, dt, impl.Options{Version: v, Tuning: payloadbuffer.Size, InitialSize: 640}, owned)
	fillMsg(m, dt, (&descriptorpb.DescriptorProto{
		Name:         proto.String("M"),
		NestedType:   []*descriptorpb.DescriptorProto{{Name: proto.String("N")}, {Name: proto.String("O")}},
		ReservedName: []string{"x", "y"},
		Options:      &descriptorpb.MessageOptions{Deprecated: proto.Bool(true)},
	}).ProtoReflect())
	if m.Err() != nil {
		t.Fatal(m.Err())
	}
	mem := bytes.Clone(m.Payload().Buffer().Memory())
	mutate(mem, m.Offset(), dt)
	w, err := impl.Open(dt, mem)
	if err != nil {
		t.Fatal(err)
	}
	if w.Payload().Buffer().Fixed() == owned {
		t.Fatalf("opened an owned=%t payload as fixed=%t", owned, w.Payload().Buffer().Fixed())
	}
	return w, dt, mem
}

// newOwnedOrFixed returns a new, empty message of type typ: in an owned
// buffer, or in 4096 bytes of fixed memory.
func newOwnedOrFixed(t *testing.T, typ *impl.Type, opts impl.Options, owned bool) impl.Msg {
	t.Helper()
	if owned {
		return impl.New(typ, opts)
	}
	m, err := impl.NewIn(typ, make([]byte, 4096), opts)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestWriteHostileVectorCount guards the edits of repeated fields of a
// payload continued with Open whose VectorHeader counts more elements than
// its block holds: StringList.Erase and MessageList.Erase read and shifted
// elements past the payload (slice bounds panics), MessageList.Mutable and
// StringList.Set wrote element slots there. They must be refused.
func TestWriteHostileVectorCount(t *testing.T) {
	for _, count := range []uint32{1000, 0x7FFFFFFF, 0xFFFFFFFF} {
		m, dt, mem := openDesc(t, payloadbuffer.V2, func(data []byte, r uint32, dt *impl.Type) {
			binaryLE.PutUint32(data[r+dt.FieldByName("reserved_name").Offset:], count)
			binaryLE.PutUint32(data[r+dt.FieldByName("nested_type").Offset:], count)
		})
		names := phaserimpl.Strings(m, dt.FieldByName("reserved_name").Field)
		nested := dt.FieldByName("nested_type")
		types := impl.NewMessageList(m, nested.Field, nested.Type)
		before := len(mem)
		names.Erase(0, 1)
		names.Insert(1, "z")
		names.Set(5, "w")
		types.Erase(0, 1)
		types.Mutable(5).SetString(nested.Type.FieldByName("name").Field, "P")
		types.Insert(1)
		if len(m.PayloadBytes()) > before {
			t.Errorf("count %#x: the payload grew past its memory", count)
		}
	}
}

// TestClearHostileCycle guards Clear against a payload continued with Open
// in which a message holds itself (a nested message slot, or an element of
// a repeated message field, that is the root's own offset): Clear recursed
// until the stack overflowed (a fatal error, not even a panic). It must
// return, and the payload must still read.
func TestClearHostileCycle(t *testing.T) {
	for _, v := range []payloadbuffer.Version{payloadbuffer.V2, payloadbuffer.V3} {
		m, dt, mem := openDesc(t, v, func(data []byte, r uint32, dt *impl.Type) {
			binaryLE.PutUint32(data[r+dt.FieldByName("options").Offset:], r)
			if v == payloadbuffer.V2 { // elements are offsets of messages
				e := binaryLE.Uint32(data[r+dt.FieldByName("nested_type").Offset+4:])
				binaryLE.PutUint32(data[e:], r)
			}
		})
		watchdog("Clear of a message that holds itself", mem, func() { m.Clear(dt) })
		if _, err := impl.Read(dt, mem); err != nil {
			t.Fatalf("%v: after Clear: %v", v, err)
		}
	}
}

// TestWriteHostileControlCount guards the registration of a new type in a
// payload continued with Open whose runtime control block counts more
// entries than the payload holds (or has no room for the next one): the
// new entry was written past the payload (slice bounds out of range in
// addMetadata; FuzzOpenWrite input beaac673d4594ca1). The write must fail
// instead.
func TestWriteHostileControlCount(t *testing.T) {
	for _, v := range []payloadbuffer.Version{payloadbuffer.V2, payloadbuffer.V3} {
		for _, c := range []struct{ count, capacity uint32 }{
			{500, 0xFFFFFFFF}, {0x10000000, 0xFFFFFFFF}, {0xFFFFFFF0, 0xFFFFFFFF}, {400, 300}, {7, 0},
		} {
			m, dt, mem := openDesc(t, v, func(data []byte, r uint32, dt *impl.Type) {
				cb := binaryLE.Uint32(data[20:])
				binaryLE.PutUint32(data[cb+12:], c.count)
				binaryLE.PutUint32(data[cb+16:], c.capacity)
			})
			watchdog("registering a type", mem, func() {
				opt := dt.FieldByName("options")
				m.MutableMessage(opt.Field, opt.Type)
				ext := dt.FieldByName("extension_range")
				impl.NewMessageList(m, ext.Field, ext.Type).Append()
			})
		}
	}
}
