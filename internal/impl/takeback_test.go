package impl_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strings"
	"testing"

	"github.com/phaser-go/phaser/internal/impl"
	"github.com/phaser-go/phaser/payloadbuffer"
)

// TestSetStringAsideInLine checks that SetString's take-back of a string
// of 8 to 16 bytes in line (the block set aside is the entry after the one
// taken last: Assigner.ShortAt and PutShort write it) leaves the bytes
// that overwriteAside leaves. A Keep root is filled, cleared and filled
// again twice: a before b, so that a is the next entry (in line when its
// length allows), and b before a, so that each take-back looks its entry
// up (overwriteAside). The two payloads must be byte for byte the same,
// for every old and new length of a from 0 to 24, in a scrubbing buffer
// and not, with a's block as the Clear left it or holding a peer's string
// of another length, written behind the handle (shared memory), and with
// the block's own length word as allocated or rewritten before the Clear
// to a length no allocation gives (13: the fit rule of overwriteAside,
// which rounds up to 8, then decides, and both fills must agree on it).
func TestSetStringAsideInLine(t *testing.T) {
	typ := keepFlatType(t)
	fa, fb := field(typ, "a"), field(typ, "b")
	for _, scrub := range []payloadbuffer.Scrub{payloadbuffer.ScrubOn, payloadbuffer.ScrubOff} {
		for old := 0; old <= 24; old++ {
			for n := 0; n <= 24; n++ {
				for _, word := range []int{-1, 0, 9, 16, 17, 20, 1 << 20} { // -1: as the Clear left it
					for _, size := range []uint32{0, 13} { // a's block's length word: as allocated (0), or rewritten before the Clear
						name := fmt.Sprintf("scrub=%v/old=%d/n=%d/word=%d/size=%d", scrub, old, n, word, size)
						a := strings.Repeat("n", n)
						if n > 0 {
							a = a[:n-1] + "z" // the tail word lands where it should
						}
						var got [2][]byte
						var failed [2]bool
						for k := range got {
							m, err := impl.NewIn(typ, make([]byte, 512), impl.Options{Scrub: scrub})
							if err != nil {
								t.Fatal(err)
							}
							m.SetString(fa.Field, strings.Repeat("o", old))
							m.SetBytes(fb.Field, []byte("bbbbbbbbbbbbbbbbbbbbbbbb"))
							mem := m.Payload().Buffer().Memory()
							ablk := binary.LittleEndian.Uint32(mem[m.Offset()+fa.Field.Offset:]) // (0: old is 0)
							if size != 0 && ablk != 0 {
								binary.LittleEndian.PutUint32(mem[ablk-8:], size)
							}
							m.Clear(typ)
							if aside := m.Payload().Buffer().Aside(); old > 0 && size == 0 && aside != 2 {
								t.Fatalf("%s: the Clear set %d blocks aside, want 2", name, aside)
							}
							if word >= 0 && ablk != 0 { // a peer's string in the block, of length word
								size := binary.LittleEndian.Uint32(mem[ablk-8:])
								binary.LittleEndian.PutUint32(mem[ablk:], uint32(word))
								for i := uint32(4); i < size && i < 4+uint32(word); i++ {
									mem[ablk+i] = 'p'
								}
							}
							if k == 0 {
								m.SetString(fa.Field, a)
								m.SetBytes(fb.Field, []byte("cccccccccccc"))
							} else {
								m.SetBytes(fb.Field, []byte("cccccccccccc"))
								m.SetString(fa.Field, a)
							}
							failed[k] = m.Failed()
							if m.Failed() {
								if size == 0 {
									t.Fatalf("%s: the buffer failed: %v", name, m.Err())
								}
								continue // (a Free of the rewritten block may fail the buffer: both fills must)
							}
							if s := string(m.StringBytes(fa.Field)); s != a {
								t.Fatalf("%s: a reads %q, want %q", name, s, a)
							}
							got[k] = bytes.Clone(m.Payload().Bytes()) // (the blocks no setter took back freed)
							if aside := m.Payload().Buffer().Aside(); aside != 0 {
								t.Fatalf("%s: %d blocks still set aside after the fill", name, aside)
							}
						}
						if failed[0] != failed[1] || !bytes.Equal(got[0], got[1]) {
							t.Fatalf("%s: a set first (in line) and last (looked up) leave other bytes (failed %v):\n%x\n%x", name, failed, got[0], got[1])
						}
					}
				}
			}
		}
	}
}
