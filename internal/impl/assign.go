package impl

import (
	"unsafe"

	"github.com/phaser-go/phaser/payloadbuffer"
)

// Assign: a Clear and a fill of every field in one straight line.
//
// The generated Assign of a message whose fields are singular scalars,
// strings and bytes (no nested, repeated or oneof field) is Clear, then
// every field's setter. On a format-3 root whose Clear keeps its blocks
// (keep.go), that is: each string's block set aside, the body zeroed, each
// string written back over its own block, the scalars stored. When every
// string fits its block, the generated code does exactly that, at its
// compile-time offsets, without the record of the blocks set aside in
// between (which only a fill by separate setters needs): BeginAssign checks
// the root as the Clear does, Kept checks each string's block as the Clear
// does and that the new string fits it as the setter would, and Put writes
// it. Anything else (a string that outgrows its block or is
// empty, bytes that lie in the payload, a payload whose Clear would not
// keep its blocks) is the Clear and the setters, decided before anything
// is written. The payload is the same, byte for byte (FuzzAssign in
// internal/testpb/testpbphaser).

// An Assigner writes the strings of an Assign that BeginAssign began, in
// the root at root whose compiled fields end at end.
type Assigner struct {
	p         *Payload
	root, end uint32
}

// BeginAssign begins the Assign of m, the root of type t whose compiled
// extent is extent: it returns the root's bytes (extent of them) and an
// Assigner, or false for the caller to Clear m and call the setters. The
// blocks a Clear kept that no field took back are freed first, as the
// Clear frees them.
func (m Msg) BeginAssign(t *Type, extent uint32) (Assigner, []byte, bool) {
	p := m.p
	if p == nil || p.buf == nil || p.version != payloadbuffer.V3 || t.extent != extent || m.off != p.buf.Message() {
		return Assigner{}, nil, false
	}
	if p.nlive != 0 {
		p.EndReuse()
	}
	if kp := p.keepPlan(t); kp == nil || !kp.flat || !p.reusable(m, t) {
		return Assigner{}, nil, false
	}
	o := uint64(m.off)
	return Assigner{p, m.off, m.off + extent}, p.mem[o : o+uint64(extent) : o+uint64(extent)], true
}

// A KeptBlock is a string block Kept checked: its offset and its length
// word.
type KeptBlock struct{ Off, Size uint32 }

// Kept returns the block the string slot holds (the slot's 4 bytes, in the
// root BeginAssign returned) and false unless it is a block the Clear keeps
// (keepFlat's checks) that a string of n bytes fits, as the setter would
// write it over the block (overwriteAside's): n > 0, n+4 rounded up to 8
// within the block's length. A block that overlaps the root (a payload
// written behind the handle) is refused too: the Clear and the setters,
// which write the root and the block in another order, then decide what
// the payload holds. Two blocks must not overlap either, their length
// words included: two string slots of a payload this process wrote never
// share a block, and the generated code compares each pair (b.Off+b.Size
// <= c.Off-8 or the reverse), leaving a payload whose blocks overlap to the
// Clear and the setters.
func (a Assigner) Kept(slot []byte, n int) (KeptBlock, bool) {
	if len(slot) < 4 || a.p == nil {
		return KeptBlock{}, false
	}
	s := uint64(le.Uint32(slot[:4]))
	length, ok := a.p.blockLength(s)
	if !ok || length > keepMax || n <= 0 || (uint64(n)+4+7)&^7 > length ||
		s+length > uint64(a.root) && s-8 < uint64(a.end) {
		return KeptBlock{}, false
	}
	return KeptBlock{uint32(s), uint32(length)}, true
}

// KeptBytes is Kept for bytes v, which must not lie in the payload (the
// setter copies those into a new block).
func (a Assigner) KeptBytes(slot, v []byte) (KeptBlock, bool) {
	if a.p == nil || overlaps(a.p.mem[:cap(a.p.mem)], v) {
		return KeptBlock{}, false
	}
	return a.Kept(slot, len(v))
}

// Put writes s over block b (Kept's), as the setter after the Clear leaves
// it: its length and bytes, and in a scrubbing buffer zeroes past them what
// is left of the string the block held.
func (a Assigner) Put(b KeptBlock, str string) {
	s := unsafe.Slice(unsafe.StringData(str), len(str))
	mem := a.p.mem
	o, length, n := uint64(b.Off), uint64(b.Size), uint64(len(s))
	if o+length > uint64(len(mem)) || n+4 > length {
		return // (not Kept's: nothing to write)
	}
	blk := mem[o : o+length : o+length]
	old := uint64(le.Uint32(blk[:4]))
	le.PutUint32(blk[:4], uint32(n))
	if n >= 8 && n <= 16 { // two overlapping words, as overwriteAside
		head, tail := le.Uint64(s[:8]), le.Uint64(s[n-8:n])
		le.PutUint64(blk[4:12], head)
		le.PutUint64(blk[n-4:n+4], tail)
	} else {
		copy(blk[4:4+n], s)
	}
	if a.p.scrub && old > n {
		clear(blk[4+n : min(4+old, length)])
	}
}

// PutBytes is Put for bytes.
func (a Assigner) PutBytes(b KeptBlock, s []byte) {
	a.Put(b, unsafe.String(unsafe.SliceData(s), len(s)))
}
