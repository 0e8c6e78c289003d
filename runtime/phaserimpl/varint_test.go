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
			for _, room := range []int{0, len(want) - 3, 10, 16} {
				b := append(make([]byte, 0, 3+room), 1, 2, 3)
				got := phaserimpl.AppendVarint(b, v)
				if !bytes.Equal(got, want) {
					t.Fatalf("AppendVarint(%#x) with %d bytes of room = %x, want %x", v, room, got, want)
				}
			}
		}
	}
}
