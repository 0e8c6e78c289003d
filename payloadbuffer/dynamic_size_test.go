package payloadbuffer

import (
	"fmt"
	"testing"
)

// Dynamic buffers keep the initial size they are given, as C++
// CreateDynamicMutable does (spec 2.8): the header's full_size and the last
// free block's length follow it, and growth doubles it.
func TestDynamicOddSize(t *testing.T) {
	for _, v := range []Version{V2, V3} {
		for _, tu := range []Tuning{Performance, Size} {
			for _, size := range []int{1001, 333, 300, 1000} {
				t.Run(fmt.Sprintf("%v-%v-%d", v, tu, size), func(t *testing.T) {
					testDynamicOddSize(t, Options{Version: v, Tuning: tu}, size)
				})
			}
		}
	}
}

func testDynamicOddSize(t *testing.T, opts Options, size int) {
	b := New(size, opts)
	if b.Len() != size || b.Uint32(offFullSize) != uint32(size) {
		t.Fatalf("Len %d, full_size %d; want %d", b.Len(), b.Uint32(offFullSize), size)
	}
	if rest := size - MovableHeaderSize; rest >= 8 {
		if head := b.Uint32(offFreeList); head != MovableHeaderSize || b.freeLen(head) != uint32(rest) {
			t.Fatalf("free list %d of length %d; want %d of length %d", head, b.freeLen(head), MovableHeaderSize, rest)
		}
	}
	// Each request is larger than the free space: the buffer doubles, and
	// the last free block, which ends at the old size, is extended to the
	// new one.
	want := size
	for range 3 {
		p := b.Allocate(want, 0)
		want *= 2
		if p == 0 || p%8 != 0 {
			t.Fatalf("Allocate: offset %d", p)
		}
		if b.Len() != want || b.Uint32(offFullSize) != uint32(want) {
			t.Fatalf("after growth: Len %d, full_size %d; want %d", b.Len(), b.Uint32(offFullSize), want)
		}
		last := lastFree(b)
		if last == 0 || last+b.freeLen(last) != uint32(want) {
			t.Fatalf("last free block %d of length %d does not end at %d", last, b.freeLen(last), want)
		}
		if err := b.check(false); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := Open(b.Memory()); err != nil {
		t.Fatalf("Open: %v", err)
	}
}

// lastFree returns the last block of the free list (0 if it is empty).
func lastFree(b *Buffer) uint32 {
	var last uint32
	for cur := b.Uint32(offFreeList); cur != 0; cur = b.freeNext(cur) {
		last = cur
	}
	return last
}

// A buffer too small for any block (no free list) grows into an aligned
// free block.
func TestDynamicTinyOddSize(t *testing.T) {
	b := New(MovableHeaderSize+1, Options{Tuning: Size})
	if b.Uint32(offFreeList) != 0 {
		t.Fatalf("free list %d in a buffer of %d bytes", b.Uint32(offFreeList), b.Len())
	}
	p := b.Allocate(16, Zero)
	if p != MovableHeaderSize+8 {
		t.Fatalf("Allocate: offset %d", p)
	}
	if err := b.check(false); err != nil {
		t.Fatal(err)
	}
}

// The exact sizes C++ 2.1 reaches from 1001 bytes: 1001, 2002, 4004.
func TestDynamicOddSizeGrowth(t *testing.T) {
	b := New(1001, Options{Tuning: Size})
	var sizes []int
	for range 2 {
		sizes = append(sizes, b.Len())
		b.Allocate(b.Len(), 0)
	}
	sizes = append(sizes, b.Len())
	if fmt.Sprint(sizes) != "[1001 2002 4004]" {
		t.Fatalf("sizes %v, want [1001 2002 4004]", sizes)
	}
}

// A buffer of odd size whose last free block was taken whole (the block's
// length word is then odd too) grows: C++ 2.1 would append the new free
// block at the odd old size, misaligning every block carved from it;
// phaser-go lengthens the block that ends there to the next multiple of 8
// and starts the free block there (docs/format.md).
func TestDynamicOddSizeTailTaken(t *testing.T) {
	for _, v := range []Version{V2, V3} {
		for _, tu := range []Tuning{Performance, Size} {
			t.Run(fmt.Sprintf("%v-%v", v, tu), func(t *testing.T) {
				b := New(1001, Options{Version: v, Tuning: tu})
				first := b.Allocate(200, Zero)
				// The rest of the free block is 1001-48-208 = 745 bytes;
				// a request of 736 (full 744) leaves 1 byte: taken whole.
				tail := b.Allocate(736, Zero)
				if tail == 0 || b.Uint32(offFreeList) != 0 || b.word(tail) != 737 {
					t.Fatalf("tail block %d with word %d, free list %d; want the whole block (737)", tail, b.word(tail), b.Uint32(offFreeList))
				}
				p := b.Allocate(300, Zero)
				if p%8 != 0 || b.Len() != 2002 {
					t.Fatalf("after growth: block %d, Len %d", p, b.Len())
				}
				if got := b.word(tail); got != 744 {
					t.Fatalf("tail block word %d, want 744 (padded to 1008)", got)
				}
				if p != 1016 {
					t.Fatalf("first block after growth at %d, want 1016", p)
				}
				if err := b.check(false); err != nil {
					t.Fatal(err)
				}
				// The padded block frees and merges like any other.
				b.Free(tail)
				b.Free(first)
				if err := b.check(false); err != nil {
					t.Fatal(err)
				}
				if head := b.Uint32(offFreeList); head != MovableHeaderSize || b.freeLen(head) != 1008-MovableHeaderSize {
					t.Fatalf("free list %d of length %d, want %d of length %d", head, b.freeLen(head), MovableHeaderSize, 1008-MovableHeaderSize)
				}
				if _, err := Open(b.Memory()); err != nil {
					t.Fatalf("Open: %v", err)
				}
			})
		}
	}
}
