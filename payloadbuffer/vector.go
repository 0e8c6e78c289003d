package payloadbuffer

// Vectors (spec 5.4, 5.5). A vector field's slot is a VectorHeader
// {uint32 num_elements; uint32 data}: data is the offset of a block of
// contiguous elements of one size (1, 4 or 8 bytes), and the block's size is
// the capacity.

// VectorLen returns the number of elements of the vector at slot (0 if
// the slot is not inside the buffer).
func (b *Buffer) VectorLen(slot uint32) int {
	if !b.inside(slot, 8) {
		return 0
	}
	return int(b.get32(slot))
}

// VectorData returns the offset of the first element of the vector at slot
// (0 if it has no storage, or the slot is not inside the buffer).
func (b *Buffer) VectorData(slot uint32) uint32 {
	if !b.inside(slot, 8) {
		return 0
	}
	return b.get32(slot + 4)
}

// VectorCap returns how many elements of size bytes the vector at slot holds
// without growing.
func (b *Buffer) VectorCap(slot uint32, size int) int {
	if !b.inside(slot, 8) {
		return 0
	}
	data := b.get32(slot + 4)
	if data == 0 || !b.validBlock(data) {
		return 0
	}
	return int(elems(uint(b.BlockSize(data)), size))
}

// VectorPush appends one element of size bytes to the vector at slot and
// returns the new element's offset, for the caller to store the value, or 0
// if the buffer is full (the vector is then unchanged). The first push
// allocates room for two elements; a full vector doubles.
func (b *Buffer) VectorPush(slot uint32, size int) uint32 {
	if !b.slotOK(slot, 8) {
		return 0
	}
	num, data := b.get32(slot), b.get32(slot+4)
	switch {
	case data == 0 || !b.validBlock(data):
		data = b.Allocate(2*size, Zero|Small)
		if data == 0 {
			return 0
		}
		b.put32(slot+4, data)
		num = 0
	case (uint64(num)+1)*uint64(size) > uint64(b.BlockSize(data)):
		if uint64(num)*uint64(size) > uint64(b.BlockSize(data)) {
			return 0 // a corrupt header: more elements than its block holds
		}
		data = b.Realloc(data, max(2*int(num), 1)*size, Zero|Small)
		if data == 0 {
			return 0
		}
		b.put32(slot+4, data)
	}
	b.put32(slot, num+1)
	return data + num*uint32(size)
}

// VectorReserve makes room for n elements of size bytes without changing
// the length. The new room is not zeroed. It reports false if the buffer is
// full.
func (b *Buffer) VectorReserve(slot uint32, n, size int) bool {
	return b.vectorRoom(slot, n, size, Small)
}

// VectorResize sets the length of the vector at slot to n elements of size
// bytes. Elements past the old length are zero. It reports false if the
// buffer is full (the vector is then unchanged).
func (b *Buffer) VectorResize(slot uint32, n, size int) bool {
	num := int(b.get32(slot))
	if !b.vectorOK(slot, size) || !b.vectorRoom(slot, n, size, Zero|Small) {
		return false
	}
	if data := b.get32(slot + 4); n > num && data != 0 {
		clear(b.data[data+uint32(num*size) : data+uint32(n*size)])
	} else if n < num && data != 0 {
		b.zero(data+uint32(n*size), data+uint32(num*size)) // the dropped elements (scrubbing)
	}
	b.put32(slot, uint32(n))
	return true
}

func (b *Buffer) vectorRoom(slot uint32, n, size int, flags Flags) bool {
	if !b.slotOK(slot, 8) {
		return false
	}
	if n < 0 || uint64(n)*uint64(size) > b.maxAlloc() {
		b.fail()
		return false
	}
	data := b.get32(slot + 4)
	if data == 0 || !b.validBlock(data) {
		if n == 0 {
			return true
		}
		data = b.Allocate(n*size, flags)
		if data == 0 {
			return false
		}
		b.put32(slot, 0)
		b.put32(slot+4, data)
		return true
	}
	if uint64(b.BlockSize(data)) >= uint64(n)*uint64(size) { // n fits, compared without a divide
		return true
	}
	data = b.Realloc(data, n*size, flags)
	if data == 0 {
		return false
	}
	b.put32(slot+4, data)
	return true
}

// vectorOK reports whether the elements of the vector at slot (size bytes
// each) lie in its block: a header read from a payload written elsewhere
// can count more than its block holds, or point at no block. Edits refuse
// such a vector rather than move bytes outside the buffer.
func (b *Buffer) vectorOK(slot uint32, size int) bool {
	if !b.slotOK(slot, 8) {
		return false
	}
	num, data := b.get32(slot), b.get32(slot+4)
	return num == 0 || data != 0 && b.validBlock(data) && uint64(num)*uint64(size) <= uint64(b.BlockSize(data))
}

// VectorClear frees the storage of the vector at slot and empties it. It
// does not release what the elements point to.
func (b *Buffer) VectorClear(slot uint32) {
	if !b.slotOK(slot, 8) {
		return
	}
	b.Free(b.get32(slot + 4))
	b.put32(slot, 0)
	b.put32(slot+4, 0)
}

// Vectors of strings (spec 5.5): a vector of uint32 offsets, each the offset
// of a 4-byte StringHeader block that holds the string's offset.

// StringElem returns the slot (StringHeader offset) of element i of the
// string vector at slot, or 0 if the element has none.
func (b *Buffer) StringElem(slot uint32, i int) uint32 {
	if !b.inside(slot, 8) || i < 0 {
		return 0
	}
	e := uint64(b.get32(slot+4)) + 4*uint64(i)
	if e+4 > uint64(len(b.data)) {
		return 0
	}
	return b.get32(uint32(e))
}

// PushString appends s to the string vector at slot. It reports false if
// the buffer is full.
func (b *Buffer) PushString(slot uint32, s string) bool {
	return pushString(b, slot, s, -1)
}

// PushBytes is PushString for a byte slice, which may alias the buffer.
func (b *Buffer) PushBytes(slot uint32, s []byte) bool {
	return pushString(b, slot, s, b.offsetOf(s))
}

func pushString[S string | []byte](b *Buffer, slot uint32, s S, srcOff int64) bool {
	hdr := b.Allocate(4, Zero|Small)
	if hdr == 0 {
		return false
	}
	if !setString(b, hdr, s, srcOff) {
		b.Free(hdr)
		return false
	}
	e := b.VectorPush(slot, 4)
	if e == 0 {
		b.ClearString(hdr)
		b.Free(hdr)
		return false
	}
	b.put32(e, hdr)
	return true
}

// SetStringAt stores s as element i of the string vector at slot, growing
// the vector with empty elements if i is past its end.
func (b *Buffer) SetStringAt(slot uint32, i int, s string) bool {
	return setStringAt(b, slot, i, s, -1)
}

// SetBytesAt is SetStringAt for a byte slice, which may alias the buffer.
func (b *Buffer) SetBytesAt(slot uint32, i int, s []byte) bool {
	return setStringAt(b, slot, i, s, b.offsetOf(s))
}

func setStringAt[S string | []byte](b *Buffer, slot uint32, i int, s S, srcOff int64) bool {
	if i < 0 || !b.vectorOK(slot, 4) {
		return false
	}
	if i >= b.VectorLen(slot) && !b.VectorResize(slot, i+1, 4) {
		return false
	}
	e := b.VectorAt(slot, i, i+1, 4)
	if e == 0 {
		return false
	}
	hdr := b.get32(e)
	// A StringHeader block read from a payload continued with Open can be
	// anything: one that is not a block of this buffer is replaced (as
	// setString replaces a string block that is not one).
	if hdr == 0 || !b.validBlock(hdr) || b.BlockSize(hdr) < 4 {
		if hdr = b.Allocate(4, Zero|Small); hdr == 0 {
			return false
		}
		if e = b.VectorAt(slot, i, i+1, 4); e == 0 {
			return false
		}
		b.put32(e, hdr)
	}
	return setString(b, hdr, s, srcOff)
}

// ClearStrings empties the string vector at slot, freeing each string. The
// 4-byte StringHeader blocks are freed in v3; v2 leaves them allocated, as
// C++ Phaser 2.1 does, so that the bytes match.
func (b *Buffer) ClearStrings(slot uint32) {
	if !b.slotOK(slot, 8) {
		return
	}
	num, data := b.get32(slot), b.get32(slot+4)
	if data != 0 && b.validBlock(data) && uint64(num)*4 <= uint64(b.BlockSize(data)) {
		for i := range num {
			hdr := b.get32(data + 4*i)
			if hdr == 0 || !b.validBlock(hdr) {
				continue
			}
			b.ClearString(hdr)
			if b.version == V3 {
				b.Free(hdr)
			}
		}
	}
	b.VectorClear(slot)
}

// elems returns how many elements of size bytes n bytes hold. The element
// sizes of scalars (1, 4 and 8 bytes) take a shift: a 64-bit divide costs
// tens of cycles, more than the rest of a small vector store.
func elems(n uint, size int) uint {
	switch size {
	case 8:
		return n >> 3
	case 4:
		return n >> 2
	case 1:
		return n
	}
	return n / uint(size)
}
