package bench

import (
	"bytes"
	"testing"
)

func TestReadFloor(t *testing.T) {
	for _, shape := range []string{"small", "header"} {
		c := NewCodec("read-floor", shape)
		data := Payloads(c, shape)
		for i, p := range data {
			if got, want := c.ReadAll(p), UseAll(Value(shape, i)); got != want {
				t.Fatalf("%s value %d: read-floor's read-all %d, want %d", shape, i, got, want)
			}
			if got, want := c.ReadOne(p), UseOne(Value(shape, i)); got != want {
				t.Fatalf("%s value %d: read-floor's read-one %d, want %d", shape, i, got, want)
			}
		}
		// Cut or corrupted payloads read as 0 (or, a byte of a string or a
		// value changed, as another sum), never a panic.
		p := data[0]
		for n := range len(p) {
			c.ReadAll(p[:n])
			c.ReadOne(p[:n])
		}
		for i := range p {
			for _, b := range []byte{0, 0xff, p[i] ^ 1} {
				q := bytes.Clone(p)
				q[i] = b
				c.ReadAll(q)
				c.ReadOne(q)
			}
		}
		// A table changed, and another type named in the control block:
		// refused.
		q := bytes.Clone(p)
		tab := le.Uint32(q[le.Uint32(q[4:]):])
		q[tab+16]++
		if c.ReadAll(q) != 0 || c.ReadOne(q) != 0 {
			t.Errorf("%s: read-floor read a payload whose table differs", shape)
		}
		if cb := le.Uint32(p[offControl:]); cb != 0 {
			q := bytes.Clone(p)
			q[cb+controlRoot]++
			if c.ReadAll(q) != 0 || c.ReadOne(q) != 0 {
				t.Errorf("%s: read-floor read a payload whose root is of another type", shape)
			}
		}
	}
}
