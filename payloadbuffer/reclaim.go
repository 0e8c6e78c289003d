package payloadbuffer

import (
	"cmp"
	"math/bits"
	"slices"
)

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
// allocator structures do not make sense. keep is sorted in place.
func (b *Buffer) Collect(keep []uint32) int {
	b.garbage = b.garbage[:0]
	if b.failed || b.onlyKept(keep) {
		return 0
	}
	g, ok := b.unused(keep)
	if !ok {
		g = g[:0] // (its storage is kept for the next call)
	}
	b.garbage = g
	return len(g)
}

// onlyKept reports whether the blocks in keep (sorted in place) and the
// allocator's own structures account for every allocated byte of the
// buffer: then nothing is garbage, and Collect need not walk the heap. It
// is Collect's cheap first step (a clear that released everything is the
// common case): the free list, the small-block structures and keep are
// summed and compared with the heap's size, since the blocks and free
// blocks tile the heap from the header to the end. It reports false when
// the sums differ or a structure does not make sense; unused then decides.
func (b *Buffer) onlyKept(keep []uint32) bool {
	full := uint64(len(b.data))
	if full <= uint64(b.hdr) {
		return false
	}
	var used uint64 // bytes of blocks in keep or structures, headers included
	block := func(p uint32) bool {
		if !b.validBlock(p) || b.encodedSmall(p) {
			return false
		}
		used += 8 + uint64(uint32(b.word(p)))
		return true
	}
	// The free blocks, in address order.
	var free uint64
	for f, last := b.get32(offFreeList), uint32(0); f != 0; f = b.freeNext(f) {
		if f <= last || !b.freeOK(f) || b.freeLen(f) < 8 {
			return false
		}
		free += uint64(b.freeLen(f))
		last = f
	}
	// The small-block allocator's structures, and the v2 slots in use.
	var slots uint64
	if b.small {
		for c := range classSize {
			head := b.get32(offSmall + 4*uint32(c))
			if head == 0 {
				continue
			}
			if b.version == V3 { // free class blocks: allocated, in a list
				for p, steps := head, full/16; p != 0; p, steps = b.get32(p), steps-1 {
					if steps == 0 || !block(p) {
						return false
					}
				}
				continue
			}
			if !block(head) {
				return false
			}
			num, data := b.get32(head), b.get32(head+4)
			if !block(data) || 4*uint64(num) > uint64(b.BlockSize(data)) {
				return false
			}
			for i := range num {
				run := b.get32(data + 4*i)
				if !block(run) || b.BlockSize(run) < runBytes[c]-8 {
					return false
				}
				slots += uint64(bits.OnesCount32(b.get32(run) & (1<<runCount[c] - 1)))
			}
		}
	}
	slices.Sort(keep)
	var kept uint64 // v2 small blocks in keep
	for i, p := range keep {
		if i > 0 && p == keep[i-1] {
			continue
		}
		if !b.validBlock(p) {
			return false
		}
		if b.encodedSmall(p) {
			kept++
		} else {
			used += 8 + uint64(uint32(b.word(p)))
		}
	}
	return free+used == full-uint64(b.hdr) && slots == kept
}

// reclaim frees the blocks set aside and those Collect recorded that are
// still allocated, and reports whether it freed any.
func (b *Buffer) reclaim() bool {
	aside := b.FreeAside()
	g := b.garbage
	b.garbage = nil
	if len(g) == 0 || b.check(false) != nil {
		return aside > 0 && !b.failed
	}
	// Only blocks that are still allocated: a handle kept across the
	// clear can have freed one.
	live, ok := b.unused(nil)
	if !ok {
		return false
	}
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
// that are neither in keep (sorted in place) nor allocator structures, in
// b.garbage's storage; ok is false when the structures do not make sense
// (only possible in a payload written elsewhere). It allocates nothing once
// its scratch slices have grown: a fill/Clear loop calls it on every Clear.
func (b *Buffer) unused(keep []uint32) (garbage []uint32, ok bool) {
	slices.Sort(keep)
	in := func(s []uint32, p uint32) bool {
		_, ok := slices.BinarySearch(s, p)
		return ok
	}
	full := uint32(len(b.data))
	garbage = b.garbage[:0]
	// The allocator's structures, the v2 runs (data offset and class) and
	// the v3 class blocks that are free.
	structs, runs, free := b.scratch.structs[:0], b.scratch.runs[:0], b.scratch.free[:0]
	defer func() {
		// Room for twice as many next time, so that the next calls (a
		// fill/Clear loop whose fills vary a little) do not allocate.
		b.scratch.structs, b.scratch.runs, b.scratch.free = headroom(structs), headroom(runs), headroom(free)
	}()
	if b.small {
		for c := range classSize {
			head := b.get32(offSmall + 4*uint32(c))
			if b.version == V3 {
				for p, steps := head, full/16; p != 0; p, steps = b.get32(p), steps-1 {
					if steps == 0 || !b.inside(p, 4) {
						return garbage[:0], false
					}
					free = append(free, p)
				}
				continue
			}
			if head == 0 {
				continue
			}
			if !b.inside(head, 8) {
				return garbage[:0], false
			}
			num, data := b.get32(head), b.get32(head+4)
			if uint64(data)+4*uint64(num) > uint64(full) {
				return garbage[:0], false
			}
			structs = append(structs, head, data)
			for i := range num {
				run := b.get32(data + 4*i)
				if !b.inside(run, runBytes[c]) {
					return garbage[:0], false
				}
				structs = append(structs, run)
				runs = append(runs, uint64(run)<<32|uint64(c))
			}
		}
	}
	slices.Sort(structs)
	slices.Sort(runs)
	slices.Sort(free)
	x, f := b.hdr, b.get32(offFreeList)
	for x < full && full-x >= 8 {
		if x == f {
			l := b.freeLen(f)
			if l < 8 || uint64(f)+uint64(l) > uint64(full) {
				return garbage[:0], false
			}
			x, f = f+l, b.freeNext(f)
			if f != 0 && f < x {
				return garbage[:0], false
			}
			continue
		}
		p := x + 8
		low := uint32(b.word(p))
		if b.version == V2 && low&smallBit != 0 || uint64(p)+uint64(low) > uint64(full) {
			return garbage[:0], false
		}
		k, isRun := slices.BinarySearchFunc(runs, p, func(r uint64, p uint32) int { return cmp.Compare(uint32(r>>32), p) })
		switch {
		case isRun:
			c := int(uint32(runs[k]))
			size := classSize[c]
			bits := b.get32(p)
			for slot := range runCount[c] {
				if q := p + 8 + slot*(size+8) + 8; bits&(1<<slot) != 0 && !in(keep, q) {
					garbage = append(garbage, q)
				}
			}
		case in(structs, p), in(free, p), in(keep, p):
		default:
			garbage = append(garbage, p)
		}
		x = p + low
	}
	slices.Sort(garbage)
	return headroom(garbage), true
}

// headroom returns s with capacity for at least twice its length.
func headroom[T any](s []T) []T { return slices.Grow(s, len(s))[:len(s)] }

// Reclaimed reports whether an allocation has freed the blocks Collect
// recorded to find room since the buffer was created, opened or reset:
// from then on its bytes are no longer those C++ Phaser 2.1 writes for the
// same operations (C++ would have failed, or grown the buffer).
func (b *Buffer) Reclaimed() bool { return b.reclaimed }

// Garbage reports how many blocks the last Collect recorded that no
// allocation has freed yet.
func (b *Buffer) Garbage() int { return len(b.garbage) }
