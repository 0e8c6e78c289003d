package payloadbuffer

import (
	"fmt"
	"math/bits"
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
		if length < 8 || length%8 != 0 || end > uint64(full) {
			return fmt.Errorf("free block at %d of length %d: %w", cur, length, ErrCorrupt)
		}
		prevEnd, cur = end, next
	}
	if !b.small {
		return nil
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
			}
		}
		return nil
	}
	for c := range classSize {
		vec := b.get32(offSmall + 4*uint32(c))
		if vec == 0 {
			continue
		}
		if !b.validBlock(vec) || b.BlockSize(vec) < 8 {
			return fmt.Errorf("class %d run vector at %d: %w", classSize[c], vec, ErrCorrupt)
		}
		num, data := b.get32(vec), b.get32(vec+4)
		if !b.validBlock(data) || uint64(num)*4 > uint64(b.BlockSize(data)) {
			return fmt.Errorf("class %d run array at %d (%d runs): %w", classSize[c], data, num, ErrCorrupt)
		}
		size, count := classSize[c], runCount[c]
		for i := range num {
			run := b.get32(data + 4*i)
			if !b.validBlock(run) || b.BlockSize(run) < 8+count*(size+8) ||
				uint32(b.data[run+4]) != size || uint32(b.data[run+5]) != count ||
				uint32(b.data[run+6])+uint32(bits.OnesCount32(b.get32(run))) != count ||
				b.get32(run)>>count != 0 {
				return fmt.Errorf("class %d run %d at %d: %w", size, i, run, ErrCorrupt)
			}
		}
	}
	return nil
}
