package impl_test

import (
	"testing"

	"github.com/phaser-go/phaser/internal/impl"
	"github.com/phaser-go/phaser/payloadbuffer"
)

// TestMutableBytes: a generated SetScalars gets a message's bytes only for
// a writable message laid out with its compiled table, and exactly the n
// bytes asked for; a read-only message, one reached through another
// version's table and the zero handle get none (their writes go through
// the field setters).
func TestMutableBytes(t *testing.T) {
	oldT, newT := isolated(t, widenOld, "M"), isolated(t, widenNew, "M")
	for _, v := range []payloadbuffer.Version{payloadbuffer.V2, payloadbuffer.V3} {
		m := impl.New(newT, impl.Options{Version: v})
		n := newT.Extent()
		b, ok := m.MutableBytes(n)
		if !ok || uint32(len(b)) != n || uint32(cap(b)) != n {
			t.Fatalf("v%d: a new message: %d bytes (cap %d), %v; want %d", v, len(b), cap(b), ok, n)
		}
		if &b[0] != &m.Payload().Buffer().Memory()[m.Offset()] {
			t.Fatalf("v%d: the bytes are not the message's", v)
		}
		if _, ok := m.MutableBytes(uint32(len(m.Payload().Buffer().Memory())) + 1); ok {
			t.Errorf("v%d: more bytes than the payload holds", v)
		}
		r, err := impl.Read(newT, m.PayloadBytes())
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := r.MutableBytes(n); ok {
			t.Errorf("v%d: bytes of a read-only message", v)
		}
		o := impl.New(oldT, impl.Options{Version: v})
		w, err := impl.Open(newT, append([]byte(nil), o.Payload().Buffer().Memory()...))
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := w.MutableBytes(n); ok || w.Compiled() {
			t.Errorf("v%d: bytes of a message laid out by another version (compiled %v)", v, w.Compiled())
		}
		if _, ok := (impl.Msg{}).MutableBytes(n); ok {
			t.Errorf("v%d: bytes of the zero handle", v)
		}
	}
}
