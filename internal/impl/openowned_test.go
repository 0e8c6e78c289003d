package impl_test

import (
	"bytes"
	"errors"
	"fmt"
	"runtime"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/phaser-go/phaser/internal/impl"
	"github.com/phaser-go/phaser/payloadbuffer"
	"github.com/phaser-go/phaser/runtime/phaserimpl"
)

// Writes through impl.Open to movable payloads (the sender sets the flag):
// the buffer is owned and grows, so a count a write trusts can make it
// allocate what the payload cannot justify. Each test reproduces a finding
// of an open-and-write campaign on owned payloads.

// openOwned is openDesc for an owned (movable) payload.
func openOwned(t *testing.T, v payloadbuffer.Version, mutate func(data []byte, root uint32, dt *impl.Type)) (impl.Msg, *impl.Type, []byte) {
	t.Helper()
	return openDescIn(t, v, true, mutate)
}

// allocated runs f and returns how many bytes the Go heap allocated.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// bounded fails unless the writes allocated at most a small multiple of
// the payload (and the buffer stayed as small), and the payload's bytes
// and error can still be read.
func bounded(t *testing.T, what string, m impl.Msg, mem []byte, f func()) {
	t.Helper()
	var n uint64
	watchdog(what, mem, func() { n = allocated(f) })
	limit := uint64(64*len(mem) + 1<<20)
	if n > limit {
		t.Errorf("%s: %d bytes allocated for a %d-byte payload", what, n, len(mem))
	}
	if got := len(m.Payload().Buffer().Memory()); uint64(got) > limit {
		t.Errorf("%s: the buffer grew to %d bytes", what, got)
	}
	_ = m.PayloadBytes()
	_ = m.Err()
}

// TestOpenOwnedMessageCount: a format-3 message vector whose count lies
// (more elements than its chunks hold). One MessageList.Append allocated
// up to 1.07 GB for a 640-byte payload, and a count of 0x3fffffff ended
// in a fatal out-of-memory error, which recover cannot catch. The append
// must be refused with ErrCorrupt; so must a vector whose chunk count
// claims chunks the payload does not hold.
func TestOpenOwnedMessageCount(t *testing.T) {
	for _, c := range []struct {
		name          string
		count, chunks uint32
	}{
		{"count 1000", 1000, 0},
		{"count 0x10000000", 0x10000000, 0},
		{"count 0x3fffffff", 0x3fffffff, 0},
		{"chunks 24", 0, 24},
		{"chunks 24, count full", 1<<24 - 1, 24},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, dt, mem := openOwned(t, payloadbuffer.V3, func(data []byte, r uint32, dt *impl.Type) {
				slot := r + dt.FieldByName("nested_type").Offset
				mvb := binaryLE.Uint32(data[slot+4:])
				if c.chunks != 0 {
					binaryLE.PutUint32(data[mvb+4:], 1) // first capacity 1
					binaryLE.PutUint32(data[mvb+12:], c.chunks)
				}
				if c.count != 0 {
					binaryLE.PutUint32(data[slot:], c.count)
				}
			})
			f := dt.FieldByName("nested_type")
			l := impl.NewMessageList(m, f.Field, f.Type)
			bounded(t, "Append", m, mem, func() {
				l.Append()
				l.Reserve(3)
				l.Insert(0)
			})
			if !errors.Is(m.Err(), impl.ErrCorrupt) {
				t.Errorf("Err() = %v, want ErrCorrupt", m.Err())
			}
		})
	}
}

// TestOpenOwnedStringHeader: an element of a repeated string field whose
// StringHeader block offset points outside the buffer, into its header or
// at the root. StringList.Set and SetBytes panicked (slice bounds out of
// range). The element gets a StringHeader of its own, and the header is
// not written.
func TestOpenOwnedStringHeader(t *testing.T) {
	for _, v := range []payloadbuffer.Version{payloadbuffer.V2, payloadbuffer.V3} {
		for _, hdr := range []uint32{0xFFFFFFF0, 1 << 20, 8, 20, 3} {
			m, dt, mem := openOwned(t, v, func(data []byte, r uint32, dt *impl.Type) {
				slot := r + dt.FieldByName("reserved_name").Offset
				binaryLE.PutUint32(data[binaryLE.Uint32(data[slot+4:])+4:], hdr)
			})
			header := bytes.Clone(mem[:40])
			names := phaserimpl.Strings(m, dt.FieldByName("reserved_name").Field)
			bounded(t, "StringList.Set", m, mem, func() {
				names.Set(1, "replaced")
				names.SetBytes(1, []byte("bytes"))
				names.Set(0, "first")
			})
			if got := names.At(1); got != "bytes" || m.Err() != nil {
				t.Errorf("%v, header at %#x: element 1 = %q, Err() = %v", v, hdr, got, m.Err())
			}
			after := m.Payload().Buffer().Memory()[:40]
			for _, w := range []int{0, 4, 20} { // magic, root, control block
				if !bytes.Equal(after[w:w+4], header[w:w+4]) {
					t.Errorf("%v, header at %#x: header word %d changed", v, hdr, w)
				}
			}
		}
	}
}

// TestOpenOwnedControlCount: a runtime control block whose count is past
// its capacity, or whose capacity its block cannot hold. Each type
// registration doubled the block (22 small writes reached 0.5-1 GB). The
// registration must be refused with ErrCorrupt.
func TestOpenOwnedControlCount(t *testing.T) {
	for _, v := range []payloadbuffer.Version{payloadbuffer.V2, payloadbuffer.V3} {
		for _, c := range []struct{ count, capacity uint32 }{
			{8, 4}, {1000, 400}, {0x10000000, 0x7FFFFFFF}, {2, 0x10000},
		} {
			m, dt, mem := openOwned(t, v, func(data []byte, r uint32, dt *impl.Type) {
				cb := binaryLE.Uint32(data[20:])
				binaryLE.PutUint32(data[cb+12:], c.count)
				binaryLE.PutUint32(data[cb+16:], c.capacity)
			})
			bounded(t, "registering types", m, mem, func() {
				// Each message type new to the payload is registered.
				for _, name := range []string{"field", "extension", "enum_type", "extension_range", "oneof_decl", "reserved_range"} {
					f := dt.FieldByName(name)
					l := impl.NewMessageList(m, f.Field, f.Type)
					for range 4 {
						l.Append()
					}
				}
			})
			// Format 3 registers every type when the root is created:
			// there is nothing more to register.
			if err := m.Err(); !errors.Is(err, impl.ErrCorrupt) && (v == payloadbuffer.V2 || err != nil) {
				t.Errorf("%v, count %d capacity %d: Err() = %v, want ErrCorrupt", v, c.count, c.capacity, err)
			}
		}
	}
}

// TestOpenOwnedHeaderMessage: a nested message whose offset lies in the
// buffer header. Writes to its fields and edits of its lists overwrote
// the high-water mark, after which Bytes() panicked while Err() was nil.
// The message must read as absent, the writes must be refused with
// ErrCorrupt, and the header must keep its words.
func TestOpenOwnedHeaderMessage(t *testing.T) {
	for _, v := range []payloadbuffer.Version{payloadbuffer.V2, payloadbuffer.V3} {
		for _, at := range []uint32{4, 8, 16, 40} {
			m, dt, mem := openOwned(t, v, func(data []byte, r uint32, dt *impl.Type) {
				binaryLE.PutUint32(data[r+dt.FieldByName("options").Offset:], at)
			})
			header := bytes.Clone(mem[:48])
			opt := dt.FieldByName("options")
			bounded(t, "writes to a message in the header", m, mem, func() {
				o := m.MutableMessage(opt.Field, opt.Type)
				o.Set8(opt.Type.FieldByName("deprecated").Field, 1)
				u := opt.Type.FieldByName("uninterpreted_option")
				l := impl.NewMessageList(o, u.Field, u.Type)
				l.Append()
				l.Erase(0, 1)
				o.Clear(opt.Type)
			})
			if !errors.Is(m.Err(), impl.ErrCorrupt) {
				t.Errorf("%v, options at %d: Err() = %v, want ErrCorrupt", v, at, m.Err())
			}
			// The failure empties a format-3 buffer's free lists and sets
			// its failed flag; nothing else in the header changes.
			after := m.Payload().Buffer().Memory()
			for _, w := range []int{4, 8, 12, 20} { // root, hwm, full size, control block
				if !bytes.Equal(after[w:w+4], header[w:w+4]) {
					t.Errorf("%v, options at %d: header word %d is % x, was % x", v, at, w, after[w:w+4], header[w:w+4])
				}
			}
		}
	}
}

// TestBytesNeverPanics: whatever the header's high-water mark says,
// Bytes returns bytes of the buffer, and a mark past the memory fails the
// buffer with ErrCorrupt.
func TestBytesNeverPanics(t *testing.T) {
	m, _, _ := openOwned(t, payloadbuffer.V3, func([]byte, uint32, *impl.Type) {})
	buf := m.Payload().Buffer()
	buf.PutUint32(8, uint32(len(buf.Memory())+100))
	if b := m.PayloadBytes(); len(b) > len(buf.Memory()) {
		t.Fatalf("Bytes() = %d bytes of %d", len(b), len(buf.Memory()))
	}
	if !errors.Is(m.Err(), impl.ErrCorrupt) {
		t.Fatalf("Err() = %v, want ErrCorrupt", m.Err())
	}
}

// TestOpenHeaderElements: a repeated scalar whose VectorHeader puts its
// elements in the buffer header. Element writes (Msg.SetElem32, and
// runtime.List.Set, the generated lists' path; List.Assign of as many
// elements stores them the same way) wrote over the high-water
// mark and the free list's head, with Err() nil; the allocator then
// followed what they wrote. The writes must be refused with ErrCorrupt and
// the header keep its words; reads of the elements stay as they were.
func TestOpenHeaderElements(t *testing.T) {
	ft := typeOfMessage(t, &descriptorpb.FileDescriptorProto{})
	f := ft.FieldByName("public_dependency")
	for _, v := range []payloadbuffer.Version{payloadbuffer.V2, payloadbuffer.V3} {
		for _, owned := range []bool{false, true} {
			src := newOwnedOrFixed(t, ft, impl.Options{Version: v, InitialSize: 640}, owned)
			fillMsg(src, ft, (&descriptorpb.FileDescriptorProto{Name: proto.String("f"), PublicDependency: []int32{1, 2, 3}}).ProtoReflect())
			base := bytes.Clone(src.Payload().Buffer().Memory())
			hdr := src.Payload().Buffer().HeaderSize()
			for _, at := range []uint32{4, 8, 16, hdr - 8} {
				mem := bytes.Clone(base)
				binaryLE.PutUint32(mem[src.Offset()+f.Offset+4:], at) // the elements' offset
				m, err := impl.Open(ft, mem)
				if err != nil {
					t.Fatal(err)
				}
				header := bytes.Clone(mem[:hdr])
				what := fmt.Sprintf("%v, owned %t, elements at %d", v, owned, at)
				before := m.Elem32(f.Field, 1)
				m.SetElem32(f.Field, 1, 0xDEADBEEF)
				l := phaserimpl.List[int32](m, f.Field)
				l.Set(2, -1)
				l.Assign(9, 9, 9) // as many as the vector holds: stored over them, as Set would
				l.Assign(9, 9)
				if !errors.Is(m.Err(), impl.ErrCorrupt) {
					t.Errorf("%s: Err() = %v, want ErrCorrupt", what, m.Err())
				}
				if got := m.Elem32(f.Field, 1); got != before {
					t.Errorf("%s: element 1 reads %#x after the refused write, was %#x", what, got, before)
				}
				headerKept(t, what, header, m.Payload().Buffer().Memory())
			}
		}
	}
}
