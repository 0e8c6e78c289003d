package payloadbuffer

import (
	"fmt"
	"math/bits"
	"slices"
)

// check validates the allocator's structures of a buffer opened for
// writing, so that no later operation follows an offset out of the buffer or
// around a cycle. With repair, a trailing free block whose header reads as
// zero past the high-water mark (C++ 2.1 does not always count the last
// free header in the payload) is rebuilt to reach the end of the buffer.
func (b *Buffer) check(repair bool) error {
	full := uint32(len(b.data))
	hwm := b.get32(offHWM)
	if hwm < b.hdr || hwm > full {
		return fmt.Errorf("high-water mark %d outside [%d, %d]: %w", hwm, b.hdr, full, ErrCorrupt)
	}
	if m := b.get32(offMessage); m != 0 && (m < b.hdr || uint64(m)+4 > uint64(full)) {
		return fmt.Errorf("root message offset %d: %w", m, ErrCorrupt)
	}
	// The free list: address order, inside the buffer, no overlap.
	var prevEnd uint64 = uint64(b.hdr)
	for cur := b.get32(offFreeList); cur != 0; {
		if uint64(cur) < prevEnd || cur%8 != 0 || uint64(cur)+8 > uint64(full) {
			return fmt.Errorf("free block at %d: %w", cur, ErrCorrupt)
		}
		length, next := b.freeLen(cur), b.freeNext(cur)
		if repair && length == 0 && next == 0 && cur >= hwm {
			length = full - cur
			b.writeFree(cur, length, 0)
		}
		end := uint64(cur) + uint64(length)
		// Only a block that ends the buffer can have a length that is not
		// a multiple of 8 (a fixed buffer whose size is not).
		if length < 8 || (length%8 != 0 && end != uint64(full)) || end > uint64(full) {
			return fmt.Errorf("free block at %d of length %d: %w", cur, length, ErrCorrupt)
		}
		prevEnd, cur = end, next
	}
	// The data offsets of the small-block allocator's own blocks, which it
	// writes through: they must be allocated blocks of the heap.
	var structs []uint32
	if !b.small {
		return b.checkHeap(structs)
	}
	if b.version == V3 {
		for c := range classSize {
			size := classSize[c]
			steps := full / (size + 8)
			for p := b.get32(offSmall + 4*uint32(c)); p != 0; p = b.get32(p) {
				if steps == 0 || p < b.hdr+8 || p%8 != 0 || !b.inside(p, size) || b.word(p) != uint64(size) {
					return fmt.Errorf("class %d free block at %d: %w", size, p, ErrCorrupt)
				}
				steps--
				structs = append(structs, p)
			}
		}
		return b.checkHeap(structs)
	}
	for c := range classSize {
		vec := b.get32(offSmall + 4*uint32(c))
		if vec == 0 {
			continue
		}
		if !b.validBlock(vec) || b.encodedSmall(vec) || b.BlockSize(vec) < 8 {
			return fmt.Errorf("class %d run vector at %d: %w", classSize[c], vec, ErrCorrupt)
		}
		num, data := b.get32(vec), b.get32(vec+4)
		if !b.validBlock(data) || b.encodedSmall(data) || b.BlockSize(data)%4 != 0 ||
			uint64(num)*4 > uint64(b.BlockSize(data)) {
			return fmt.Errorf("class %d run array at %d (%d runs): %w", classSize[c], data, num, ErrCorrupt)
		}
		size, count := classSize[c], runCount[c]
		for i := range num {
			run := b.get32(data + 4*i)
			if !b.validBlock(run) || b.encodedSmall(run) || b.BlockSize(run) < 8+count*(size+8) ||
				uint32(b.data[run+4]) != size || uint32(b.data[run+5]) != count ||
				uint32(b.data[run+6])+uint32(bits.OnesCount32(b.get32(run))) != count ||
				b.get32(run)>>count != 0 {
				return fmt.Errorf("class %d run %d at %d: %w", size, i, run, ErrCorrupt)
			}
			structs = append(structs, run)
		}
		structs = append(structs, vec, data)
	}
	return b.checkHeap(structs)
}

// checkHeap walks the heap from the header to the end: the free blocks and
// the allocated blocks (a length word and its data) must tile it, and
// every allocator block in structs (data offsets) must be one of the
// allocated blocks, each only once. Then no allocator structure overlaps a
// free block or another structure, and the allocator only ever writes
// inside the buffer. A failed v3 buffer has dropped its free lists, so its
// free memory cannot be told apart; nothing allocates in it until Reset.
func (b *Buffer) checkHeap(structs []uint32) error {
	if b.version == V3 && b.failed {
		return nil
	}
	slices.Sort(structs)
	for i := 1; i < len(structs); i++ {
		if structs[i] == structs[i-1] {
			return fmt.Errorf("allocator block at %d used twice: %w", structs[i], ErrCorrupt)
		}
	}
	full := uint32(len(b.data))
	x, f := b.hdr, b.get32(offFreeList)
	for x < full {
		if x == f {
			x += b.freeLen(f)
			f = b.freeNext(f)
			continue
		}
		if full-x < 8 && x == b.hdr && f == 0 {
			break // no room for any block
		}
		if x%8 != 0 || full-x < 8 || (f != 0 && f < x) {
			return fmt.Errorf("heap block at %d: %w", x, ErrCorrupt)
		}
		low := uint32(b.word(x + 8))
		if b.version == V2 && low&smallBit != 0 {
			return fmt.Errorf("small block at %d outside a run: %w", x+8, ErrCorrupt)
		}
		end := uint64(x) + 8 + uint64(low)
		if end > uint64(full) {
			return fmt.Errorf("block at %d of %d bytes past the end: %w", x+8, low, ErrCorrupt)
		}
		for len(structs) > 0 && structs[0] <= x+8 {
			if structs[0] != x+8 {
				return fmt.Errorf("allocator block at %d inside another block: %w", structs[0], ErrCorrupt)
			}
			structs = structs[1:]
		}
		x = uint32(end)
	}
	if len(structs) > 0 {
		return fmt.Errorf("allocator block at %d not in the heap: %w", structs[0], ErrCorrupt)
	}
	return nil
}
