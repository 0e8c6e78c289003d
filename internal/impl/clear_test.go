package impl_test

import (
	"bytes"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/phaser-go/phaser/internal/impl"
	"github.com/phaser-go/phaser/payloadbuffer"
)

// TestClearRootV3Resets checks the v3 root Clear (docs/format.md): after
// any writes, Clear of a root with repeated fields leaves exactly the bytes
// of a new message of the same kind of buffer; a root of only singular
// fields (header) keeps its blocks for the next fill, so its payload reads
// as empty, carries none of the cleared strings' bytes when scrubbing, and
// does not grow from fill to fill. The root handle stays valid and the
// message fills again; a nested message's Clear, and a v2 root's, still
// clear field by field.
func TestClearRootV3Resets(t *testing.T) {
	header, strs, arrays := testTypes(t)
	script := scripts(header, strs, arrays)
	for _, typ := range []*impl.Type{header, strs, arrays} {
		for _, tuning := range []payloadbuffer.Tuning{payloadbuffer.Performance, payloadbuffer.Size} {
			opts := impl.Options{Tuning: tuning}
			for _, fixed := range []bool{true, false} {
				newMsg := func() impl.Msg {
					if !fixed {
						return impl.New(typ, opts)
					}
					m, err := impl.NewIn(typ, make([]byte, 8192), opts)
					if err != nil {
						t.Fatal(err)
					}
					return m
				}
				fresh := append([]byte(nil), newMsg().PayloadBytes()...)
				m := newMsg()
				keeps := typ == header
				filled := 0
				for round := range 3 {
					for _, s := range script[typ] {
						s.do(m)
						if !s.check(m) {
							t.Fatalf("%s tuning %d fixed %v round %d: %s did not take", typ.Name(), tuning, fixed, round, s.name)
						}
					}
					if n := len(m.PayloadBytes()); round == 0 {
						filled = n
					} else if keeps && n != filled {
						t.Fatalf("%s tuning %d fixed %v round %d: the fill after a Clear has %d bytes, the first %d", typ.Name(), tuning, fixed, round, n, filled)
					}
					off := m.Offset()
					m.Clear(typ)
					if m.Offset() != off || m.Payload().Buffer().Message() != off {
						t.Fatalf("%s: root moved from %d", typ.Name(), off)
					}
					got := m.PayloadBytes()
					switch {
					case !keeps && !bytes.Equal(got, fresh):
						t.Fatalf("%s tuning %d fixed %v round %d: cleared payload\n% x\nwant a new one\n% x", typ.Name(), tuning, fixed, round, got, fresh)
					case keeps && len(got) != filled:
						t.Fatalf("%s tuning %d fixed %v round %d: cleared payload of %d bytes, the fill's %d", typ.Name(), tuning, fixed, round, len(got), filled)
					case keeps && m.Payload().Buffer().Scrubs() && bytes.Contains(got, []byte("base_link")):
						t.Fatalf("%s tuning %d fixed %v round %d: the cleared frame_id is in the payload\n% x", typ.Name(), tuning, fixed, round, got)
					}
					if keeps {
						if pm, err := m.ToProto(typ); err != nil || proto.Size(pm) != 0 {
							t.Fatalf("%s round %d: cleared message reads as %v (%v)", typ.Name(), round, pm, err)
						}
					}
					for _, f := range typ.Fields() {
						if m.HasString(f.Field) && !f.Repeated || f.Repeated && m.LenOf(f) != 0 {
							t.Fatalf("%s: field %s present after Clear", typ.Name(), f.Name)
						}
					}
				}
			}
		}
	}

	// A nested message's Clear frees its contents and keeps the rest.
	stamp, frame := field(header, "stamp"), field(header, "frame_id")
	secs := field(stamp.Type, "seconds")
	m := impl.New(header)
	m.SetString(frame.Field, "base_link")
	s := m.MutableMessage(stamp.Field, stamp.Type)
	s.Set64(secs.Field, 5)
	s.Clear(stamp.Type)
	if s.Get64(secs.Field) != 0 || string(m.StringBytes(frame.Field)) != "base_link" {
		t.Fatalf("nested Clear: seconds %d, frame_id %q", s.Get64(secs.Field), m.StringBytes(frame.Field))
	}

	// A v2 root clears field by field (C++ 2.1): the freed string stays
	// on a free list, so the bytes differ from a new message's.
	v2 := impl.Options{Version: payloadbuffer.V2}
	fresh := append([]byte(nil), impl.New(header, v2).PayloadBytes()...)
	m = impl.New(header, v2)
	m.SetString(frame.Field, "a frame id long enough for a block of its own")
	m.Clear(header)
	if bytes.Equal(m.PayloadBytes(), fresh) {
		t.Fatal("v2 root Clear reset the buffer")
	}
	if m.HasString(frame.Field) {
		t.Fatal("v2 root Clear kept frame_id")
	}
}
