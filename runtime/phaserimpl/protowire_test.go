package phaserimpl_test

import (
	"testing"
	"unicode/utf8"

	"github.com/phaser-go/phaser/runtime/phaserimpl"
)

// TestValidUTF8 checks the short-string fast path of ValidUTF8 against
// unicode/utf8 for every length up to 40 with a non-ASCII byte, a bad
// byte or none at each position.
func TestValidUTF8(t *testing.T) {
	for n := range 41 {
		for pos := -1; pos < n; pos++ {
			for _, c := range []string{"é", "\xff", "\xc3"} {
				s := make([]byte, 0, n+2)
				for i := range n {
					if i == pos {
						s = append(s, c...)
						continue
					}
					s = append(s, 'a'+byte(i%26))
				}
				if got, want := phaserimpl.ValidUTF8(s), utf8.Valid(s); got != want {
					t.Fatalf("ValidUTF8(%q) = %v, want %v", s, got, want)
				}
			}
		}
	}
}

// TestZigzag checks the zigzag helpers against protowire's definition.
func TestZigzag(t *testing.T) {
	for _, v := range []int64{0, 1, -1, 2, -2, 1 << 31, -1 << 31, 1<<31 - 1, 1<<63 - 1, -1 << 63} {
		if got, want := phaserimpl.Zigzag64(uint64(v)), uint64(v<<1)^uint64(v>>63); got != want {
			t.Errorf("Zigzag64(%d) = %d, want %d", v, got, want)
		}
		if got := phaserimpl.Unzigzag64(phaserimpl.Zigzag64(uint64(v))); got != uint64(v) {
			t.Errorf("Unzigzag64(Zigzag64(%d)) = %d", v, int64(got))
		}
		v32 := int32(v)
		if got, want := phaserimpl.Zigzag32(uint32(v32)), uint64(uint32(v32<<1)^uint32(v32>>31)); got != want {
			t.Errorf("Zigzag32(%d) = %d, want %d", v32, got, want)
		}
		if got := phaserimpl.Unzigzag32(phaserimpl.Zigzag32(uint32(v32)) | 1<<40); got != uint32(v32) {
			t.Errorf("Unzigzag32 of %d with high bits set = %d", v32, int32(got))
		}
	}
}
