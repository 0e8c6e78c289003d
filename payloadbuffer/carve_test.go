package payloadbuffer

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestCarveSmallMatchesGeneral checks the built payload's allocation path
// against the general one it short-cuts: the same random programs of
// allocations (every size, with and without Small, Zero and Overwrite),
// frees, reallocations and string writes run on two buffers, one with
// carveSmall turned off, and after every step the results and every byte
// of the two buffers must be equal. Scrubbing on and off, fixed memory
// that starts dirty and owned memory that grows.
func TestCarveSmallMatchesGeneral(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var carved int
	for _, scrub := range []Scrub{ScrubDefault, ScrubOff} {
		for _, fixed := range []bool{true, false} {
			k := kind{v: V3, t: Performance, fixed: fixed, scrub: scrub}
			t.Run(k.String(), func(t *testing.T) {
				for trial := range 200 {
					bufs := twinBuffers(t, k, 1024+rng.IntN(4096))
					bufs[1].noCarve = true
					var live []uint32
					for step := range 200 {
						var got [2]uint32
						op := rng.IntN(10)
						n := 1 + rng.IntN(200)
						flags := []Flags{Small, Small | Zero, Small | Overwrite, 0, Zero, Overwrite}[rng.IntN(6)]
						var victim uint32
						if len(live) > 0 {
							victim = live[rng.IntN(len(live))]
						}
						fill := byte(rng.Uint32())
						for i, b := range bufs {
							switch {
							case op < 6 || victim == 0:
								hwm := b.HWM()
								got[i] = b.Allocate(n, flags)
								if i == 0 && got[i] != 0 && b.HWM() != hwm && flags&Small != 0 {
									carved++
								}
								if got[i] != 0 && flags&Overwrite != 0 {
									for j := range uint32(n) {
										b.data[got[i]+j] = fill // the caller writes what it declared
									}
								}
							case op < 8:
								b.Free(victim)
							case op < 9:
								got[i] = b.Realloc(victim, n, flags&^Small)
							default:
								slot := victim
								if b.BlockSize(victim) < 4 {
									continue
								}
								if b.SetString(slot, string(bytes.Repeat([]byte{fill}, n%150))) {
									got[i] = 1
								}
							}
						}
						if got[0] != got[1] {
							t.Fatalf("trial %d step %d (op %d, n %d, flags %d): %d with carveSmall, %d without", trial, step, op, n, flags, got[0], got[1])
						}
						if !bytes.Equal(bufs[0].Memory(), bufs[1].Memory()) {
							t.Fatalf("trial %d step %d (op %d, n %d, flags %d): the bytes differ", trial, step, op, n, flags)
						}
						if bufs[0].Failed() {
							break
						}
						switch {
						case op < 6 && got[0] != 0:
							live = append(live, got[0])
						case op < 8 && victim != 0:
							for j, p := range live {
								if p == victim {
									live = append(live[:j], live[j+1:]...)
									break
								}
							}
						case op < 9 && got[0] != 0:
							for j, p := range live {
								if p == victim {
									live[j] = got[0]
								}
							}
						}
					}
				}
			})
		}
	}
	if carved == 0 {
		t.Fatal("no allocation took carveSmall's path")
	}
}

// twinBuffers returns two empty buffers of kind k made alike: in fixed
// memory of size bytes that starts dirty, or owned ones that start small
// and grow. Tests that compare a short cut with the general path run the
// same program on both.
func twinBuffers(t *testing.T, k kind, size int) [2]*Buffer {
	t.Helper()
	var bufs [2]*Buffer
	for i := range bufs {
		var err error
		if k.fixed {
			bufs[i], err = NewFixed(bytes.Repeat([]byte{0xA5}, size), k.opts())
		} else {
			bufs[i] = New(256, k.opts())
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return bufs
}
