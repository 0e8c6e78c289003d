package payloadbuffer

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestVectorAssignMatchesResize checks VectorAssign against VectorResize
// followed by a copy of the elements: random assignments, pushes and clears
// of vectors of every element size on two buffers leave the same bytes
// after every step, scrubbing or not, in both formats.
func TestVectorAssignMatchesResize(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var inPlace int
	for _, v := range []Version{V2, V3} {
		for _, scrub := range []Scrub{ScrubDefault, ScrubOff} {
			for _, fixed := range []bool{true, false} {
				k := kind{v: v, t: Performance, fixed: fixed, scrub: scrub}
				t.Run(k.String(), func(t *testing.T) {
					for trial := range 100 {
						bufs := twinBuffers(t, k, 1024+rng.IntN(4096))
						var slots [2]uint32
						for i, b := range bufs {
							slots[i] = b.Allocate(32, Zero) // four vector headers
						}
						if slots[0] == 0 || slots[0] != slots[1] {
							t.Fatalf("slots %v", slots)
						}
						for step := range 200 {
							op := rng.IntN(10)
							slot := slots[0] + 8*uint32(rng.IntN(4))
							esize := []int{1, 4, 8}[int(slot-slots[0])/8%3]
							n := rng.IntN(40)
							if rng.IntN(10) == 0 {
								n = rng.IntN(400)
							}
							src := make([]byte, n*esize)
							for j := range src {
								src[j] = byte(rng.Uint32())
							}
							var got [2]bool
							for i, b := range bufs {
								switch {
								case op < 7 && i == 0:
									h := b.get32(slot + 4)
									if n > 0 && h != 0 && b.validBlock(h) && n*esize <= int(b.BlockSize(h)) {
										inPlace++
									}
									got[i] = b.VectorAssign(slot, src, esize)
								case op < 7:
									got[i] = b.VectorResize(slot, n, esize)
									if got[i] && n > 0 {
										d := b.get32(slot + 4)
										copy(b.data[d:], src)
									}
								case op < 9:
									got[i] = b.VectorPush(slot, esize) != 0
								default:
									b.VectorClear(slot)
									got[i] = true
								}
							}
							if got[0] != got[1] {
								t.Fatalf("trial %d step %d (op %d, n %d): %v assigned, %v resized", trial, step, op, n, got[0], got[1])
							}
							if !bytes.Equal(bufs[0].Memory(), bufs[1].Memory()) {
								t.Fatalf("trial %d step %d (op %d, n %d): the bytes differ", trial, step, op, n)
							}
							if bufs[0].Failed() {
								break
							}
						}
					}
				})
			}
		}
	}
	if inPlace == 0 {
		t.Fatal("no assignment kept its block")
	}
	t.Logf("%d assignments in place", inPlace)
}
