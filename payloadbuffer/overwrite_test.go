package payloadbuffer

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestOverwriteBytesMatchesSetBytes checks OverwriteBytes, a decoder's
// replacement of a string in a block it set aside, against SetBytes on
// the slot that held the block: when OverwriteBytes writes (the new string
// fits the block), the buffer's bytes are those SetBytes leaves; when it
// refuses, the buffer is unchanged. Strings of 0 to 40 bytes, so that the
// word copy of 8 to 16 bytes and its neighbours are all exercised, with
// and without scrubbing.
func TestOverwriteBytesMatchesSetBytes(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 13))
	for _, scrub := range []Scrub{ScrubDefault, ScrubOff} {
		for _, fixed := range []bool{true, false} {
			k := kind{v: V3, t: Performance, fixed: fixed, scrub: scrub}
			t.Run(k.String(), func(t *testing.T) {
				var wrote int
				for trial := range 50 {
					bufs := twinBuffers(t, k, 4096)
					var slots [2]uint32
					for i, b := range bufs {
						slots[i] = b.Allocate(8, Zero)
					}
					if slots[0] == 0 || slots[0] != slots[1] {
						t.Fatalf("slots %v", slots)
					}
					slot := slots[0]
					for step := range 200 {
						s := make([]byte, rng.IntN(41))
						for i := range s {
							s[i] = byte(rng.Uint32())
						}
						if step == 0 || rng.IntN(4) == 0 {
							// A new string in the slot, of another size.
							for _, b := range bufs {
								if !b.SetBytes(slot, s) {
									t.Fatalf("trial %d step %d: SetBytes failed", trial, step)
								}
							}
							continue
						}
						before := bytes.Clone(bufs[0].Bytes())
						old := bufs[0].get32(slot)
						if !bufs[0].OverwriteBytes(old, s) {
							if !bytes.Equal(before, bufs[0].Bytes()) {
								t.Fatalf("trial %d step %d: a refused OverwriteBytes (%d bytes) changed the buffer", trial, step, len(s))
							}
							if uint64(align8(uint64(len(s))+4)) <= uint64(bufs[0].BlockSize(old)) {
								t.Fatalf("trial %d step %d: OverwriteBytes refused %d bytes in a block of %d", trial, step, len(s), bufs[0].BlockSize(old))
							}
							for _, b := range bufs {
								if !b.SetBytes(slot, s) {
									t.Fatalf("trial %d step %d: SetBytes failed", trial, step)
								}
							}
							continue
						}
						wrote++
						if !bufs[1].SetBytes(slot, s) {
							t.Fatalf("trial %d step %d: SetBytes failed", trial, step)
						}
						if !bytes.Equal(bufs[0].Bytes(), bufs[1].Bytes()) {
							t.Fatalf("trial %d step %d: OverwriteBytes of %d bytes left other bytes than SetBytes", trial, step, len(s))
						}
					}
				}
				if wrote == 0 {
					t.Fatal("no OverwriteBytes wrote")
				}
			})
		}
	}
}
