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

// handOut prepares [from, end), data of a block being handed out, when the
// buffer scrubs: the part past clean is zeroed.
func (b *Buffer) handOut(from, end uint32) {
	if !b.scrub || end <= b.clean {
		return
	}
	clear(b.data[max(from, b.clean):end])
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
		b.clean = b.HWM()
		return
	}
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
