package payloadbuffer

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

// fixedKinds are the four fixed-buffer kinds.
func fixedKinds() []kind {
	var ks []kind
	for _, k := range allKinds() {
		if k.fixed {
			ks = append(ks, k)
		}
	}
	return ks
}

// script runs a fixed sequence of operations (strings, vectors, string
// vectors, small and large allocations, reallocs, frees, aliasing sources)
// through the model. After each operation the failure flag must match what
// the operations reported and the guard bytes must be intact.
func script(m *model) {
	b := m.b
	quick := func() {
		if b.Failed() != m.failed {
			m.fatalf("Failed() = %t, an operation reported failure: %t", b.Failed(), m.failed)
		}
		if err := guardIntact(m.backing, m.size); err != nil {
			m.fatalf("%v", err)
		}
	}
	text := func(n int) []byte {
		s := make([]byte, n)
		for i := range s {
			s[i] = 'a' + byte(i%26)
		}
		return s
	}
	m.setString(0, []byte("hello, payload"), false, "literal")
	quick()
	for range 5 {
		m.vectorPush(1)
		quick()
	}
	m.pushString(0, []byte("alpha"), false, "literal")
	quick()
	m.pushString(0, text(45), false, "literal")
	quick()
	var small []uint32
	for i := range 10 {
		if p := m.allocate(1+i*4, Small|Zero); p != 0 {
			small = append(small, p)
		}
		quick()
	}
	big := m.allocate(300, 0)
	quick()
	m.setString(1, text(200), false, "literal")
	quick()
	m.vectorResize(2, 20)
	quick()
	if big != 0 {
		m.realloc(big, 600, Zero)
		quick()
	}
	m.setStringAt(1, 5, []byte("x"), false, "literal")
	quick()
	if m.strs[0] != nil {
		m.setString(0, b.StringAt(m.strSlot(0))[7:], true, "own string")
		quick()
	}
	for i, p := range small {
		if i%2 == 0 {
			m.free(p)
			quick()
		}
	}
	for range 40 {
		m.vectorPush(0)
		quick()
	}
	m.allocate(1000, Zero)
	quick()
	m.vectorReserve(1, 64)
	quick()
	if m.strs[1] != nil {
		m.pushString(1, b.StringAt(m.strSlot(1))[10:60], true, "string 1")
		quick()
	}
	m.setString(2, text(700), false, "literal")
	quick()
	m.clearStrings(0)
	quick()
	m.setStringAt(0, 3, text(33), false, "literal")
	quick()
	m.vectorClear(1)
	quick()
	m.clearString(1)
	quick()
	for i := range 12 {
		m.allocate(8+i*20, Flags(i%4))
		quick()
	}
	m.setString(3, text(1500), false, "literal")
	quick()
	m.allocate(2000, Small)
	quick()
	for range 30 {
		m.vectorPush(2)
		quick()
	}
}

func TestFixedSizes(t *testing.T) {
	maxSize := 4096
	if testing.Short() {
		maxSize = 1024
	}
	for _, k := range fixedKinds() {
		t.Run(k.String(), func(t *testing.T) {
			t.Parallel()
			for size := 0; size <= maxSize; size++ {
				testFixedSize(t, k, size)
			}
		})
	}
}

func testFixedSize(t *testing.T, k kind, size int) {
	if size < FixedHeaderSize {
		backing := make([]byte, size+guardSize)
		for i := range backing {
			backing[i] = guardByte
		}
		b, err := NewFixed(backing[:size], k.opts())
		if b != nil || !errors.Is(err, ErrTooSmall) {
			t.Fatalf("NewFixed(%d bytes) = %v, %v; want ErrTooSmall", size, b, err)
		}
		if err := guardIntact(backing, 0); err != nil {
			t.Fatalf("NewFixed(%d bytes) wrote: %v", size, err)
		}
		return
	}
	m := newModel(t, k, size, randSource{rand.New(rand.NewPCG(uint64(size), 7))}, uint64(size))
	if m.root == 0 {
		// Too small for the root block: nothing fits, nothing is
		// written past the end, and the failure is sticky.
		for _, n := range []int{1, 8, 16, 100} {
			if p := m.b.Allocate(n, Small|Zero); p != 0 {
				t.Fatalf("%d bytes: Allocate(%d) = %d after a failure", size, n, p)
			}
		}
		if err := guardIntact(m.backing, size); err != nil {
			t.Fatalf("%d bytes: %v", size, err)
		}
		if _, err := checkHeap(m.b, nil, false); err != nil {
			t.Fatalf("%d bytes: %v", size, err)
		}
		if !m.failed || size >= FixedHeaderSize+8+rootSize {
			t.Fatalf("%d bytes: the root block did not fit", size)
		}
		return
	}
	script(m)
	m.check("script")
}

// fillUntilFailure runs a deterministic sequence of allocations, frees,
// reallocs and (with a root block) strings until the buffer fails, then a
// few more calls, which must fail. It returns every returned offset.
func fillUntilFailure(t *testing.T, b *Buffer, root uint32, seed uint64) []uint32 {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 99))
	var trace, live []uint32
	after := 0
	for i := 0; i < 100000 && after < 5; i++ {
		if b.Failed() {
			after++
		}
		var p uint32
		switch op := r.IntN(10); {
		case op < 5:
			n := 1 + r.IntN(200)
			p = b.Allocate(n, Flags(r.IntN(4)))
			if p != 0 {
				// Write the whole block, so that no byte a later
				// realloc copies depends on what the memory held.
				s := b.Slice(p, b.BlockSize(p))
				for j := range s {
					s[j] = byte(i + j)
				}
				live = append(live, p)
			}
		case op < 7 && len(live) > 0:
			j := r.IntN(len(live))
			b.Free(live[j])
			live[j] = live[len(live)-1]
			live = live[:len(live)-1]
		case op < 9 && len(live) > 0:
			j := r.IntN(len(live))
			if p = b.Realloc(live[j], 1+r.IntN(300), Flags(r.IntN(4))); p != 0 {
				live[j] = p
				s := b.Slice(p, b.BlockSize(p))
				for j := range s {
					s[j] = byte(i - j)
				}
			}
		case root != 0:
			s := bytes.Repeat([]byte{byte(i)}, r.IntN(100))
			if b.SetString(root+4*uint32(r.IntN(4)), string(s)) {
				p = 1
			}
		}
		if after > 0 && p != 0 {
			t.Fatalf("call %d succeeded on a failed buffer", i)
		}
		trace = append(trace, p)
	}
	if !b.Failed() {
		t.Fatalf("buffer of %d bytes never filled", b.Len())
	}
	return trace
}

func TestResetRefills(t *testing.T) {
	var sizes []int
	for s := 40; s < 400; s++ {
		sizes = append(sizes, s)
	}
	for s := 400; s <= 4096; s += 37 {
		sizes = append(sizes, s)
	}
	for _, k := range fixedKinds() {
		t.Run(k.String(), func(t *testing.T) {
			for _, size := range sizes {
				for _, withRoot := range []bool{false, true} {
					testResetRefills(t, k, size, withRoot)
				}
			}
		})
	}
}

func testResetRefills(t *testing.T, k kind, size int, withRoot bool) {
	fill := func(p []byte) {
		for i := range p {
			p[i] = byte(i * 7)
		}
	}
	b, backing, err := newFixedGuarded(size, k.opts(), fill)
	if err != nil {
		t.Fatal(err)
	}
	var root uint32
	if withRoot {
		if root = b.Allocate(16, Zero); root == 0 {
			return // too small for a root block
		}
	}
	snapshot := clone(b.Bytes())
	first := fillUntilFailure(t, b, root, uint64(size))
	filled := clone(b.Memory())
	if binary.LittleEndian.Uint32(snapshot[offFreeList:]) == 0 {
		// The image has no free block (the root block took all the
		// memory, or there is no room for a free block at all): Reset
		// has no free memory to rebuild and rejects it.
		if err := b.Reset(snapshot); !errors.Is(err, ErrCorrupt) || !b.Failed() {
			t.Fatalf("%v %d bytes: Reset = %v, failed %t", k, size, err, b.Failed())
		}
		return
	}
	if err := b.Reset(snapshot); err != nil {
		t.Fatalf("%v %d bytes: Reset: %v", k, size, err)
	}
	if b.Failed() || !bytes.Equal(b.Bytes(), snapshot) || !bytes.Equal(b.Memory()[:len(snapshot)], snapshot) {
		t.Fatalf("%v %d bytes: after Reset failed=%t payload % x, want % x", k, size, b.Failed(), b.Bytes(), snapshot)
	}
	if _, err := checkHeap(b, nil, !withRoot); err != nil {
		t.Fatalf("%v %d bytes: after Reset: %v", k, size, err)
	}
	if _, err := Open(b.Memory()); err != nil {
		t.Fatalf("%v %d bytes: Open after Reset: %v", k, size, err)
	}
	second := fillUntilFailure(t, b, root, uint64(size))
	if !slices.Equal(first, second) {
		t.Fatalf("%v %d bytes: refill returned %v, first fill %v", k, size, second, first)
	}
	if !bytes.Equal(b.Memory(), filled) {
		t.Fatalf("%v %d bytes: refilled memory differs from the first fill", k, size)
	}
	if err := guardIntact(backing, size); err != nil {
		t.Fatalf("%v %d bytes: %v", k, size, err)
	}
}

// Reset rejects images that do not match the buffer.
func TestResetErrors(t *testing.T) {
	b, _ := NewFixed(make([]byte, 256), Options{Version: V3})
	if err := b.Reset(make([]byte, 10)); !errors.Is(err, ErrTooSmall) {
		t.Errorf("short image: %v", err)
	}
	other, _ := NewFixed(make([]byte, 256), Options{Version: V2})
	if err := b.Reset(other.Bytes()); !errors.Is(err, ErrCorrupt) {
		t.Errorf("v2 image for a v3 buffer: %v", err)
	}
	sized, _ := NewFixed(make([]byte, 256), Options{Version: V3, Tuning: Size})
	if err := b.Reset(sized.Bytes()); !errors.Is(err, ErrCorrupt) {
		t.Errorf("size-tuned image for a performance buffer: %v", err)
	}
	// An image whose free memory is not one block at its end.
	c, _ := NewFixed(make([]byte, 256), Options{Version: V3})
	p := c.Allocate(24, 0)
	c.Allocate(24, 0)
	c.Free(p)
	if err := b.Reset(c.Bytes()); !errors.Is(err, ErrCorrupt) {
		t.Errorf("image with a hole: %v", err)
	}
	// An image larger than the buffer.
	big, _ := NewFixed(make([]byte, 1024), Options{Version: V3})
	big.Allocate(500, 0)
	if err := b.Reset(big.Bytes()); err == nil {
		t.Errorf("image of %d bytes reset a buffer of %d", big.HWM(), b.Len())
	}
}
