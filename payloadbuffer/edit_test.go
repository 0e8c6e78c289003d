package payloadbuffer

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestVectorEditModel compares Insert, Erase, Swap and AppendN on uint32
// vectors with the same edits on Go slices, in every format and tuning.
func TestVectorEditModel(t *testing.T) {
	for _, v := range []Version{V2, V3} {
		for _, tu := range []Tuning{Performance, Size} {
			b := New(256, Options{Version: v, Tuning: tu})
			slots := [2]uint32{b.Allocate(8, Zero), b.Allocate(8, Zero)}
			var model [2][]uint32
			rng := rand.New(rand.NewPCG(1, uint64(v)))
			next := uint32(1)
			read := func(k int) []uint32 {
				out := make([]uint32, b.VectorLen(slots[k]))
				for i := range out {
					out[i] = b.Uint32(b.VectorData(slots[k]) + 4*uint32(i))
				}
				return out
			}
			for step := range 3000 {
				k := rng.IntN(2)
				n := len(model[k])
				switch op := rng.IntN(5); op {
				case 0, 1: // insert
					i, c := rng.IntN(n+1), 1+rng.IntN(4)
					at := b.VectorInsert(slots[k], i, c, 4)
					if at == 0 {
						t.Fatalf("%s/%s step %d: insert failed", v, tu, step)
					}
					vals := make([]uint32, c)
					for j := range vals {
						vals[j] = next
						b.PutUint32(at+4*uint32(j), next)
						next++
					}
					model[k] = slices.Insert(model[k], i, vals...)
				case 2: // erase
					if n == 0 {
						continue
					}
					i := rng.IntN(n)
					j := i + rng.IntN(n-i+1)
					if !b.VectorErase(slots[k], i, j, 4) {
						t.Fatalf("erase [%d,%d) of %d failed", i, j, n)
					}
					model[k] = slices.Delete(model[k], i, j)
				case 3: // swap
					b.VectorSwap(slots[0], slots[1])
					model[0], model[1] = model[1], model[0]
				case 4: // append n
					c := 1 + rng.IntN(8)
					at := b.VectorAppendN(slots[k], c, 4)
					for j := range c {
						b.PutUint32(at+4*uint32(j), next)
						model[k] = append(model[k], next)
						next++
					}
				}
				for m := range 2 {
					if got := read(m); !slices.Equal(got, model[m]) && !(len(got) == 0 && len(model[m]) == 0) {
						t.Fatalf("%s/%s step %d: vector %d = %v, want %v", v, tu, step, m, got, model[m])
					}
				}
			}
			if b.VectorInsert(slots[0], -1, 1, 4) != 0 || b.VectorInsert(slots[0], len(model[0])+1, 1, 4) != 0 ||
				b.VectorErase(slots[0], 1, 0, 4) || b.VectorErase(slots[0], 0, len(model[0])+1, 4) {
				t.Fatal("out-of-range edits accepted")
			}
		}
	}
}
