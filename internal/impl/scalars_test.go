package impl_test

import (
	"testing"
	"unsafe"

	"github.com/phaser-go/phaser/internal/impl"
	"github.com/phaser-go/phaser/payloadbuffer"
)

// scalarsHandles returns, in format v, the handles a generated SetScalars
// meets: a new message of the test type newT (writable, laid out with its
// compiled table), a read-only one read from its bytes, and one of newT
// opened over a payload that oldT (another version of it) laid out; and
// newT's extent.
func scalarsHandles(t *testing.T, v payloadbuffer.Version) (m, r, w impl.Msg, n uint32) {
	t.Helper()
	oldT, newT := isolated(t, widenOld, "M"), isolated(t, widenNew, "M")
	m = impl.New(newT, impl.Options{Version: v})
	r, err := impl.Read(newT, m.PayloadBytes())
	if err != nil {
		t.Fatal(err)
	}
	o := impl.New(oldT, impl.Options{Version: v})
	if w, err = impl.Open(newT, append([]byte(nil), o.Payload().Buffer().Memory()...)); err != nil {
		t.Fatal(err)
	}
	return m, r, w, newT.Extent()
}

// TestMutableBytes: a generated SetScalars gets a message's bytes only for
// a writable message laid out with its compiled table, and exactly the n
// bytes asked for; a read-only message, one reached through another
// version's table and the zero handle get none (their writes go through
// the field setters).
func TestMutableBytes(t *testing.T) {
	for _, v := range []payloadbuffer.Version{payloadbuffer.V2, payloadbuffer.V3} {
		m, r, w, n := scalarsHandles(t, v)
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
		if _, ok := r.MutableBytes(n); ok {
			t.Errorf("v%d: bytes of a read-only message", v)
		}
		if _, ok := w.MutableBytes(n); ok || w.Compiled() {
			t.Errorf("v%d: bytes of a message laid out by another version (compiled %v)", v, w.Compiled())
		}
		if _, ok := (impl.Msg{}).MutableBytes(n); ok {
			t.Errorf("v%d: bytes of the zero handle", v)
		}
	}
}

// TestStoreScalars: a generated SetScalars's store function gets the
// message's bytes from its offset on (at least n) only for a writable
// message laid out with its compiled table whose payload holds n bytes
// there; a read-only message, one reached through another version's table,
// n past the payload's end and the zero handle go to the general path,
// with the message and the values.
func TestStoreScalars(t *testing.T) {
	var vals [2]uint64
	vp := unsafe.Pointer(&vals)
	// took reports which path StoreScalars took: "store" with the bytes it
	// was given, or "general" with the message.
	took := func(m impl.Msg, n uint32) (path string, b []byte, g impl.Msg) {
		m.StoreScalars(n, vp, func(bs []byte, v unsafe.Pointer) {
			if v != vp {
				t.Errorf("store: values %p, want %p", v, vp)
			}
			path, b = "store", bs
		}, func(gm impl.Msg, v unsafe.Pointer) {
			if v != vp {
				t.Errorf("general: values %p, want %p", v, vp)
			}
			path, g = "general", gm
		})
		return path, b, g
	}
	for _, v := range []payloadbuffer.Version{payloadbuffer.V2, payloadbuffer.V3} {
		m, r, w, n := scalarsHandles(t, v)
		path, b, _ := took(m, n)
		if path != "store" || uint32(len(b)) < n {
			t.Fatalf("v%d: a new message: %s with %d bytes; want store with at least %d", v, path, len(b), n)
		}
		if &b[0] != &m.Payload().Buffer().Memory()[m.Offset()] {
			t.Fatalf("v%d: the bytes are not the message's", v)
		}
		mem := uint32(len(m.Payload().Buffer().Memory()))
		if path, b, _ := took(m, mem-m.Offset()); path != "store" || uint32(len(b)) != mem-m.Offset() {
			t.Errorf("v%d: the bytes up to the payload's end: %s with %d", v, path, len(b))
		}
		if path, _, g := took(m, mem-m.Offset()+1); path != "general" || g != m {
			t.Errorf("v%d: more bytes than the payload holds: %s", v, path)
		}
		if path, _, g := took(r, n); path != "general" || g != r {
			t.Errorf("v%d: a read-only message: %s", v, path)
		}
		if path, _, g := took(w, n); path != "general" || g != w {
			t.Errorf("v%d: a message laid out by another version: %s", v, path)
		}
		if path, _, _ := took(impl.Msg{}, n); path != "general" {
			t.Errorf("v%d: the zero handle: %s", v, path)
		}
	}
}
