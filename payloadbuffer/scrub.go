package payloadbuffer

// Scrubbing (Options.Scrub): a scrubbing buffer keeps two invariants.
//
//   - The data of every free block is zero (its 8-byte header aside, and the
//     4-byte link of a free format-3 small block): Free zeroes what it frees,
//     and merged free blocks zero the header that ends up inside another.
//   - Every byte below clean was written or zeroed by the buffer; bytes from
//     clean on may hold what the memory held before (caller memory, or what
//     a Reset left past the image). An allocation whose block reaches past
//     clean zeroes that part before handing it out, and clean moves past it.
//
// So an allocation without Zero hands out zero bytes too, the high-water
// mark never covers a byte the buffer did not write (hwm is at most clean
// plus one free header, which the buffer wrote), and Bytes() carries
// nothing the program deleted or never wrote. Writes that keep a block but
// use less of it (a shorter string, an erased element) zero the rest.

// handOut prepares [start, end), data being handed out, when the buffer
// scrubs: the part past clean is zeroed. The caller writes [start, from)
// before anything reads it (Overwrite), so those bytes need no zeroing.
func (b *Buffer) handOut(start, from, end uint32) {
	if !b.scrub || end <= b.clean {
		return
	}
	b.scrubOut(start, from, end)
}

// scrubOut is handOut's work. A short tail (most blocks a payload build
// hands out: a string's, a small message's) is zeroed with two word stores
// over the block's last 16 bytes instead of a call to clear: what they
// cover below from is the caller's to overwrite, or lies below clean, where
// a free block's data is zero already.
func (b *Buffer) scrubOut(start, from, end uint32) {
	from = max(from, b.clean)
	if end-from <= 16 && end-start >= 16 && end%8 == 0 {
		d := b.data[end-16 : end]
		putLE64(d, 0)
		putLE64(d[8:], 0)
	} else {
		clear(b.data[from:end])
	}
	b.clean = end
}

// zero clears [from, end) when the buffer scrubs.
func (b *Buffer) zero(from, end uint32) {
	if b.scrub && from < end {
		clear(b.data[from:end])
	}
}

// scrubFree establishes the invariants on a buffer that did not keep them
// (one continued with Open, or one that just turned scrubbing on): the data
// of every free block is zeroed, but for the last one when it ends the
// buffer, where clean starts instead.
func (b *Buffer) scrubFree() {
	full := uint32(len(b.data))
	b.clean = full
	if b.failed && b.version == V3 {
		return // the free lists were dropped: nothing allocates until Reset
	}
	if b.check(false) != nil {
		b.clean = b.HWM() // (and the invariants do not hold: zeroed stays false)
		return
	}
	defer func() { b.zeroed = true }()
	for f := b.get32(offFreeList); f != 0; f = b.freeNext(f) {
		end := f + b.freeLen(f)
		if end == full && b.freeNext(f) == 0 {
			b.clean = min(f+8, full)
			break
		}
		clear(b.data[f+8 : end])
	}
	if !b.small {
		return
	}
	for c := range classSize {
		head := b.get32(offSmall + 4*uint32(c))
		if b.version == V3 {
			for p := head; p != 0; p = b.get32(p) {
				clear(b.data[p+4 : p+classSize[c]])
			}
			continue
		}
		if head == 0 {
			continue
		}
		num, data := b.get32(head), b.get32(head+4)
		size := classSize[c]
		for i := range num {
			run := b.get32(data + 4*i)
			bits := b.get32(run)
			for slot := range runCount[c] {
				if bits&(1<<slot) == 0 {
					p := run + 8 + slot*(size+8) + 8
					clear(b.data[p : p+size])
				}
			}
		}
	}
}
