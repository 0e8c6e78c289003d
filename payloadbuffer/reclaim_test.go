package payloadbuffer

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestCollect checks that the blocks Collect records stay allocated (the
// bytes do not change, nor does where later allocations go) until an
// allocation finds no room, which then frees them and succeeds; the kept
// blocks and the small-block allocator's structures are never freed.
func TestCollect(t *testing.T) {
	for _, k := range allKinds() {
		t.Run(k.String(), func(t *testing.T) {
			// An owned buffer reclaims before it grows.
			b := New(4096, k.opts())
			if k.fixed {
				var err error
				if b, err = NewFixed(make([]byte, 4096), k.opts()); err != nil {
					t.Fatal(err)
				}
			}
			root := b.Allocate(64, Zero|Small)
			b.SetMessage(root)
			keepSmall := b.Allocate(12, Small)
			var garbage []uint32
			for i := range 6 {
				garbage = append(garbage, b.Allocate(4+20*i, Zero|Small))
			}
			if b.Failed() || len(b.Memory()) != 4096 {
				t.Fatal("setup did not fit")
			}
			before := bytes.Clone(b.Memory())
			if n := b.Collect([]uint32{root, keepSmall}); n != len(garbage) {
				t.Fatalf("Collect recorded %d blocks, want %d", n, len(garbage))
			}
			if !bytes.Equal(before, b.Memory()) {
				t.Fatal("Collect changed the bytes")
			}
			// Fill the buffer: the allocation that finds no room frees the
			// garbage and goes on.
			total := 0
			for range 256 {
				p := b.Allocate(40, Zero|Small)
				if p == 0 {
					break
				}
				total++
				if len(b.Memory()) != 4096 {
					t.Fatalf("buffer grew to %d bytes before reclaiming", len(b.Memory()))
				}
				if b.Reclaimed() {
					break
				}
			}
			if !b.Reclaimed() || b.Failed() {
				t.Fatalf("after %d allocations: reclaimed %v, failed %v", total, b.Reclaimed(), b.Failed())
			}
			if err := b.check(false); err != nil {
				t.Fatal(err)
			}
			for _, p := range []uint32{root, keepSmall} {
				if !b.validBlock(p) || b.BlockSize(p) == 0 {
					t.Fatalf("kept block %d was freed", p)
				}
			}
		})
	}
}

// TestOnlyKept checks Collect's cheap first step against the heap walk it
// saves: over random heaps of every kind (allocations of every size class,
// frees, reallocations, strings), onlyKept(keep) holds exactly when unused
// finds no garbage, for keep sets that cover the live blocks or miss one.
func TestOnlyKept(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, k := range allKinds() {
		t.Run(k.String(), func(t *testing.T) {
			var agreed [2]int // checks where the heap walk found garbage, and none
			defer func() {
				if !t.Failed() && (agreed[0] == 0 || agreed[1] == 0) {
					t.Errorf("the checks covered one outcome only: %v", agreed)
				}
			}()
			for trial := range 300 {
				b := New(1024, k.opts())
				if k.fixed {
					var err error
					if b, err = NewFixed(make([]byte, 8192), k.opts()); err != nil {
						t.Fatal(err)
					}
				}
				var live []uint32
				for range 1 + rng.IntN(40) {
					switch r := rng.IntN(10); {
					case r < 6 || len(live) == 0:
						flags := Flags(0)
						if rng.IntN(2) == 0 {
							flags |= Small
						}
						if p := b.Allocate(1+rng.IntN(300), flags|Zero); p != 0 {
							live = append(live, p)
						}
					case r < 8:
						i := rng.IntN(len(live))
						b.Free(live[i])
						live = append(live[:i], live[i+1:]...)
					default:
						i := rng.IntN(len(live))
						if p := b.Realloc(live[i], 1+rng.IntN(400), Zero); p != 0 {
							live[i] = p
						}
					}
				}
				if b.Failed() || len(live) == 0 {
					continue
				}
				check := func(keep []uint32, what string) {
					want := false
					if g, ok := b.unused(slices.Clone(keep)); ok && len(g) == 0 {
						want = true
					}
					if want {
						agreed[1]++
					} else {
						agreed[0]++
					}
					if got := b.onlyKept(slices.Clone(keep)); got != want {
						t.Fatalf("trial %d, %s (%d of %d blocks): onlyKept %v, the heap walk says %v", trial, what, len(keep), len(live), got, want)
					}
				}
				all := slices.Clone(live)
				check(all, "every live block")
				check(append(slices.Clone(all), all[0]), "every live block, one twice")
				i := rng.IntN(len(live))
				check(append(slices.Clone(live[:i]), live[i+1:]...), "one live block missing")
			}
		})
	}
}
