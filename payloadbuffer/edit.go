package payloadbuffer

import "encoding/binary"

// Editing vectors in place (Phaser 3, spec 8.15): insert appends, then
// shifts; erase shifts the rest down; swap exchanges two headers.

// VectorInsert makes room for count zeroed elements of size bytes at index
// i of the vector at slot (0 <= i <= length) and returns the offset of the
// first, or 0 if i is out of range or the buffer is full (the vector is then
// unchanged).
func (b *Buffer) VectorInsert(slot uint32, i, count, size int) uint32 {
	num := b.VectorLen(slot)
	if i < 0 || i > num || count <= 0 || !b.vectorOK(slot, size) {
		return 0
	}
	// Grow by doubling, as a push does, so that repeated inserts are
	// amortized O(1) allocations.
	if b.VectorCap(slot, size) < num+count && !b.vectorRoom(slot, max(num+count, 2*num), size, Zero|Small) {
		return 0
	}
	data := b.VectorAt(slot, 0, num+count, size)
	if data == 0 {
		return 0
	}
	at, n := data+uint32(i*size), uint32(count*size)
	copy(b.data[at+n:data+uint32((num+count)*size)], b.data[at:data+uint32(num*size)])
	clear(b.data[at : at+n])
	b.put32(slot, uint32(num+count))
	return at
}

// VectorErase removes elements [i, j) of size bytes from the vector at
// slot, shifting the rest down. It reports false if the range is invalid.
// What the removed elements point to is the caller's to release first.
func (b *Buffer) VectorErase(slot uint32, i, j, size int) bool {
	num := b.VectorLen(slot)
	if i < 0 || j < i || j > num || !b.vectorOK(slot, size) {
		return false
	}
	data := b.get32(slot + 4)
	copy(b.data[data+uint32(i*size):], b.data[data+uint32(j*size):data+uint32(num*size)])
	b.zero(data+uint32((num-(j-i))*size), data+uint32(num*size)) // the vacated tail (scrubbing)
	b.put32(slot, uint32(num-(j-i)))
	return true
}

// VectorSwap exchanges the vectors whose headers are at slots a and b of
// this buffer in O(1).
func (b *Buffer) VectorSwap(a, c uint32) {
	if !b.slotOK(a, 8) || !b.slotOK(c, 8) {
		return
	}
	x, y := b.Uint64(a), b.Uint64(c)
	b.PutUint64(a, y)
	b.PutUint64(c, x)
}

// VectorAppendN adds n zeroed elements of size bytes at the end of the
// vector at slot with at most one allocation and returns the offset of the
// first, or 0 if n <= 0 or the buffer is full (the vector is then
// unchanged).
func (b *Buffer) VectorAppendN(slot uint32, n, size int) uint32 {
	num := b.VectorLen(slot)
	if n <= 0 || !b.VectorResize(slot, num+n, size) {
		return 0
	}
	return b.VectorAt(slot, num, num+n, size)
}

// VectorAppendCopy appends the elements in src (size bytes each, stored as
// src holds them) to the vector at slot with at most one allocation: what
// VectorAppendN and a copy into the new elements store, without zeroing
// them first. It reports false if the buffer is full or the vector's header
// counts more elements than its block holds (the vector is then
// unchanged). A src shorter than one element appends nothing. src is read
// after the allocation: it must not lie in the vector's own storage.
func (b *Buffer) VectorAppendCopy(slot uint32, src []byte, size int) bool {
	n := int(elems(uint(len(src)), size))
	if n == 0 {
		return true
	}
	if !b.slotOK(slot, 8) {
		return false
	}
	// The header is read and written as one word (get32 and put32 slice
	// the buffer each time).
	if binary.LittleEndian.Uint64(b.data[slot:slot+8]) == 0 {
		// An empty vector without storage (a decoder's common case): one
		// block of exactly the elements, as vectorRoom allocates it.
		if uint64(n)*uint64(size) > b.maxAlloc() {
			b.fail()
			return false
		}
		data := b.Allocate(n*size, Zero|Small)
		if data == 0 {
			return false
		}
		copy(b.data[data:data+uint32(n*size)], src)
		binary.LittleEndian.PutUint64(b.data[slot:slot+8], uint64(n)|uint64(data)<<32)
		return true
	}
	if !b.vectorOK(slot, size) {
		return false
	}
	num := int(b.get32(slot))
	if !b.vectorRoom(slot, num+n, size, Zero|Small) {
		return false
	}
	at := b.VectorAt(slot, num, num+n, size)
	if at == 0 {
		return false
	}
	copy(b.data[at:at+uint32(n*size)], src)
	b.put32(slot, uint32(num+n))
	return true
}

// VectorAssign replaces the elements of the vector at slot with those in
// src (len(src)/size elements of size bytes, as stored), as VectorResize to
// their number followed by a copy: the block is kept when it holds them,
// and the bytes are those VectorResize and the copy would leave. It reports
// false if the buffer is full (the vector is then unchanged).
func (b *Buffer) VectorAssign(slot uint32, src []byte, size int) bool {
	n := uint32(elems(uint(len(src)), size))
	// In int arithmetic (the package builds for 64-bit ints only: a sum
	// of two uint32s does not overflow one), so that the slices of the
	// payload need no pointer mask or second check; the products of a
	// count read from the payload and the element size are compared in
	// uint64 first.
	d := b.data
	if slot < b.hdr || int(slot)+8 > len(d) { // slotOK, in line
		b.corrupt()
		return false
	}
	hdr := (*[8]byte)(d[int(slot) : int(slot)+8])
	h := le64(hdr[:])
	num, data := uint32(h), uint32(h>>32)
	if n != 0 {
		// The block's bytes through one slice (BlockAt: they lie in d).
		if c, ok := b.BlockAt(data); ok && uint64(num)*uint64(size) <= uint64(c) && uint64(n)*uint64(size) <= uint64(c) {
			blk := d[int(data) : int(data)+int(c)]
			copy(blk, src[:int(n)*size])
			if n < num && b.scrub {
				clear(blk[int(n)*size : int(num)*size]) // the dropped elements
			}
			putLE32(hdr[:], n)
			return true
		}
	}
	if !b.VectorResize(slot, int(n), size) {
		return false
	}
	if n != 0 {
		data := b.VectorAt(slot, 0, int(n), size)
		if data == 0 {
			return false
		}
		copy(b.data[data:data+n*uint32(size)], src)
	}
	return true
}

// VectorAt returns the offset of element i of size bytes of the vector at
// slot, whose block must hold n elements, for a write after an allocation
// (a resize, a reserve, a new element): in a payload continued with Open a
// vector header can lie in memory the allocator holds free, and the
// allocation may have overwritten it. 0, and the buffer fails (corrupt),
// when the header no longer names a block of this buffer that holds them.
func (b *Buffer) VectorAt(slot uint32, i, n, size int) uint32 {
	if !b.inside(slot, 8) || i < 0 || i > n {
		b.corrupt()
		return 0
	}
	data := b.get32(slot + 4)
	if data == 0 || !b.validBlock(data) || uint64(n)*uint64(size) > uint64(b.BlockSize(data)) {
		b.corrupt()
		return 0
	}
	return data + uint32(i*size)
}
