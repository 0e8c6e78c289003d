package phaserimpl_test

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/phaser-go/phaser/runtime/phaserimpl"
)

// TestAppendVarint compares AppendVarint with protowire.AppendVarint for
// values of every length, appended to slices with no room, with exactly
// the varint's and with room to spare (the bytes past the varint keep
// what they held).
func TestAppendVarint(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for bitsLen := 0; bitsLen <= 64; bitsLen++ {
		for range 64 {
			v := r.Uint64()
			if bitsLen < 64 {
				v &= 1<<bitsLen - 1
			}
			want := protowire.AppendVarint([]byte{1, 2, 3}, v)
			for _, room := range []int{0, len(want) - 3, 9, 10, 16} {
				b := make([]byte, 3+room)
				for i := range b {
					b[i] = 0xee
				}
				copy(b, []byte{1, 2, 3})
				got := phaserimpl.AppendVarint(b[:3], v)
				if !bytes.Equal(got, want) {
					t.Fatalf("AppendVarint(%#x) with %d bytes of room = %x, want %x", v, room, got, want)
				}
				if len(got) <= len(b) {
					for i, c := range b[len(got):] {
						if c != 0xee {
							t.Fatalf("AppendVarint(%#x) with %d bytes of room wrote %#x at %d, past the varint", v, room, c, len(got)+i)
						}
					}
				}
			}
		}
	}
}
