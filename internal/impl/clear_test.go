package impl_test

import (
	"bytes"
	"testing"

	"github.com/phaser-go/phaser/internal/impl"
	"github.com/phaser-go/phaser/payloadbuffer"
)

// TestClearRootV3Resets checks the v3 root Clear (docs/format.md): after
// any writes, Clear of the root leaves exactly the bytes of a new message
// of the same kind of buffer, the root handle stays valid and the message
// fills again; a nested message's Clear, and a v2 root's, still clear field
// by field.
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
				for round := range 3 {
					for _, s := range script[typ] {
						s.do(m)
						if !s.check(m) {
							t.Fatalf("%s tuning %d fixed %v round %d: %s did not take", typ.Name(), tuning, fixed, round, s.name)
						}
					}
					off := m.Offset()
					m.Clear(typ)
					if m.Offset() != off || m.Payload().Buffer().Message() != off {
						t.Fatalf("%s: root moved from %d", typ.Name(), off)
					}
					if got := m.PayloadBytes(); !bytes.Equal(got, fresh) {
						t.Fatalf("%s tuning %d fixed %v round %d: cleared payload\n% x\nwant a new one\n% x", typ.Name(), tuning, fixed, round, got, fresh)
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
