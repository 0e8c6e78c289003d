package impl

import (
	"bytes"
	"testing"
)

// same is sameTable as its callers call it.
func same(b, c []byte) bool { return sameTable(b, c, len(c) <= wordTable) }

// TestSameTable checks sameTable against bytes.Equal for every length up
// to past the word compare's range, with one byte changed at each position
// (and the lengths differing).
func TestSameTable(t *testing.T) {
	for n := 0; n <= 200; n++ {
		c := make([]byte, n)
		for i := range c {
			c[i] = byte(i*7 + 1)
		}
		b := bytes.Clone(c)
		if !same(b, c) {
			t.Fatalf("n=%d: equal bytes differ", n)
		}
		if n > 0 && (same(b[:n-1], c) || same(b, c[:n-1])) {
			t.Fatalf("n=%d: lengths differ but equal", n)
		}
		for i := range b {
			for _, bit := range []byte{1, 0x80} {
				b[i] ^= bit
				if same(b, c) || !tablesDiffer(b, c) {
					t.Fatalf("n=%d: byte %d changed but equal", n, i)
				}
				b[i] ^= bit
			}
		}
	}
}

// FuzzSameTable compares sameTable with bytes.Equal on arbitrary input.
func FuzzSameTable(f *testing.F) {
	f.Add([]byte("0123456789abcdef0123456789abcdef0123"), 3)
	f.Fuzz(func(t *testing.T, b []byte, flip int) {
		c := bytes.Clone(b)
		if len(c) > 0 {
			i := uint(flip) % uint(len(c))
			c[i] ^= byte(flip >> 8)
		}
		if got, want := same(b, c), bytes.Equal(b, c); got != want {
			t.Fatalf("sameTable(%x, %x) = %v, want %v", b, c, got, want)
		}
	})
}
