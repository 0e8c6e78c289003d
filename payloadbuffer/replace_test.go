package payloadbuffer

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestReplaceInPlaceMatchesGeneral checks setString's in-place replacement
// of a string whose block is large enough against replaceString's general
// path: the same sequence of string stores, frees and allocations on two
// buffers, one with the in-place path turned off, leaves the same bytes
// after every step, scrubbing or not.
func TestReplaceInPlaceMatchesGeneral(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var inPlace int
	for _, scrub := range []Scrub{ScrubDefault, ScrubOff} {
		for _, fixed := range []bool{true, false} {
			k := kind{v: V3, t: Performance, fixed: fixed, scrub: scrub}
			t.Run(k.String(), func(t *testing.T) {
				for trial := range 100 {
					bufs := twinBuffers(t, k, 2048+rng.IntN(4096))
					bufs[1].noInPlace = true
					// Eight string slots in one block, as a message's fields.
					var slots [2]uint32
					for i, b := range bufs {
						slots[i] = b.Allocate(32, Zero)
					}
					if slots[0] == 0 || slots[0] != slots[1] {
						t.Fatalf("slots %v", slots)
					}
					var extra []uint32
					for step := range 300 {
						op := rng.IntN(10)
						slot := slots[0] + 4*uint32(rng.IntN(8))
						n := rng.IntN(90)
						if rng.IntN(8) == 0 {
							n = rng.IntN(600)
						}
						s := string(bytes.Repeat([]byte{byte(rng.Uint32())}, n))
						var got [2]bool
						for i, b := range bufs {
							switch {
							case op < 7:
								old := b.get32(slot)
								if i == 0 && old != 0 && uint64(align8(uint64(n)+4)) <= uint64(b.BlockSize(old)) {
									inPlace++
								}
								got[i] = b.SetString(slot, s)
							case op < 8:
								got[i] = b.SetBytes(slot, []byte(s))
							case op < 9:
								b.ClearString(slot)
								got[i] = true
							default:
								p := b.Allocate(1+n, Small|Overwrite)
								got[i] = p != 0
								if i == 0 && p != 0 {
									extra = append(extra, p)
								}
							}
						}
						if got[0] != got[1] {
							t.Fatalf("trial %d step %d (op %d, n %d): %v in place, %v without", trial, step, op, n, got[0], got[1])
						}
						if !bytes.Equal(bufs[0].Memory(), bufs[1].Memory()) {
							t.Fatalf("trial %d step %d (op %d, n %d): the bytes differ", trial, step, op, n)
						}
						if bufs[0].Failed() {
							break
						}
						if got := string(bufs[0].StringAt(slot)); op < 8 && got != s {
							t.Fatalf("trial %d step %d: read %d bytes back, stored %d", trial, step, len(got), n)
						}
						if len(extra) > 4 {
							p := extra[0]
							extra = extra[1:]
							for _, b := range bufs {
								b.Free(p)
							}
						}
					}
				}
			})
		}
	}
	if inPlace == 0 {
		t.Fatal("no store took the in-place path")
	}
	t.Logf("%d stores in place", inPlace)
}
