package payloadbuffer

import (
	"encoding/binary"
	"unsafe"
)

// Strings and bytes (spec 5.2). A string field's slot is a uint32
// StringHeader: the data offset of a string block, or 0 when absent. The
// block holds [uint32 length][bytes], with no terminator.

// maxString is the longest string a 32-bit length word can describe.
const maxString = 1<<32 - 1 - 64

// StringFlags returns the allocation flags of a string block, as SetString
// allocates one: C++ 2.1 zeroes string blocks and keeps them out of small
// blocks; Phaser 3 does neither (its blocks are small ones their bytes
// overwrite). A caller that writes a new string block itself allocates it
// with these, so that its bytes are SetString's.
func (b *Buffer) StringFlags() Flags {
	if b.version == V3 {
		return Small | Overwrite
	}
	return Zero
}

// StringAt returns the bytes of the string whose StringHeader is at slot
// (nil if absent, or if the header or the string does not lie in the
// buffer). The slice aliases the buffer.
func (b *Buffer) StringAt(slot uint32) []byte {
	if !b.inside(slot, 4) {
		return nil
	}
	s := b.get32(slot)
	if s == 0 || !b.inside(s, 4) {
		return nil
	}
	n := b.get32(s)
	if uint64(s)+4+uint64(n) > uint64(len(b.data)) {
		return nil
	}
	return b.data[s+4 : s+4+n : s+4+n]
}

// SetString stores s as the string whose StringHeader is at slot, replacing
// the string there (its block is resized in place when possible). It reports
// false if the buffer is full; the old string is then unchanged.
func (b *Buffer) SetString(slot uint32, s string) bool {
	return setString(b, slot, s, -1)
}

// SetBytes is SetString for a byte slice. s may alias the buffer itself,
// even the string being replaced, and is copied correctly when the buffer
// grows or the block moves.
func (b *Buffer) SetBytes(slot uint32, s []byte) bool {
	return setString(b, slot, s, b.offsetOf(s))
}

// RefillString is SetString's in-place refill for the common case, a
// leaf function (no call, so no frame and no spills), for a setter to try
// first: a v3 buffer that has not failed, a slot holding a block large
// enough for s, s at most maxShort bytes, and, when scrubbing, an old
// string no longer than maxShort bytes (whose longer tail it zeroes, as
// SetString does). It writes the length and the bytes in place and
// reports true; the buffer's memory is then the same
// slice (it neither grew nor moved). False leaves the buffer as it was,
// for SetString to do the rest (it makes every check SetString's in-place
// path makes).
func (b *Buffer) RefillString(slot uint32, s string) bool {
	d := b.data
	so, n := uint64(slot), uint64(len(s))
	if so < uint64(b.hdr) || so+4 > uint64(len(d)) || n > maxShort || b.failed || b.version != V3 || b.noInPlace {
		return false
	}
	old := uint64(le.Uint32(d[so : so+4 : so+4]))
	if old < uint64(b.hdr)+8 || old&7 != 0 || old > uint64(len(d)) { // (0: no string)
		return false
	}
	length := uint64(uint32(le.Uint64(d[old-8 : old : old]))) // the low word of the length word (validBlock)
	if old+length > uint64(len(d)) || align8(n+4) > length || old+4+maxShort > uint64(cap(d)) {
		return false
	}
	// A window of constant length on the length word and the bytes, so
	// that the stores in it need no checks (n <= maxShort) and its pointer
	// no mask. It may run on past the block, and past the buffer's length
	// into its capacity (a block at the end: 4+maxShort <= cap is all it
	// takes): only its first 4+n bytes, which lie in the block (4+n <=
	// length), are written.
	w := d[old : old+4+maxShort : old+4+maxShort]
	if oldN := uint64(le.Uint32(w[:4])); b.scrub && oldN > n {
		// Zero the old string's longer tail, [4+n, 4+oldN), when it lies
		// in the window and the block (else setString's path, which clamps
		// it to the block), in overlapping words as the bytes below.
		if oldN > maxShort || 4+oldN > length {
			return false
		}
		a, e := 4+n, 4+oldN
		switch k := oldN - n; {
		case k >= 16:
			le.PutUint64(w[a:a+8], 0)
			le.PutUint64(w[a+8:a+16], 0)
			le.PutUint64(w[e-16:e-8], 0)
			le.PutUint64(w[e-8:e], 0)
		case k >= 8:
			le.PutUint64(w[a:a+8], 0)
			le.PutUint64(w[e-8:e], 0)
		case k >= 4:
			le.PutUint32(w[a:a+4], 0)
			le.PutUint32(w[e-4:e], 0)
		default:
			w[a], w[a+k/2], w[e-1] = 0, 0, 0
		}
	}
	// Overlapping words, all read before any is written.
	switch {
	case n >= 16:
		w0, w1, w2, w3 := str64(s[:8]), str64(s[8:16]), str64(s[n-16:]), str64(s[n-8:])
		le.PutUint64(w[4:12], w0)
		le.PutUint64(w[12:20], w1)
		le.PutUint64(w[n-12:n-4], w2)
		le.PutUint64(w[n-4:n+4], w3)
	case n >= 8:
		w0, w1 := str64(s[:8]), str64(s[n-8:])
		le.PutUint64(w[4:12], w0)
		le.PutUint64(w[n-4:n+4], w1)
	case n >= 4:
		w0, w1 := str32(s[:4]), str32(s[n-4:])
		le.PutUint32(w[4:8], w0)
		le.PutUint32(w[n:n+4], w1)
	case n > 0:
		c0, c1, c2 := s[0], s[n/2], s[n-1]
		w[4], w[4+n/2], w[3+n] = c0, c1, c2
	}
	le.PutUint32(w[:4], uint32(n))
	return true
}

// maxShort is the longest string RefillString writes: four words.
const maxShort = 32

// str64 returns the little-endian word of s's first 8 bytes (one load).
func str64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// str32 returns the little-endian word of s's first 4 bytes (one load).
func str32(s string) uint32 {
	_ = s[3]
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}

// le is the byte order of a payload.
var le = binary.LittleEndian

// offsetOf returns the buffer offset of s if s lies entirely inside the
// buffer's memory, else -1. A slice that only starts inside (it runs on into
// memory past the buffer's length) is copied as an outside source.
func (b *Buffer) offsetOf(s []byte) int64 {
	if len(s) == 0 || len(b.data) == 0 {
		return -1
	}
	base := uintptr(unsafe.Pointer(unsafe.SliceData(b.data)))
	p := uintptr(unsafe.Pointer(unsafe.SliceData(s)))
	if p < base || p-base >= uintptr(len(b.data)) || uintptr(len(s)) > uintptr(len(b.data))-(p-base) {
		return -1
	}
	return int64(p - base)
}

func setString[S string | []byte](b *Buffer, slot uint32, s S, srcOff int64) bool {
	d := b.data
	// The common cases first: an empty slot (a message built after a
	// Clear) takes a new block; in a refill, v3 keeps a block that is large
	// enough (realloc never shrinks one), so the bytes and the length are
	// written where they are and, when scrubbing, the old string's longer
	// tail is zeroed, as replaceString's general path leaves them. The
	// slot's and the block's checks (slotOK, validBlock) are made here on
	// uint64 offsets, each word read through a slice of constant length,
	// and the stores go through one slice of the block, so that they need
	// no checks of their own. OverwriteBytes does the same for a block;
	// one helper for both does not inline, and its call cost a refill ~27
	// instructions a string (callgrind, Build/small refill 507 -> 562).
	if so := uint64(slot); so >= uint64(b.hdr) && so+4 <= uint64(len(d)) && srcOff < 0 && !b.failed && b.version == V3 && !b.noInPlace {
		old := uint64(le32(d[so : so+4 : so+4]))
		n := uint64(len(s))
		if old == 0 && n <= maxString { // the slot of a cleared message
			return newString(b, uint32(so), s, srcOff)
		}
		if old >= uint64(b.hdr)+8 && old&7 == 0 && old <= uint64(len(d)) && n <= maxString {
			length := uint64(le32(d[old-8 : old-4 : old-4])) // the low word of the length word
			if old+length <= uint64(len(d)) && align8(n+4) <= length {
				blk := d[old : old+length : old+length]
				oldN := uint64(le32(blk[:4]))
				putLE32(blk[:4], uint32(n))
				copy(blk[4:], s) // n bytes: 4+n <= length
				if b.scrub && oldN > n {
					clear(blk[4+n : min(4+oldN, length)])
				}
				return true
			}
		}
	}
	if b.failed || slot < b.hdr || uint64(slot)+4 > uint64(len(d)) { // slotOK, in line
		if !b.failed {
			b.corrupt()
		}
		return false // every allocation fails; keep the old string
	}
	if uint64(len(s)) > maxString {
		b.fail()
		return false
	}
	old := le32(d[slot:])
	if old != 0 && !b.validBlock(old) {
		old = 0 // not a block of this buffer: leave it, write a new one
	}
	if old == 0 {
		return newString(b, slot, s, srcOff)
	}
	return replaceString(b, slot, old, s, srcOff)
}

// newString is setString when the slot holds no string: s (at most
// maxString bytes) in a new block. slot is a checked slot of b.
func newString[S string | []byte](b *Buffer, slot uint32, s S, srcOff int64) bool {
	n := uint32(len(s))
	p := b.Allocate(int(n)+4, b.StringFlags())
	if p == 0 {
		return false
	}
	d := b.data // (an owned buffer may have grown)
	blk := d[p : uint64(p)+4+uint64(n)]
	putLE32(blk, n)
	if srcOff >= 0 {
		copy(blk[4:], d[srcOff:])
	} else {
		copy(blk[4:], s)
	}
	putLE32(d[slot:], p)
	return true
}

// OverwriteBytes writes s over the string in the block old (the data
// offset of a string block of this buffer, which a slot held) where it
// is, when the block is large enough, and reports whether it did; false
// leaves the block as it was. s must not lie in the buffer. It is
// SetBytes's replacement in place, for a caller that holds the block
// rather than its slot (a decoder that set the block aside).
func (b *Buffer) OverwriteBytes(old uint32, s []byte) bool {
	// setString's in-place path, for a block rather than a slot, in int
	// arithmetic: o+length and o+4+n fit an int.
	d, o, n := b.data, int(old), len(s)
	if b.version != V3 || b.failed || b.noInPlace || old < b.hdr+8 || old%8 != 0 || o > len(d) || n > 1<<31 {
		return false
	}
	length := int(le32(d[o-8 : o-4])) // the low word of the length word (validBlock)
	if o+length > len(d) || (n+4+7)&^7 > length {
		return false
	}
	// The string's length word and bytes lie in the block: n+4 <= length.
	// Slices of constant length (no pointer mask), and the copy last, so
	// that nothing is live across a call (the tail to scrub, past the new
	// string, is disjoint from it).
	oldN := int(le32(d[o : o+4]))
	putLE32(d[o:o+4], uint32(n))
	if b.scrub && oldN > n {
		clear(d[o+4+n : o+min(4+oldN, length)])
	}
	if n >= 8 && n <= 16 {
		// A string of 8 to 16 bytes (a decoded name, an id) in two
		// overlapping words, both read before either is written: fewer
		// instructions than memmove's, and no call.
		head, tail := le64(s[:8]), le64(s[n-8:n])
		putLE64(d[o+4:o+12], head)
		putLE64(d[o+n-4:o+n+4], tail)
	} else {
		copy(d[o+4:o+4+n], s)
	}
	return true
}

// OverwriteString is OverwriteBytes for a string (whose bytes it only
// reads).
func (b *Buffer) OverwriteString(old uint32, s string) bool {
	return b.OverwriteBytes(old, unsafe.Slice(unsafe.StringData(s), len(s)))
}

// replaceString is setString when the slot holds the string block old.
func replaceString[S string | []byte](b *Buffer, slot, old uint32, s S, srcOff int64) bool {
	n := uint32(len(s))
	oldCap := b.BlockSize(old)
	if b.scrub && b.inside(old, 4) {
		defer b.scrubTail(slot, old, b.get32(old))
	}
	// A source inside the block being replaced moves with the block.
	inOld := srcOff >= int64(old) && srcOff < int64(old)+int64(oldCap)
	if inOld && n+4 <= oldCap && !b.encodedSmall(old) {
		// Move the bytes down first: shrinking writes a free header past
		// the new end, possibly over the source.
		copy(b.data[old+4:old+4+n], b.data[srcOff:])
		b.put32(old, n)
		b.put32(slot, b.Realloc(old, int(n)+4, b.StringFlags()))
		return true
	}
	if inOld && srcOff+int64(n) > int64(old)+int64(oldCap) {
		// The source starts in the string being replaced and runs on past
		// its block: when the block moves only part of it moves along.
		// Copy it out first (a rare, allocating path).
		tmp := append([]byte(nil), b.data[srcOff:srcOff+int64(n)]...)
		return setString(b, slot, tmp, -1)
	}
	p := b.Realloc(old, int(n)+4, b.StringFlags())
	if p == 0 {
		return false
	}
	switch {
	case inOld:
		src := int64(p) + srcOff - int64(old)
		copy(b.data[p+4:p+4+n], b.data[src:])
	case srcOff >= 0:
		copy(b.data[p+4:p+4+n], b.data[srcOff:])
	default:
		copy(b.data[p+4:p+4+n], s)
	}
	b.put32(p, n)
	b.put32(slot, p)
	return true
}

// AllocateString makes the string whose StringHeader is at slot n bytes
// long without filling it (C++ allocate_x), and returns the offset of its
// first byte, or 0 if the buffer is full. flags choose zero-filling and
// small blocks, as the C++ call site does.
func (b *Buffer) AllocateString(slot uint32, n int, flags Flags) uint32 {
	if n < 0 || uint64(n) > maxString {
		b.fail()
		return 0
	}
	if !b.slotOK(slot, 4) {
		return 0
	}
	var p uint32
	if old := b.get32(slot); old != 0 && b.validBlock(old) {
		if b.scrub && b.inside(old, 4) {
			defer b.scrubTail(slot, old, b.get32(old))
		}
		p = b.Realloc(old, n+4, flags)
	} else {
		p = b.Allocate(n+4, flags)
	}
	if p == 0 {
		return 0
	}
	b.put32(p, uint32(n))
	b.put32(slot, p)
	return p + 4
}

// ClearString frees the string whose StringHeader is at slot and marks it
// absent.
func (b *Buffer) ClearString(slot uint32) {
	if !b.slotOK(slot, 4) {
		return // a StringHeader offset read from a hostile payload
	}
	if s := b.get32(slot); s != 0 {
		b.Free(s)
		b.put32(slot, 0)
	}
}

// scrubTail zeroes, when the string whose StringHeader is at slot stayed in
// its block old, the bytes its old value of oldN bytes used past the new
// one's end (scrubbing).
func (b *Buffer) scrubTail(slot, old, oldN uint32) {
	if b.get32(slot) != old {
		return // moved: the old block was freed, and zeroed
	}
	end := uint64(old) + uint64(b.BlockSize(old))
	from := min(uint64(old)+4+uint64(b.get32(old)), end)
	to := min(uint64(old)+4+uint64(oldN), end)
	b.zero(uint32(from), uint32(to))
}
