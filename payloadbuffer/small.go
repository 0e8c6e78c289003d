package payloadbuffer

import "math/bits"

// The v2 small-block allocator: bitmap runs (spec 2.7).
//
// header slot c -> VectorHeader{num, data} -> data: uint32 run offsets
// run: {uint32 bits, uint8 size, uint8 num, uint8 free, uint8 pad} then num
// slots of [8-byte encoded word][size bytes].

const smallBit = 1 << 31

// runCount is the number of slots in a run of each class.
var runCount = [4]uint32{20, 10, 6, 2}

// runBytes is the size of a run of each class: 8 + count × (size + 8).
var runBytes = [4]uint32{488, 408, 440, 280}

// encodedSmall reports whether p is a v2 small block (its word is encoded).
func (b *Buffer) encodedSmall(p uint32) bool {
	return b.version == V2 && uint32(b.word(p))&smallBit != 0
}

func (b *Buffer) allocBitmap(c int, zero bool) uint32 {
	slotHdr := offSmall + 4*uint32(c)
	vec := b.get32(slotHdr)
	if vec == 0 {
		vec = b.allocRegular(8, true)
		if vec == 0 {
			return 0
		}
		data := b.allocRegular(32, false)
		if data == 0 {
			return 0
		}
		b.put32(vec+4, data)
		b.put32(slotHdr, vec)
	}
	size := classSize[c]
	// The run vector, its array and the runs were checked by Open, but a
	// message of a payload written elsewhere can lie over them (or over the
	// header's slots), and writes through it rewrite them: the allocator
	// fails rather than index outside the buffer or write outside a run.
	if uint64(vec)+8 > uint64(len(b.data)) {
		b.corrupt()
		return 0
	}
	idx := &b.runs[c]
	if !idx.valid && !b.indexRuns(c, vec) {
		return 0
	}
	for {
		num, data := b.get32(vec), b.get32(vec+4)
		// The last run with a free slot (C++ scans from the last run down).
		if i := idx.last(); i >= 0 && uint32(i) < num {
			if uint64(data)+4*uint64(num) > uint64(len(b.data)) {
				b.corrupt()
				return 0
			}
			run := b.get32(data + 4*uint32(i))
			if run < b.hdr+8 || uint64(run)+uint64(runBytes[c]) > uint64(len(b.data)) {
				b.corrupt()
				return 0
			}
			runBits := b.get32(run)
			slot := uint32(bits.TrailingZeros32(^runBits))
			if slot >= runCount[c] { // a free count that the bits deny
				b.corrupt()
				return 0
			}
			b.put32(run, runBits|1<<slot)
			if b.data[run+6]--; b.data[run+6] == 0 {
				idx.set(i, false)
			}
			p := run + 8 + slot*(size+8) + 8
			b.putWord(p, uint64(smallBit|slot<<26|uint32(i)<<8|size))
			if zero {
				clear(b.data[p : p+size])
			}
			return p
		}
		// No run has a free slot: add one.
		if vec < b.hdr || data < b.hdr+8 || !b.inside(data, 4*num) {
			b.corrupt()
			return 0
		}
		if room := b.BlockSize(data); num*4 > room || (num*4 < room && !b.inside(data, 4*num+4)) {
			b.corrupt() // a count past its array
			return 0
		}
		count := runCount[c]
		run := b.allocRegular(runBytes[c], false)
		if run == 0 {
			return 0
		}
		b.put32(run, 0)
		b.data[run+4], b.data[run+5], b.data[run+6] = byte(size), byte(count), byte(count)
		if num*4 == b.BlockSize(data) {
			data = b.Realloc(data, int(2*num*4), Zero)
			if data == 0 {
				return 0
			}
			b.put32(vec+4, data)
		}
		b.put32(data+4*num, run)
		b.put32(vec, num+1)
		idx.set(int(num), true)
	}
}

// runIndex records which runs of a class have a free slot, so that finding
// the last one does not scan every run (the bytes are the truth; the index
// is rebuilt from them when a buffer is opened or reset).
type runIndex struct {
	valid bool
	words []uint64
}

func (x *runIndex) set(i int, on bool) {
	for i/64 >= len(x.words) {
		x.words = append(x.words, 0)
	}
	if on {
		x.words[i/64] |= 1 << (i % 64)
	} else {
		x.words[i/64] &^= 1 << (i % 64)
	}
}

// last returns the highest run index with room, or -1.
func (x *runIndex) last() int {
	for w := len(x.words) - 1; w >= 0; w-- {
		if x.words[w] != 0 {
			return w*64 + 63 - bits.LeadingZeros64(x.words[w])
		}
	}
	return -1
}

// indexRuns builds the run index of class c from the run vector at vec.
// It fails the buffer and reports false if the vector leads out of the
// buffer.
func (b *Buffer) indexRuns(c int, vec uint32) bool {
	x := &b.runs[c]
	x.words = x.words[:0]
	num, data := b.get32(vec), b.get32(vec+4)
	if data < b.hdr+8 || uint64(data)+4*uint64(num) > uint64(len(b.data)) {
		b.corrupt()
		return false
	}
	for i := range num {
		run := b.get32(data + 4*i)
		if run < b.hdr+8 || run%8 != 0 || uint64(run)+uint64(runBytes[c]) > uint64(len(b.data)) {
			b.corrupt()
			return false
		}
		if b.data[run+6] != 0 {
			x.set(int(i), true)
		}
	}
	x.valid = true
	return true
}

// decodeSmall locates the run and slot of a v2 small block from its encoded
// word. ok is false when the word does not name a live slot.
func (b *Buffer) decodeSmall(p, low uint32) (run, slot uint32, ok bool) {
	c := classOf(low & 0xFF)
	if c < 0 {
		return 0, 0, false
	}
	vec := b.get32(offSmall + 4*uint32(c))
	if vec == 0 || !b.inside(vec, 8) {
		return 0, 0, false
	}
	idx, num, data := low>>8&0x3FFFF, b.get32(vec), b.get32(vec+4)
	if idx >= num || !b.inside(data, 4*num) {
		return 0, 0, false
	}
	run = b.get32(data + 4*idx)
	slot = low >> 26 & 0x1F
	if run < b.hdr+8 || slot >= runCount[c] || !b.inside(run, 8) || p != run+16+slot*(classSize[c]+8) {
		return 0, 0, false
	}
	return run, slot, b.get32(run)&(1<<slot) != 0
}

func (b *Buffer) freeBitmap(p, low uint32) {
	run, slot, ok := b.decodeSmall(p, low)
	if !ok { // freed twice, or not a slot of a run
		b.corrupt()
		return
	}
	b.zero(p, p+classSize[classOf(low&0xFF)])
	b.put32(run, b.get32(run)&^(1<<slot))
	b.data[run+6]++
	if x := &b.runs[classOf(low&0xFF)]; x.valid {
		x.set(int(low>>8&0x3FFFF), true)
	}
}

// reallocBitmap resizes a v2 small block: in place (only the size field
// changes) while the class stays the same and small blocks are allowed,
// otherwise by moving.
func (b *Buffer) reallocBitmap(p, low, n uint32, flags Flags) uint32 {
	old := low & 0xFF
	if flags&Small != 0 && classOf(n) >= 0 && classOf(n) == classOf(old) {
		if !b.inside(p, n) { // not a slot of a run: a word written after Open
			b.corrupt()
			return 0
		}
		// C++ stores the word through a signed int: the high half becomes
		// all ones (spec 2.6).
		b.putWord(p, 0xFFFFFFFF<<32|uint64(low&^0xFF|n&0xFF))
		if flags&Zero != 0 && n > old {
			clear(b.data[p+old : p+n])
		}
		b.zero(p+n, p+old) // a shrink, scrubbing
		return p
	}
	// C++ 2.1 moves a small block to another class with
	// Allocate(n, clear=false), then zeroes exactly [old, n): the new
	// block's bytes from n to its end keep what they held (spec 2.6 step 3).
	return b.moveBlock(p, old, int(n), n, flags)
}

// The v3 small-block allocator: per-class LIFO free lists (spec 8.3). A small
// block is a regular block whose length word is its class size; a free one
// keeps its length word and links to the next at data+0. The header slot of
// a class holds the data offset of the first free block.

func (b *Buffer) allocClass(c int, zero bool) uint32 {
	slotHdr := offSmall + 4*uint32(c)
	size := classSize[c]
	if head := b.get32(slotHdr); head != 0 {
		if head < b.hdr+8 || head%8 != 0 || !b.inside(head, size) || b.word(head) != uint64(size) {
			b.corrupt()
			return 0
		}
		b.put32(slotHdr, b.get32(head))
		if zero && !b.zeroed {
			clear(b.data[head : head+size])
		} else {
			b.zero(head, head+4) // the link (scrubbing)
		}
		return head
	}
	// The class is empty: carve a block (most often from the head of the
	// free list, as a payload is built); the regular path grows, reclaims
	// or fails when no free block fits.
	if blk := b.takeFirstFit(size + 8); blk != 0 {
		if zero && !b.zeroed {
			clear(b.data[blk+8 : blk+8+size])
		}
		return blk + 8
	}
	if b.failed {
		return 0
	}
	return b.allocRegular(size, zero)
}

func (b *Buffer) freeClass(p, length uint32) {
	slotHdr := offSmall + 4*uint32(classOf(length))
	if b.get32(slotHdr) == p { // freed twice in a row: it would link to itself
		b.corrupt()
		return
	}
	b.zero(p, p+length)
	b.put32(p, b.get32(slotHdr))
	b.put32(slotHdr, p)
}

// inside reports whether [off, off+n) lies inside the buffer.
func (b *Buffer) inside(off, n uint32) bool {
	return uint64(off)+uint64(n) <= uint64(len(b.data))
}

// slotOK reports whether an n-byte slot (a StringHeader, a VectorHeader)
// at off lies inside the buffer and past its header: a slot read from a
// payload continued with Open can lie anywhere, and a write through one in
// the header would overwrite the high-water mark or the free lists. A slot
// that is not OK fails the buffer (ErrCorrupt).
func (b *Buffer) slotOK(off, n uint32) bool {
	if off >= b.hdr && b.inside(off, n) {
		return true
	}
	b.corrupt()
	return false
}
