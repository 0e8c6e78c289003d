package payloadbuffer

import (
	"bytes"
	"encoding/binary"
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
				switch op := rng.IntN(6); op {
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
				case 5: // append a copy
					c := rng.IntN(8)
					src := make([]byte, 4*c+rng.IntN(4)) // a partial element is not appended
					for j := range c {
						binary.LittleEndian.PutUint32(src[4*j:], next)
						model[k] = append(model[k], next)
						next++
					}
					if !b.VectorAppendCopy(slots[k], src, 4) {
						t.Fatalf("%s/%s step %d: append copy failed", v, tu, step)
					}
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

// TestVectorAppendCopySameBytes checks that VectorAppendCopy writes the
// buffer VectorAppendN and a store of each element write: the same blocks,
// the same bytes, into an empty vector and onto one with elements, in every
// format and tuning, and that a fixed buffer that fills up leaves the
// vector unchanged.
func TestVectorAppendCopySameBytes(t *testing.T) {
	for _, v := range []Version{V2, V3} {
		for _, tu := range []Tuning{Performance, Size} {
			opts := Options{Version: v, Tuning: tu}
			a, c := New(256, opts), New(256, opts)
			sa, sc := a.Allocate(8, Zero), c.Allocate(8, Zero)
			for round, n := range []int{3, 1, 9, 0, 17} {
				src := make([]byte, 8*n)
				for i := range src {
					src[i] = byte(round*31 + i)
				}
				if at := a.VectorAppendN(sa, n, 8); at != 0 {
					copy(a.Memory()[at:], src)
				}
				if !c.VectorAppendCopy(sc, src, 8) {
					t.Fatalf("%s/%s round %d: VectorAppendCopy failed", v, tu, round)
				}
				if !bytes.Equal(a.Memory(), c.Memory()) {
					t.Fatalf("%s/%s round %d: the buffers differ", v, tu, round)
				}
			}
			mem := make([]byte, 1024)
			f, err := NewFixed(mem, opts)
			if err != nil {
				t.Fatal(err)
			}
			slot := f.Allocate(8, Zero)
			if !f.VectorAppendCopy(slot, make([]byte, 16), 8) {
				t.Fatalf("%s/%s: two elements do not fit in 1 KiB", v, tu)
			}
			num, data := f.VectorLen(slot), f.VectorData(slot)
			if f.VectorAppendCopy(slot, make([]byte, 2048), 8) {
				t.Fatalf("%s/%s: 2 KiB appended to a 1 KiB buffer", v, tu)
			}
			if f.VectorLen(slot) != num || f.VectorData(slot) != data {
				t.Fatalf("%s/%s: a failed append changed the vector", v, tu)
			}
		}
	}
}
