package payloadbuffer

import (
	"fmt"
	"testing"
)

// The hot paths: each benchmark works on a warm buffer (its blocks already
// allocated once), so a steady state allocates nothing on the Go heap.

type hotCase struct {
	name string
	opts Options
}

func hotCases() []hotCase {
	var cs []hotCase
	for _, v := range []Version{V2, V3} {
		for _, t := range []Tuning{Performance, Size} {
			cs = append(cs, hotCase{fmt.Sprintf("%v-%v", v, t), Options{Version: v, Tuning: t}})
		}
	}
	return cs
}

// allocFree allocates a small block and frees it.
func allocFree(b *Buffer) {
	p := b.Allocate(24, Small)
	b.PutUint32(p, 1)
	b.Free(p)
}

// warmString returns a buffer with a root block holding a 16-byte string,
// and a function that replaces it with another 16-byte string.
func warmString(opts Options) (*Buffer, func()) {
	b := New(4096, opts)
	root := b.Allocate(rootSize, Zero)
	b.SetString(root, "0123456789abcdef")
	i := 0
	return b, func() {
		s := "0123456789abcdef"
		if i++; i%2 == 0 {
			s = "fedcba9876543210"
		}
		b.SetString(root, s)
	}
}

// warmVector returns a buffer with a root block and a function that pushes
// one int32 onto its vector, clearing the vector every 256 elements.
func warmVector(opts Options) (*Buffer, func()) {
	b := New(4096, opts)
	root := b.Allocate(rootSize, Zero)
	slot := root + 4*nStr
	push := func() {
		if b.VectorLen(slot) == 256 {
			b.VectorClear(slot)
		}
		e := b.VectorPush(slot, 4)
		b.PutUint32(e, 7)
	}
	for range 300 { // grow the buffer once
		push()
	}
	return b, push
}

func BenchmarkAllocFree(bm *testing.B) {
	for _, c := range hotCases() {
		bm.Run(c.name, func(bm *testing.B) {
			b := New(4096, c.opts)
			allocFree(b)
			bm.ReportAllocs()
			for bm.Loop() {
				allocFree(b)
			}
		})
	}
}

func BenchmarkSetString(bm *testing.B) {
	for _, c := range hotCases() {
		bm.Run(c.name, func(bm *testing.B) {
			_, set := warmString(c.opts)
			set()
			bm.ReportAllocs()
			for bm.Loop() {
				set()
			}
		})
	}
}

func BenchmarkVectorPush(bm *testing.B) {
	for _, c := range hotCases() {
		bm.Run(c.name, func(bm *testing.B) {
			_, push := warmVector(c.opts)
			bm.ReportAllocs()
			for bm.Loop() {
				push()
			}
		})
	}
}

var sink uint32

func BenchmarkUint32(bm *testing.B) {
	b := New(4096, Options{})
	p := b.Allocate(1024, Zero)
	for i := uint32(0); i < 256; i++ {
		b.PutUint32(p+4*i, i)
	}
	bm.ReportAllocs()
	var s uint32
	for bm.Loop() {
		for i := uint32(0); i < 256; i++ {
			s += b.Uint32(p + 4*i)
		}
	}
	sink = s
}

func TestHotPathAllocs(t *testing.T) {
	if testing.CoverMode() != "" {
		t.Skip("coverage instrumentation allocates")
	}
	for _, c := range hotCases() {
		b := New(4096, c.opts)
		allocFree(b)
		if n := testing.AllocsPerRun(1000, func() { allocFree(b) }); n != 0 {
			t.Errorf("%s: Allocate+Free: %v allocations", c.name, n)
		}
		_, set := warmString(c.opts)
		set()
		if n := testing.AllocsPerRun(1000, set); n != 0 {
			t.Errorf("%s: SetString: %v allocations", c.name, n)
		}
		_, push := warmVector(c.opts)
		if n := testing.AllocsPerRun(1000, push); n != 0 {
			t.Errorf("%s: VectorPush: %v allocations", c.name, n)
		}
	}
	b := New(4096, Options{})
	p := b.Allocate(64, Zero)
	if n := testing.AllocsPerRun(1000, func() {
		b.PutUint32(p, b.Uint32(p+4)+1)
		sink += b.Uint32(p)
	}); n != 0 {
		t.Errorf("Uint32/PutUint32: %v allocations", n)
	}
}
