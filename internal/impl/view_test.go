package impl_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"testing"

	"github.com/phaser-go/phaser/internal/impl"
	"github.com/phaser-go/phaser/payloadbuffer"
)

// TestView: a View reads every scalar as the Msg getters do, exists only
// for a message with its compiled table lying whole in the payload, and
// its zero value reads fields as absent.
func TestView(t *testing.T) {
	header, _, _ := testTypes(t)
	seq, stamp := field(header, "seq"), field(header, "stamp")
	secs, nanos := field(stamp.Type, "seconds"), field(stamp.Type, "nanos")
	for _, v := range []payloadbuffer.Version{payloadbuffer.V2, payloadbuffer.V3} {
		m := impl.New(header, impl.Options{Version: v})
		st := m.MutableMessage(stamp.Field, stamp.Type)
		if view, ok := m.View(header); !ok || view.Has(seq.Field) || view.Get32(seq.Field) != 0 {
			t.Fatalf("%v: new message: view %v, seq present %v", v, ok, view.Has(seq.Field))
		}
		m.Set32(seq.Field, 0xdeadbeef)
		st.Set64(secs.Field, 1<<40+3)
		m.ClearScalar(seq.Field) // absent again, its bytes kept
		st.Set32(nanos.Field, 9)
		for _, c := range []struct {
			m impl.Msg
			t *impl.Type
		}{{m, header}, {st, stamp.Type}} {
			view, ok := c.m.View(c.t)
			if !ok {
				t.Fatalf("%v %s: no view of a message with its compiled table", v, c.t.Name())
			}
			sameAsMsg(t, fmt.Sprint(v, " View"), view, c.m, c.t)
			sameAsMsg(t, fmt.Sprint(v, " ViewOf"), c.m.ViewOf(c.t), c.m, c.t)
		}
		if view, _ := st.View(stamp.Type); view.Get64(secs.Field) != 1<<40+3 || view.Get32(nanos.Field) != 9 {
			t.Errorf("%v: view of stamp reads %d %d", v, view.Get64(secs.Field), view.Get32(nanos.Field))
		}
		if view, _ := m.View(header); view.Get32(seq.Field) != 0 {
			t.Errorf("%v: a cleared seq reads %#x through the view", v, view.Get32(seq.Field))
		}

		// A message whose table is not the compiled one (here seq's entry
		// points at frame_id's slot) has no view; ViewOf copies what its
		// own table gives.
		w := impl.New(header, impl.Options{Version: v})
		w.Set32(seq.Field, 7)
		w.SetString(field(header, "frame_id").Field, "base_link")
		data := bytes.Clone(w.PayloadBytes())
		le := binary.LittleEndian
		root := le.Uint32(data[4:])
		tab := le.Uint32(data[root:])
		entry := tab + 16 + 4*(seq.Number-le.Uint32(data[tab+4:]))
		if got := le.Uint32(data[entry:]); got != seq.Offset|uint32(seq.ID)<<24 {
			t.Fatalf("%v: seq's table entry %#x is not the compiled one", v, got)
		}
		le.PutUint32(data[entry:], field(header, "frame_id").Offset|uint32(seq.ID)<<24)
		if r, err := impl.Read(header, data); err != nil {
			t.Fatal(err)
		} else if _, ok := r.View(header); ok {
			t.Errorf("%v: a view of a message whose table differs", v)
		} else if view := r.ViewOf(header); view.Get32(seq.Field) == 7 || view.Get32(seq.Field) != r.Get32(seq.Field) {
			t.Errorf("%v: ViewOf reads seq %d through a changed table, Msg %d", v, view.Get32(seq.Field), r.Get32(seq.Field))
		} else {
			sameAsMsg(t, fmt.Sprint(v, " ViewOf with a changed table"), view, r, header)
		}
		data = bytes.Clone(m.PayloadBytes())
		root = le.Uint32(data[4:])
		// Nor does one that runs past the end of the bytes.
		data = bytes.Clone(m.PayloadBytes())
		end := int(root) + int(header.BinarySize(v))
		if end > len(data) {
			t.Fatalf("%v: the root ends at %d, past the %d payload bytes", v, end, len(data))
		}
		if r, err := impl.Read(header, data[:end-1]); err != nil {
			t.Fatal(err)
		} else if _, ok := r.View(header); ok {
			t.Errorf("%v: a view of a message cut short", v)
		}
	}
	var zero impl.View
	if zero.Has(seq.Field) || zero.Get8(seq.Field) != 0 || zero.Get32(seq.Field) != 0 || zero.Get64(seq.Field) != 0 {
		t.Error("the zero View reads a field as present")
	}
	if _, ok := (impl.Msg{}).View(header); ok {
		t.Error("the zero Msg has a view")
	}
}

// sameAsMsg checks that view reads every singular scalar of m, a message
// of type typ, as m's getters do.
func sameAsMsg(t *testing.T, what string, view impl.View, m impl.Msg, typ *impl.Type) {
	t.Helper()
	for _, d := range viewDiffs(view, m, typ) {
		t.Errorf("%s %s", what, d)
	}
}

// viewDiffs lists the singular scalars outside oneofs of m, a message of
// type typ, that view reads otherwise than m's getters, at the field's
// width, value and presence.
func viewDiffs(view impl.View, m impl.Msg, typ *impl.Type) []string {
	var diffs []string
	for _, f := range typ.Fields() {
		if f.Kind == impl.Message || f.Kind == impl.String || f.Kind == impl.Bytes || f.Repeated || f.Union != nil {
			continue
		}
		var got, want uint64
		switch f.Size {
		case 1:
			got, want = uint64(view.Get8(f.Field)), uint64(m.Get8(f.Field))
		case 4:
			got, want = uint64(view.Get32(f.Field)), uint64(m.Get32(f.Field))
		default:
			got, want = view.Get64(f.Field), m.Get64(f.Field)
		}
		if view.Has(f.Field) != m.Has(f.Field) || got != want {
			diffs = append(diffs, fmt.Sprintf("%s.%s: view reads %d (present %v), Msg %d (present %v)",
				typ.Name(), f.Name, got, view.Has(f.Field), want, m.Has(f.Field)))
		}
	}
	return diffs
}

// TestSetter: a Setter writes the bytes the Msg setters write, and exists
// only for a writable message with its compiled table.
func TestSetter(t *testing.T) {
	header, _, _ := testTypes(t)
	seq, stamp := field(header, "seq"), field(header, "stamp")
	secs, nanos := field(stamp.Type, "seconds"), field(stamp.Type, "nanos")
	for _, v := range []payloadbuffer.Version{payloadbuffer.V2, payloadbuffer.V3} {
		a, b := impl.New(header, impl.Options{Version: v}), impl.New(header, impl.Options{Version: v})
		sa, sb := a.MutableMessage(stamp.Field, stamp.Type), b.MutableMessage(stamp.Field, stamp.Type)
		a.Set32(seq.Field, 7)
		sa.Set64(secs.Field, 1<<40+3)
		sa.Set32(nanos.Field, 9)
		s, ok := b.Setter(header)
		ss, ok2 := sb.Setter(stamp.Type)
		if !ok || !ok2 {
			t.Fatalf("%v: no setter of a new message", v)
		}
		s.Set32(seq.Field, 7)
		ss.Set64(secs.Field, 1<<40+3)
		ss.Set32(nanos.Field, 9)
		if !bytes.Equal(a.PayloadBytes(), b.PayloadBytes()) {
			t.Errorf("%v: the setter wrote\n% x\nthe Msg setters\n% x", v, b.PayloadBytes(), a.PayloadBytes())
		}
		// The owned buffer grows (and moves) under a string: the setter
		// writes the payload as it is now.
		before := len(b.PayloadBytes())
		b.SetString(field(header, "frame_id").Field, string(make([]byte, 64<<10)))
		if len(b.PayloadBytes()) <= before || b.Failed() {
			t.Fatalf("%v: the string did not grow the buffer", v)
		}
		s.Set32(seq.Field, 8)
		if got := b.Get32(seq.Field); got != 8 {
			t.Errorf("%v: after the buffer grew, seq written through the setter reads %d", v, got)
		}
		r, err := impl.Read(header, a.PayloadBytes())
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := r.Setter(header); ok {
			t.Errorf("%v: a setter of a read-only message", v)
		}
		mem := make([]byte, 4096)
		if _, err := impl.NewIn(header, mem, impl.Options{Version: v}); err != nil {
			t.Fatal(err)
		}
		root := binary.LittleEndian.Uint32(mem[4:])
		tab := binary.LittleEndian.Uint32(mem[root:])
		mem[tab+uint32(len(header.Table()))-1] ^= 0xff
		if o, err := impl.Open(header, mem); err != nil {
			t.Fatal(err)
		} else if _, ok := o.Setter(header); ok {
			t.Errorf("%v: a setter of a message whose table differs", v)
		} else if _, ok := o.View(header); ok {
			t.Errorf("%v: a view of a message whose table differs", v)
		}
	}
	var zero impl.Setter
	zero.Set32(seq.Field, 1) // writes nothing, does not panic
	if _, ok := (impl.Msg{}).Setter(header); ok {
		t.Error("the zero Msg has a setter")
	}
}
