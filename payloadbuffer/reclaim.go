package payloadbuffer

import "slices"

// Collect records, after the root message was cleared, every allocated
// block of the buffer but those whose data offsets are in keep and the
// small-block allocator's own structures: blocks nothing uses any more. A
// message runtime calls it with the blocks the cleared payload still uses
// (the root, the control block, the field tables and type names), so that
// blocks the clear does not release (C++ Phaser 2.1 leaves the StringHeader
// blocks of repeated strings allocated, for one) do not accumulate in a
// buffer that is cleared and filled again.
//
// The blocks are not freed at once: freeing them would change where later
// allocations go, and the bytes would no longer be those C++ Phaser writes
// for the same operations. They are freed the first time an allocation
// finds no room (before a fixed buffer fails or an owned one grows), where
// C++ would have failed; until then the bytes are C++'s. A later Collect
// replaces the record; Reset and an allocation failure drop it. It reports
// how many blocks it recorded, 0 on a buffer that has failed or whose
// allocator structures do not check (see Open).
func (b *Buffer) Collect(keep []uint32) int {
	b.garbage = b.garbage[:0]
	if b.failed || b.check(false) != nil {
		return 0
	}
	b.garbage = b.unused(keep)
	return len(b.garbage)
}

// reclaim frees the blocks Collect recorded that are still allocated, and
// reports whether it freed any.
func (b *Buffer) reclaim() bool {
	g := b.garbage
	b.garbage = nil
	if len(g) == 0 || b.check(false) != nil {
		return false
	}
	// Only blocks that are still allocated: a handle kept across the
	// clear can have freed one.
	live := b.unused(nil)
	b.reclaimed = true
	n := 0
	for _, p := range g {
		if _, ok := slices.BinarySearch(live, p); ok {
			b.Free(p)
			n++
		}
	}
	return n > 0 && !b.failed
}

// unused lists, in address order, the data offsets of the allocated blocks
// that are neither in keep nor allocator structures. The buffer must pass
// check.
func (b *Buffer) unused(keep []uint32) []uint32 {
	keep = slices.Clone(keep)
	slices.Sort(keep)
	kept := func(p uint32) bool {
		_, ok := slices.BinarySearch(keep, p)
		return ok
	}
	// The allocator's structures, and the v3 class blocks that are free.
	var structs, free []uint32
	runs := map[uint32]int{} // v2 run data offset -> class
	if b.small {
		for c := range classSize {
			head := b.get32(offSmall + 4*uint32(c))
			if b.version == V3 {
				for p := head; p != 0; p = b.get32(p) {
					free = append(free, p)
				}
				continue
			}
			if head == 0 {
				continue
			}
			num, data := b.get32(head), b.get32(head+4)
			structs = append(structs, head, data)
			for i := range num {
				run := b.get32(data + 4*i)
				structs = append(structs, run)
				runs[run] = c
			}
		}
	}
	slices.Sort(structs)
	slices.Sort(free)
	in := func(s []uint32, p uint32) bool {
		_, ok := slices.BinarySearch(s, p)
		return ok
	}
	var garbage []uint32
	full := uint32(len(b.data))
	x, f := b.hdr, b.get32(offFreeList)
	for x < full && full-x >= 8 {
		if x == f {
			x += b.freeLen(f)
			f = b.freeNext(f)
			continue
		}
		p := x + 8
		low := uint32(b.word(p))
		switch c, isRun := runs[p]; {
		case isRun:
			size := classSize[c]
			bits := b.get32(p)
			for slot := range runCount[c] {
				if q := p + 8 + slot*(size+8) + 8; bits&(1<<slot) != 0 && !kept(q) {
					garbage = append(garbage, q)
				}
			}
		case in(structs, p), in(free, p), kept(p):
		default:
			garbage = append(garbage, p)
		}
		x = p + low
	}
	slices.Sort(garbage)
	return garbage
}

// Reclaimed reports whether an allocation has freed the blocks Collect
// recorded to find room since the buffer was created, opened or reset:
// from then on its bytes are no longer those C++ Phaser 2.1 writes for the
// same operations (C++ would have failed, or grown the buffer).
func (b *Buffer) Reclaimed() bool { return b.reclaimed }
