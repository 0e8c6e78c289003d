package impl_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/phaser-go/phaser/internal/impl"
	"github.com/phaser-go/phaser/internal/testpb"
	"github.com/phaser-go/phaser/payloadbuffer"
)

// TestClearHostileSharing guards Clear on a payload continued with Open in
// which a message slot points at the root, at a message being cleared, or
// at another live message. Clear freed the root, or freed one block twice;
// then free blocks overlapped live data, and the strings and messages
// written afterwards overwrote live fields silently. After such a Clear,
// every live field must keep its value (or the payload must report a
// failure). A slot that holds the root or a message being cleared is only
// zeroed: the payload stays usable (usable cases must not fail).
func TestClearHostileSharing(t *testing.T) {
	et := typeOfMessage(t, &testpb.Everything{})
	it, dt := field(et, "inner").Type, field(et, "deep").Type
	st := field(et, "scalars").Type
	inner, deep, scalars := field(et, "inner"), field(et, "deep"), field(et, "scalars")
	mode, inners := field(et, "mode"), field(et, "inners")
	fs, is, ia := field(st, "f_string"), field(it, "s"), field(it, "a")
	idp := field(it, "deep")
	keep := "a live value that must survive: " + strings.Repeat("k", 40)
	for _, c := range []struct {
		name   string
		patch  func(mem []byte, r, in, dp uint32)
		clear  func(m impl.Msg)
		usable bool
	}{
		// inner and deep are one message: the second ClearMessage frees
		// it again.
		{"shared_inner_deep", func(mem []byte, r, in, dp uint32) {
			binaryLE.PutUint32(mem[r+deep.Offset:], in)
		}, func(m impl.Msg) {
			m.ClearMessage(inner.Field, it)
			m.ClearMessage(deep.Field, dt)
		}, false},
		// Both in one Clear of a holder: Clear of the root message.
		{"shared_root_clear", func(mem []byte, r, in, dp uint32) {
			binaryLE.PutUint32(mem[r+deep.Offset:], in)
		}, func(m impl.Msg) {
			m.ClearMessage(inner.Field, it)
			m.ClearMessage(deep.Field, dt)
			m.ClearMessage(inner.Field, it)
		}, false},
		// inner is the root itself: ClearMessage freed the root.
		{"inner_is_root", func(mem []byte, r, in, dp uint32) {
			binaryLE.PutUint32(mem[r+inner.Offset:], r)
		}, func(m impl.Msg) { m.ClearMessage(inner.Field, it) }, true},
		// inner.deep is inner: Clear of inner frees inner, then frees it
		// again.
		{"inner_holds_itself", func(mem []byte, r, in, dp uint32) {
			binaryLE.PutUint32(mem[in+idp.Offset:], in)
		}, func(m impl.Msg) { m.ClearMessage(inner.Field, it) }, true},
		// inner.deep is the root.
		{"inner_holds_root", func(mem []byte, r, in, dp uint32) {
			binaryLE.PutUint32(mem[in+idp.Offset:], r)
		}, func(m impl.Msg) { m.ClearMessage(inner.Field, it) }, true},
	} {
		for _, opts := range []impl.Options{
			{Version: payloadbuffer.V2}, {Version: payloadbuffer.V2, Tuning: payloadbuffer.Size},
			{Version: payloadbuffer.V3}, {Version: payloadbuffer.V3, Tuning: payloadbuffer.Size},
		} {
			t.Run(fmt.Sprintf("%s/%v/%v", c.name, opts.Version, opts.Tuning), func(t *testing.T) {
				mem := make([]byte, 8192)
				m, err := impl.NewIn(et, mem, opts)
				if err != nil {
					t.Fatal(err)
				}
				m.Set32(mode.Field, 5)
				m.MutableMessage(scalars.Field, st).SetString(fs.Field, keep)
				in := m.MutableMessage(inner.Field, it)
				in.Set32(ia.Field, 1)
				in.SetString(is.Field, "inner's string, long enough to need its own block")
				d := m.MutableMessage(deep.Field, dt)
				c.patch(mem, m.Offset(), in.Offset(), d.Offset())
				w, err := impl.Open(et, mem)
				if err != nil {
					t.Fatal(err)
				}
				c.clear(w)
				// Allocate and write: strings and messages of every size.
				want := map[int]string{}
				l := impl.NewMessageList(w, inners.Field, it)
				for k := range 8 {
					want[k] = fmt.Sprintf("element %d %s", k, strings.Repeat("e", 10*k))
					e := l.Append()
					e.SetString(is.Field, want[k])
					e.Set32(ia.Field, uint32(100+k))
				}
				ni := w.MutableMessage(inner.Field, it)
				ni.SetString(is.Field, "new inner")
				w.MutableMessage(deep.Field, dt)
				if w.Failed() {
					if c.usable {
						t.Fatalf("the payload failed: %v", w.Err())
					}
					return // refused: the payload reports the failure
				}
				if got := w.Get32(mode.Field); got != 5 {
					t.Errorf("mode = %d, want 5", got)
				}
				if got := string(w.Message(scalars.Field, st).StringBytes(fs.Field)); got != keep {
					t.Errorf("scalars.f_string = %q, want %q", got, keep)
				}
				for k := range 8 {
					e := l.At(k)
					if got := string(e.StringBytes(is.Field)); got != want[k] || e.Get32(ia.Field) != uint32(100+k) {
						t.Errorf("inners[%d] = %q, %d; want %q, %d", k, got, e.Get32(ia.Field), want[k], 100+k)
					}
				}
				if got := string(w.Message(inner.Field, it).StringBytes(is.Field)); got != "new inner" {
					t.Errorf("inner.s = %q, want %q", got, "new inner")
				}
			})
		}
	}
}
