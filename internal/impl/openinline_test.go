package impl_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/phaser-go/phaser/internal/impl"
	"github.com/phaser-go/phaser/internal/testpb/roswire/roswireros/roswirephaser"
	"github.com/phaser-go/phaser/payloadbuffer"
	"github.com/phaser-go/phaser/ros"
	"github.com/phaser-go/phaser/runtime"
)

// Offsets a payload continued with Open holds, followed by paths other
// than a field's own (TestOpenHeaderElements): each test reproduces a
// finding of an audit of the write paths of such payloads.

// headerKept fails unless the header words no write may change (the root,
// the high-water mark, the full size and the control block) are as they
// were; a failure may empty the free lists and set the failed flag.
func headerKept(t *testing.T, what string, before, after []byte) {
	t.Helper()
	for _, w := range []int{4, 8, 12, 20} {
		if !bytes.Equal(after[w:w+4], before[w:w+4]) {
			t.Errorf("%s: header word %d is % x, was % x", what, w, after[w:w+4], before[w:w+4])
		}
	}
}

// TestOpenHeaderChunk: a format-3 message vector whose chunk 1 lies in
// the buffer header. MessageAppender.Append checked the chunk it moved to
// against the memory only, and the second Append cleared an element's
// width there and wrote its table word: the high-water mark, the full size
// and the control block were overwritten, with Err() nil. The Append must
// be refused with ErrCorrupt.
func TestOpenHeaderChunk(t *testing.T) {
	for _, owned := range []bool{false, true} {
		for _, at := range []uint32{8, 16} {
			m, dt, mem := openDescIn(t, payloadbuffer.V3, owned, func(data []byte, r uint32, dt *impl.Type) {
				o := r + dt.FieldByName("nested_type").Offset
				mvb := binaryLE.Uint32(data[o+4:])
				binaryLE.PutUint32(data[o:], 1)       // 1 element (chunk 0 holds 2)
				binaryLE.PutUint32(data[mvb+12:], 2)  // 2 chunks in use
				binaryLE.PutUint32(data[mvb+20:], at) // chunk 1, in the header
			})
			nt := dt.FieldByName("nested_type")
			header := bytes.Clone(mem[:m.Payload().Buffer().HeaderSize()])
			what := fmt.Sprintf("owned %t, chunk 1 at %d", owned, at)
			a := impl.NewMessageList(m, nt.Field, nt.Type).Appender()
			a.Append() // element 1, in chunk 0
			a.Append() // element 2, in chunk 1
			headerKept(t, what, header, m.Payload().Buffer().Memory())
			if !errors.Is(m.Err(), impl.ErrCorrupt) {
				t.Errorf("%s: Err() = %v, want ErrCorrupt", what, m.Err())
			}
		}
	}
}

// TestOpenAbsentInlineStale: an absent inline message (ROS frontend, its
// table word 0) of a payload continued with Open holds a vector header
// whose elements lie in the buffer header. A ROS1 decoding's Clear skips
// the absent message, MutableMessage made it present with those bytes,
// and the decoders (the generated one and ros.Unmarshal) stored the wire's
// elements through Span into the header (the Resize before refused the
// vector): the high-water mark and the free list's head were overwritten.
// A message made present must be empty, and the decoding then stores the
// elements in a block of their own: it succeeds, reads back, and the
// header is one Open accepts.
func TestOpenAbsentInlineStale(t *testing.T) {
	w := roswirephaser.NewNested()
	want := []float64{1.5, 2.5}
	w.MutableArrays().D().Assign(want...)
	wire, err := w.MarshalROS()
	if err != nil {
		t.Fatal(err)
	}
	typ, arrays, d := nestedArraysD(t)
	for _, generated := range []bool{true, false} {
		for _, at := range []uint32{8, 16} {
			src, err := roswirephaser.NewNestedIn(make([]byte, 8192))
			if err != nil {
				t.Fatal(err)
			}
			mem := bytes.Clone(src.Bytes())
			mem = append(mem, make([]byte, 8192-len(mem))...)
			im := impl.Msg(src).Offset() + arrays.Offset
			binaryLE.PutUint32(mem[im:], 0)             // arrays absent
			binaryLE.PutUint32(mem[im+d.Offset:], 2)    // d: 2 elements
			binaryLE.PutUint32(mem[im+d.Offset+4:], at) // in the header
			m, err := roswirephaser.OpenNested(mem)
			if err != nil {
				t.Fatal(err)
			}
			header := bytes.Clone(mem[:impl.Msg(m).Payload().Buffer().HeaderSize()])
			what := fmt.Sprintf("generated %t, d at %d", generated, at)
			if generated {
				err = m.UnmarshalROS(wire)
			} else {
				err = ros.Unmarshal(wire, runtime.Msg(impl.DynamicOf(impl.Msg(m), typ)))
			}
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			if got := m.Arrays().D().AppendTo(nil); !slices.Equal(got, want) {
				t.Errorf("%s: d = %v, want %v", what, got, want)
			}
			after := impl.Msg(m).Payload().Buffer().Memory()
			for _, k := range []int{4, 12} { // the root, the full size
				if !bytes.Equal(after[k:k+4], header[k:k+4]) {
					t.Errorf("%s: header word %d is % x, was % x", what, k, after[k:k+4], header[k:k+4])
				}
			}
			if _, err := payloadbuffer.Open(bytes.Clone(after)); err != nil {
				t.Errorf("%s: the header after the decoding: %v", what, err)
			}
		}
	}
}

// nestedArraysD returns the ROS-frontend type of roswire's Nested, its
// inline field arrays and that one's repeated double d.
func nestedArraysD(t *testing.T) (typ *impl.Type, arrays, d *impl.FieldInfo) {
	t.Helper()
	typ, err := impl.TypeFor(roswirephaser.NewNested().ProtoReflect().Descriptor(), impl.ROSFrontend)
	if err != nil {
		t.Fatal(err)
	}
	arrays = typ.FieldByName("arrays")
	if !arrays.Inline() {
		t.Fatal("Nested.arrays is not inline")
	}
	return typ, arrays, arrays.Type.FieldByName("d")
}

// TestMutableSpanHeader: MutableSpan, through which decoders store the
// elements of a field they sized, refuses elements in the buffer header
// (a vector header written behind the handle after the sizing) with
// ErrCorrupt; Span, a read, still returns them.
func TestMutableSpanHeader(t *testing.T) {
	w, err := roswirephaser.NewNestedIn(make([]byte, 4096))
	if err != nil {
		t.Fatal(err)
	}
	w.MutableArrays().D().Assign(1, 2)
	mem := bytes.Clone(w.Bytes())
	mem = append(mem, make([]byte, 4096-len(mem))...)
	m, err := roswirephaser.OpenNested(mem)
	if err != nil {
		t.Fatal(err)
	}
	_, _, d := nestedArraysD(t)
	a := impl.Msg(m.MutableArrays())
	if got := len(a.MutableSpan(d.Field, 8)); got != 16 {
		t.Fatalf("MutableSpan = %d bytes, want 16", got)
	}
	binary.LittleEndian.PutUint32(mem[a.Offset()+d.Offset+4:], 16) // behind the handle
	if s := a.MutableSpan(d.Field, 8); s != nil {
		t.Errorf("MutableSpan of elements in the header = %d bytes, want nil", len(s))
	}
	if !errors.Is(m.Err(), impl.ErrCorrupt) {
		t.Errorf("Err() = %v, want ErrCorrupt", m.Err())
	}
	if got := len(a.Span(d.Field, 8)); got != 16 {
		t.Errorf("Span = %d bytes, want 16", got)
	}
}

// TestOpenUnknownCapacity: an unknown-field index whose capacity word
// claims more entries than its block holds. A new entry was written past
// the block (over the next one), with Err() nil; it must be refused with
// ErrCorrupt.
func TestOpenUnknownCapacity(t *testing.T) {
	dt := typeOfMessage(t, &descriptorpb.DescriptorProto{})
	for _, v := range []payloadbuffer.Version{payloadbuffer.V2, payloadbuffer.V3} {
		src := newOwnedOrFixed(t, dt, impl.Options{Version: v}, false)
		fillMsg(src, dt, (&descriptorpb.DescriptorProto{
			Name:       proto.String("M"),
			NestedType: []*descriptorpb.DescriptorProto{{Name: proto.String("N")}},
			Options:    &descriptorpb.MessageOptions{Deprecated: proto.Bool(true)},
		}).ProtoReflect())
		unknown := protowire.AppendVarint(protowire.AppendTag(nil, 999, protowire.VarintType), 1)
		opt := dt.FieldByName("options")
		if !src.SetUnknownFields(unknown) || !src.Message(opt.Field, opt.Type).SetUnknownFields(unknown) {
			t.Fatalf("%v: SetUnknownFields: %v", v, src.Err())
		}
		mem := bytes.Clone(src.Payload().Buffer().Memory())
		m, err := impl.Open(dt, mem)
		if err != nil {
			t.Fatal(err)
		}
		idx := impl.UnknownIndex(m.Payload())
		if idx == 0 {
			t.Fatalf("%v: no unknown-field index", v)
		}
		size, ok := m.Payload().Buffer().BlockAt(idx)
		if !ok || size < 16 {
			t.Fatalf("%v: the index at %d is no block", v, idx)
		}
		binaryLE.PutUint32(mem[idx+8:], size) // a capacity of size entries, in size bytes
		nt := dt.FieldByName("nested_type")
		if impl.NewMessageList(m, nt.Field, nt.Type).At(0).SetUnknownFields(unknown) {
			t.Errorf("%v: an entry past the index's block was written", v)
		}
		if !errors.Is(m.Err(), impl.ErrCorrupt) {
			t.Errorf("%v: Err() = %v, want ErrCorrupt", v, m.Err())
		}
	}
}
