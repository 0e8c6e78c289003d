package impl_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"testing"

	gproto "google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/phaser-go/phaser/internal/impl"
	"github.com/phaser-go/phaser/payloadbuffer"
)

// testTypes builds, without protoc, a std_msgs.Header-shaped message, a
// strings message and a nested-message array.
func testTypes(t testing.TB) (header, strs, arrays *impl.Type) {
	t.Helper()
	return testTypesFor(t, impl.ProtobufFrontend)
}

// testTypesFor returns the test types compiled for frontend fe (with the
// ROS frontend, Header's stamp is stored inline in format v3).
func testTypesFor(t testing.TB, fe impl.Frontend) (header, strs, arrays *impl.Type) {
	t.Helper()
	opt := descriptorpb.FieldDescriptorProto_LABEL_OPTIONAL.Enum()
	rep := descriptorpb.FieldDescriptorProto_LABEL_REPEATED.Enum()
	field := fieldProto
	fdp := &descriptorpb.FileDescriptorProto{
		Name:       gproto.String("phasertest/failure.proto"),
		Package:    gproto.String("phasertest"),
		Syntax:     gproto.String("proto3"),
		Dependency: []string{"google/protobuf/timestamp.proto"},
		MessageType: []*descriptorpb.DescriptorProto{{
			Name: gproto.String("Header"),
			Field: []*descriptorpb.FieldDescriptorProto{
				field("seq", 1, descriptorpb.FieldDescriptorProto_TYPE_UINT32, opt, ""),
				field("stamp", 2, descriptorpb.FieldDescriptorProto_TYPE_MESSAGE, opt, ".google.protobuf.Timestamp"),
				field("frame_id", 3, descriptorpb.FieldDescriptorProto_TYPE_STRING, opt, ""),
			},
		}, {
			Name: gproto.String("Strings"),
			Field: []*descriptorpb.FieldDescriptorProto{
				field("title", 1, descriptorpb.FieldDescriptorProto_TYPE_STRING, opt, ""),
				field("names", 2, descriptorpb.FieldDescriptorProto_TYPE_STRING, rep, ""),
				field("blob", 3, descriptorpb.FieldDescriptorProto_TYPE_BYTES, opt, ""),
			},
		}, {
			Name: gproto.String("Arrays"),
			Field: []*descriptorpb.FieldDescriptorProto{
				field("items", 1, descriptorpb.FieldDescriptorProto_TYPE_MESSAGE, rep, ".phasertest.Header"),
				field("values", 2, descriptorpb.FieldDescriptorProto_TYPE_INT32, rep, ""),
			},
		}},
	}
	fd, err := protodesc.NewFile(fdp, protoregistry.GlobalFiles)
	if err != nil {
		t.Fatal(err)
	}
	types := make([]*impl.Type, 3)
	for i := range types {
		if types[i], err = impl.TypeFor(fd.Messages().Get(i), fe); err != nil {
			t.Fatal(err)
		}
	}
	return types[0], types[1], types[2]
}

// step is one write; check tells whether its effect is visible. A later
// step with the same key overwrites it.
type step struct {
	name  string
	key   string
	do    func(m impl.Msg)
	check func(m impl.Msg) bool
}

func field(t *impl.Type, name string) *impl.FieldInfo {
	f := t.FieldByName(name)
	if f == nil {
		panic("no field " + name)
	}
	return f
}

// scripts returns the write sequences of the three test messages.
func scripts(header, strs, arrays *impl.Type) map[*impl.Type][]step {
	seq, stamp, frame := field(header, "seq"), field(header, "stamp"), field(header, "frame_id")
	secs := field(stamp.Type, "seconds")
	title, names, blob := field(strs, "title"), field(strs, "names"), field(strs, "blob")
	items, values := field(arrays, "items"), field(arrays, "values")
	out := map[*impl.Type][]step{
		header: {
			{"seq", "seq", func(m impl.Msg) { m.Set32(seq.Field, 7) }, func(m impl.Msg) bool { return m.Get32(seq.Field) == 7 }},
			{"stamp", "stamp", func(m impl.Msg) { m.MutableMessage(stamp.Field, stamp.Type).Set64(secs.Field, 99) },
				func(m impl.Msg) bool { return m.Message(stamp.Field, stamp.Type).Get64(secs.Field) == 99 }},
			{"frame_id", "frame_id", func(m impl.Msg) { m.SetString(frame.Field, "base_link") },
				func(m impl.Msg) bool { return string(m.StringBytes(frame.Field)) == "base_link" }},
		},
		strs: {
			{"title", "title", func(m impl.Msg) { m.SetString(title.Field, "a title") },
				func(m impl.Msg) bool { return string(m.StringBytes(title.Field)) == "a title" }},
			{"longer title", "title", func(m impl.Msg) { m.SetString(title.Field, "a much longer title than before") },
				func(m impl.Msg) bool {
					return string(m.StringBytes(title.Field)) == "a much longer title than before"
				}},
			{"blob", "blob", func(m impl.Msg) { m.SetBytes(blob.Field, bytes.Repeat([]byte{1, 2, 3}, 50)) },
				func(m impl.Msg) bool { return len(m.StringBytes(blob.Field)) == 150 }},
		},
		arrays: nil,
	}
	for i := range 12 {
		s := fmt.Sprintf("name %d", i)
		out[strs] = append(out[strs], step{"names " + s, s, func(m impl.Msg) { m.PushString(names.Field, s) },
			func(m impl.Msg) bool { return string(m.ElemString(names.Field, i)) == s }})
	}
	for i := range 10 {
		out[arrays] = append(out[arrays],
			step{fmt.Sprintf("item %d", i), fmt.Sprint("item", i), func(m impl.Msg) {
				e := m.AddMessage(items.Field, items.Type)
				e.Set32(seq.Field, uint32(100+i))
				e.SetString(frame.Field, "frame")
			}, func(m impl.Msg) bool {
				e := m.ElemMessage(items.Field, i, items.Type)
				return e.Get32(seq.Field) == uint32(100+i) && string(e.StringBytes(frame.Field)) == "frame"
			}},
			step{fmt.Sprintf("value %d", i), fmt.Sprint("value", i), func(m impl.Msg) { m.Push32(values.Field, uint32(i*i+1)) },
				func(m impl.Msg) bool { return m.Elem32(values.Field, i) == uint32(i*i+1) }})
	}
	return out
}

// TestFixedBufferEverySize builds each test message in every fixed buffer
// size from 0 to 4096 bytes, in both formats and tunings: the guard bytes
// after the buffer stay untouched, Failed is set exactly when a write did not
// take effect, what was written before the failure reads back, and after the
// root's Clear the message fills again.
//
// The ROS frontend's types run too: in format v3 Header's stamp is an
// inline message, created in room the holder already has.
func TestFixedBufferEverySize(t *testing.T) {
	for _, fe := range []impl.Frontend{impl.ProtobufFrontend, impl.ROSFrontend} {
		header, strs, arrays := testTypesFor(t, fe)
		all := scripts(header, strs, arrays)
		for _, typ := range []*impl.Type{header, strs, arrays} {
			for _, v := range []payloadbuffer.Version{payloadbuffer.V2, payloadbuffer.V3} {
				for _, tu := range []payloadbuffer.Tuning{payloadbuffer.Performance, payloadbuffer.Size} {
					opts := impl.Options{Version: v, Tuning: tu}
					t.Run(fmt.Sprintf("%s/%s/%s/%s", fe, typ.Name(), v, tu), func(t *testing.T) {
						failures := 0
						for size := 0; size <= 4096; size++ {
							failures += fillAtSize(t, typ, all[typ], size, opts)
						}
						t.Logf("%d of 4097 sizes ran out of room", failures)
					})
				}
			}
		}
	}
}

const guard = 0xA5

func fillAtSize(t *testing.T, typ *impl.Type, steps []step, size int, opts impl.Options) int {
	mem := bytes.Repeat([]byte{guard}, size+64)
	clear(mem[:size])
	m, err := impl.NewIn(typ, mem[:size:size], opts)
	if err != nil {
		switch {
		case size < payloadbuffer.FixedHeaderSize && !errors.Is(err, impl.ErrTooSmall):
			t.Fatalf("size %d: %v, want ErrTooSmall", size, err)
		case size >= payloadbuffer.FixedHeaderSize && !errors.Is(err, impl.ErrNoFit):
			t.Fatalf("size %d: %v, want ErrNoFit", size, err)
		}
		checkGuard(t, mem, size)
		return 0
	}
	failedAt := run(t, m, steps, size)
	checkGuard(t, mem, size)
	if failedAt < 0 {
		return 0
	}
	// Clearing the root resets the buffer; the same writes then behave the
	// same way again.
	m.Clear(typ)
	if m.Failed() || m.Err() != nil {
		t.Fatalf("size %d: still failed after the root's Clear: %v", size, m.Err())
	}
	for _, s := range steps {
		if s.check(m) {
			t.Fatalf("size %d: %s survived the root's Clear", size, s.name)
		}
	}
	if again := run(t, m, steps, size); again != failedAt {
		t.Fatalf("size %d: after Clear the writes fail at step %d, first time at %d", size, again, failedAt)
	}
	checkGuard(t, mem, size)
	return 1
}

// run applies steps and returns the index of the first that did not take
// effect, or -1.
func run(t *testing.T, m impl.Msg, steps []step, size int) int {
	failedAt := -1
	for i, s := range steps {
		s.do(m)
		ok := s.check(m)
		switch {
		case failedAt < 0 && !ok:
			if !m.Failed() {
				t.Fatalf("size %d: %s did not take effect but Failed() is false", size, s.name)
			}
			failedAt = i
		case failedAt < 0 && m.Failed():
			// The write itself fit; a later part of it (e.g. metadata)
			// failed. It must still have taken no partial harmful effect.
			failedAt = i
		}
		if failedAt >= 0 && !m.Failed() {
			t.Fatalf("size %d: Failed() reset by %s", size, s.name)
		}
	}
	for i := range steps {
		if failedAt >= 0 && i >= failedAt {
			break
		}
		if overwritten(steps, i, failedAt) {
			continue
		}
		if !steps[i].check(m) {
			t.Fatalf("size %d: %s lost after later writes", size, steps[i].name)
		}
	}
	if failedAt < 0 && m.Failed() {
		t.Fatalf("size %d: Failed() with every write in place", size)
	}
	return failedAt
}

func checkGuard(t *testing.T, mem []byte, size int) {
	t.Helper()
	for i, b := range mem[size:] {
		if b != guard {
			t.Fatalf("size %d: byte %d past the buffer written", size, size+i)
		}
	}
}

// TestElementHandlesStable checks that a handle on an element of a repeated
// message field keeps reading and writing the same element while the field
// grows, in owned and fixed buffers of both formats.
func TestElementHandlesStable(t *testing.T) {
	_, _, arrays := testTypes(t)
	items := field(arrays, "items")
	seq := field(items.Type, "seq")
	for _, v := range []payloadbuffer.Version{payloadbuffer.V2, payloadbuffer.V3} {
		for _, fixed := range []bool{false, true} {
			for _, n := range []int{1, 10, 1000} {
				t.Run(fmt.Sprintf("%s/fixed=%t/%d", v, fixed, n), func(t *testing.T) {
					opts := impl.Options{Version: v}
					m := impl.New(arrays, opts)
					if fixed {
						var err error
						if m, err = impl.NewIn(arrays, make([]byte, 1<<20), opts); err != nil {
							t.Fatal(err)
						}
					}
					first := m.AddMessage(items.Field, items.Type)
					first.Set32(seq.Field, 1)
					for i := range n {
						m.AddMessage(items.Field, items.Type).Set32(seq.Field, uint32(i+2))
					}
					if m.Failed() {
						t.Fatal(m.Err())
					}
					if got := first.Get32(seq.Field); got != 1 {
						t.Fatalf("handle reads %d, want 1", got)
					}
					first.Set32(seq.Field, 42)
					if got := m.ElemMessage(items.Field, 0, items.Type).Get32(seq.Field); got != 42 {
						t.Fatalf("element 0 reads %d after a write through the old handle, want 42", got)
					}
					if got := m.MessagesLen(items.Field); got != n+1 {
						t.Fatalf("len %d, want %d", got, n+1)
					}
				})
			}
		}
	}
}

// TestHeaderPayloadSize reports the size of a fresh Header-shaped payload in
// each format (the C++ 3.0 notes report 1048 -> 384 bytes) and requires v3
// to be smaller than v2 with performance tuning.
func TestHeaderPayloadSize(t *testing.T) {
	sizes := map[string]int{}
	for _, fe := range []impl.Frontend{impl.ProtobufFrontend, impl.ROSFrontend} {
		header, _, _ := testTypesFor(t, fe)
		for _, v := range []payloadbuffer.Version{payloadbuffer.V2, payloadbuffer.V3} {
			for _, tu := range []payloadbuffer.Tuning{payloadbuffer.Performance, payloadbuffer.Size} {
				m, err := impl.NewIn(header, make([]byte, 8192), impl.Options{Version: v, Tuning: tu})
				if err != nil {
					t.Fatal(err)
				}
				key := fmt.Sprintf("%s/%s", v, tu)
				if fe == impl.ROSFrontend {
					key = "ros/" + key
				}
				sizes[key] = len(m.PayloadBytes())
			}
		}
	}
	t.Logf("fresh Header payload bytes: %v", sizes)
	if sizes["v3/performance"] >= sizes["v2/performance"] {
		t.Fatalf("v3 payload %d bytes is not smaller than v2's %d", sizes["v3/performance"], sizes["v2/performance"])
	}
}

// overwritten reports whether a later step that took effect wrote the same
// field as step i.
func overwritten(steps []step, i, failedAt int) bool {
	for j := i + 1; j < len(steps) && (failedAt < 0 || j < failedAt); j++ {
		if steps[j].key == steps[i].key {
			return true
		}
	}
	return false
}

// TestMessageVectorBlock checks the v3 repeated-message layout (spec 8.8):
// adding into room that exists allocates nothing, later chunks double, and
// a payload whose block lies is read as an empty field.
func TestMessageVectorBlock(t *testing.T) {
	_, _, arrays := testTypes(t)
	items := field(arrays, "items")
	seq := field(items.Type, "seq")
	m := impl.New(arrays, impl.Options{Version: payloadbuffer.V3})
	m.ReserveMessages(items.Field, 4, items.Type)
	hwm := len(m.PayloadBytes())
	for i := range 4 {
		m.AddMessage(items.Field, items.Type).Set32(seq.Field, uint32(i))
	}
	if got := len(m.PayloadBytes()); got != hwm {
		t.Fatalf("adding into reserved room moved the high-water mark %d -> %d", hwm, got)
	}
	m.AddMessage(items.Field, items.Type) // a second chunk of 8
	if got := len(m.PayloadBytes()); got <= hwm {
		t.Fatalf("the fifth element allocated no chunk")
	}
	payload := append([]byte(nil), m.PayloadBytes()...)
	r, err := impl.Read(arrays, payload)
	if err != nil {
		t.Fatal(err)
	}
	if n := r.MessagesLen(items.Field); n != 5 {
		t.Fatalf("read %d elements, want 5", n)
	}
	for i := range 4 {
		if got := r.ElemMessage(items.Field, i, items.Type).Get32(seq.Field); got != uint32(i) {
			t.Fatalf("element %d reads %d", i, got)
		}
	}
	slot := r.Offset() + items.Offset
	data := binary.LittleEndian.Uint32(payload[slot+4:])
	// A count the payload cannot hold (the chunk count claims 2^31 elements
	// of capacity): the field reads as empty rather than as billions of
	// absent elements to loop over.
	lie := bytes.Clone(payload)
	binary.LittleEndian.PutUint32(lie[slot:], 1<<30)
	binary.LittleEndian.PutUint32(lie[data+12:], 31) // chunks in use
	if r, _ := impl.Read(arrays, lie); r.MessagesLen(items.Field) != 0 {
		t.Fatalf("a count of 2^30 in a %d-byte payload reads as %d elements", len(lie), r.MessagesLen(items.Field))
	}
	// Corrupt the block's stride: the field reads as empty, no panic.
	binary.LittleEndian.PutUint32(payload[data:], 0xFFFFFFF0)
	if r, _ := impl.Read(arrays, payload); r.MessagesLen(items.Field) != 0 {
		t.Fatal("a block with an impossible stride reads as non-empty")
	}
}

// fieldProto returns the descriptor of field name (number num, of type typ
// with label, msg its message type's full name or "").
func fieldProto(name string, num int32, typ descriptorpb.FieldDescriptorProto_Type, label *descriptorpb.FieldDescriptorProto_Label, msg string) *descriptorpb.FieldDescriptorProto {
	f := &descriptorpb.FieldDescriptorProto{Name: gproto.String(name), Number: gproto.Int32(num), Type: typ.Enum(), Label: label, JsonName: gproto.String(name)}
	if msg != "" {
		f.TypeName = gproto.String(msg)
	}
	return f
}
