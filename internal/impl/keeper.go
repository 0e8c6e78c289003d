package impl

import (
	"unsafe"

	"github.com/phaser-go/phaser/payloadbuffer"
)

// A generated Clear: keepBlocks at compile-time offsets.
//
// The generated Clear of a message that has an Assign (every field a
// singular scalar, string or bytes field, a repeated scalar, or a singular
// message of such a type) is keepBlocks (keep.go) written out for its
// type: BeginKeep checks the root as Clear and keepBlocks do, then one
// call for each step of the type's keep plan, in the plan's order
// (String, Vector, Message, Inline: each checks its block as keepIn does,
// scrubs it and sets it aside), then, when no step refused, the bodies
// are zeroed (each in one store of a compile-time size) and End records
// the blocks set aside. There is no plan to interpret, no loop and no
// frame of keepFlat's or keepIn's. A step that refuses (a block this
// buffer did not hand out, one larger than keepMax) makes the later steps
// do nothing and Kept report false, before anything is zeroed: the caller
// then calls Msg.Clear, which finds the same block and resets the buffer.
// The payload is the one Msg.Clear makes, byte for byte, and so is the
// record the setters take blocks back from (FuzzClearGenerated in
// internal/testpb/testpbphaser, FuzzClearInline in ros).

// A Keeper sets aside the blocks of the root BeginKeep began to clear:
// the payload and the root's offset, two words, which the compiler keeps
// in registers (a larger Keeper came back from BeginKeep through memory,
// and the caller's copy of it waited on that: 13% of Build/small/phaser's
// time). The steps' state is the payload's keeping. A Keeper is valid
// from the BeginKeep that returned it with true to its End, with no other
// write of the payload between them; the zero Keeper must not be used.
type Keeper struct {
	p    *Payload
	root uint32
}

// keepState is what a generated Clear's steps count: the entries they
// wrote (n), the blocks of nested messages among them (seen: nestedOK's
// mask), and whether a step refused.
type keepState struct {
	seen    uint64
	n       uint32
	refused bool
}

// BeginKeep begins the Clear of m, the root of type t whose compiled
// extent is extent, that keeps its blocks: it returns the root's bytes
// (extent of them) and a Keeper, or false for the caller to call Clear.
// The blocks a Clear kept that no field took back are freed first, as
// Clear frees them. Its checks are keepBlocks' and BeginAssign's.
func (m Msg) BeginKeep(t *Type, extent uint32) (Keeper, []byte, bool) {
	p := m.p
	if p == nil || p.nlive != 0 || p.kplanOf != t {
		return m.beginKeepSlow(t, extent)
	}
	o, mem := uint64(m.off), p.mem
	if p.kplan == nil || p.version != payloadbuffer.V3 || t.extent != extent ||
		len(mem) < payloadbuffer.FixedHeaderSize || le.Uint32(mem[4:8]) != m.off || m.off == 0 || !p.reusable(m, t) {
		return Keeper{}, nil, false
	}
	// mem[o:o+extent:o+extent], whose bounds reusable checked, without the
	// compiler's second check of them.
	p.keeping = keepState{}
	return Keeper{p, m.off}, unsafe.Slice((*byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(mem)), o)), extent), true
}

// beginKeepSlow is BeginKeep when blocks a Clear kept are still set aside
// (freed first, as the Clear frees them) or the payload's keep plan is
// another type's (looked up): then BeginKeep's common case.
//
//go:noinline
func (m Msg) beginKeepSlow(t *Type, extent uint32) (Keeper, []byte, bool) {
	if !m.readyKept(t) {
		return Keeper{}, nil, false
	}
	return m.BeginKeep(t, extent)
}

// Root returns the offset of the root BeginKeep began to clear: the base
// of the slots of its fields.
func (k Keeper) Root() uint32 { return k.root }

// String sets aside the block of the string or bytes slot at base+slot
// (base: the offset of the message holding it), as keepIn's string step.
func (k Keeper) String(base, slot uint32) {
	if !k.p.keeping.refused && base != 0 { // (0: a message that is not there)
		k.block(uint64(base)+uint64(slot), keepString, 0)
	}
}

// Vector sets aside the block of the elements of the repeated scalar
// whose vector header {num, data} is at base+slot, of elements of size
// bytes, as keepIn's vector step.
func (k Keeper) Vector(base, slot, size uint32) {
	if !k.p.keeping.refused && base != 0 {
		k.block(uint64(base)+uint64(slot), keepVector, size)
	}
}

// block is String and Vector of the slot at o: keepIn's string and vector
// step. (The generated Clear makes at most maxAssignBlocks steps, fewer
// than the entries, maxReuse: setAside's index needs no check.)
func (k Keeper) block(o uint64, kind uint8, size uint32) {
	p := k.p
	mem := p.mem
	if o+8 > uint64(len(mem)) {
		p.keeping.refused = true
		return
	}
	w := le.Uint64(mem[o : o+8 : o+8])
	s := uint64(uint32(w))
	if kind == keepVector {
		s = w >> 32
	}
	if s == 0 {
		return
	}
	if s < uint64(p.floor)+8 || s%8 != 0 || s > uint64(len(mem)) {
		p.keeping.refused = true
		return
	}
	length := uint64(le.Uint32(mem[s-8 : s-4 : s-4]))
	if length > keepMax || length < 4 || s+length > uint64(len(mem)) { // (under 4: keepIn's note)
		p.keeping.refused = true
		return
	}
	p.setAside(int(p.keeping.n), uint32(o), uint32(s), -uint32(kind), uint32(length))
	p.keeping.seen |= asideBit(uint32(s))
	p.keeping.n++
	// The scrubbing last, where a call of memclr has nothing live to
	// spill around it.
	if p.scrub {
		scrubKept(mem[s:s+length:s+length], kind, uint64(uint32(w))*uint64(size))
	}
}

// slot returns the offset of the message slot at base+slot and the word
// it holds, read as keepIn reads a step's slot (its 8 bytes in the
// memory, else the step refuses); a word of 0 is a step with nothing to
// do: an empty slot, a message that is not there (base 0), or a Clear
// whose steps refused.
func (k Keeper) slot(base, slot uint32) (uint64, uint32) {
	p := k.p
	if p.keeping.refused || base == 0 {
		return 0, 0
	}
	mem := p.mem
	o := uint64(base) + uint64(slot)
	if o+8 > uint64(len(mem)) {
		p.keeping.refused = true
		return 0, 0
	}
	return o, le.Uint32(mem[o : o+4 : o+4])
}

// Message sets aside the nested message of type t, whose compiled extent
// is extent, that the slot at base+slot holds, as keepIn's message step
// (its extent bytes in the payload: nestedOK), and returns its offset:
// the base of its own fields' steps, and of its zeroing (Memory). 0 is an
// empty slot, or a step that refused.
func (k Keeper) Message(base, slot uint32, t *Type, extent uint32) uint32 {
	o, s := k.slot(base, slot)
	if s == 0 {
		return 0
	}
	p := k.p
	if s == k.root || t.extent != extent || !p.nestedOK(s, base, t, int(p.keeping.n), p.keeping.seen) {
		p.keeping.refused = true
		return 0
	}
	p.setAside(int(p.keeping.n), uint32(o), s, t.id, t.extent)
	p.keeping.seen |= asideBit(s)
	p.keeping.n++
	return s
}

// Inline returns the offset of the inline message of type t (ROS
// frontend, format 3) at base+slot in its holder, whose compiled extent is
// holder, when it is present (its table word set), as keepIn's inline
// step: the base of its own fields' steps. extent is the inline message's
// compiled extent. It sets nothing aside (the holder's zeroing clears it).
// 0 is an absent message, or a step that refused: a layout other than the
// one the generated code was compiled for (the inline layout of a type of
// the protobuf frontend is the one its first Mutable looked up, as for
// Assigner.Inline), or a payload that does not trust what it wrote for t.
func (k Keeper) Inline(base, slot uint32, t *Type, extent, holder uint32) uint32 {
	o, w := k.slot(base, slot)
	if w == 0 {
		return 0
	}
	p := k.p
	if t.frontend != ROSFrontend {
		t = t.inlined.Load()
	}
	if t == nil || t.extent != extent || p.trust&t.trust == 0 || o+uint64(extent) > uint64(base)+uint64(holder) {
		p.keeping.refused = true
		return 0
	}
	return uint32(o)
}

// Kept reports whether every step so far set its block aside or found
// its slot empty: the bodies may be zeroed, and End called.
func (k Keeper) Kept() bool { return !k.p.keeping.refused }

// Memory returns the payload's memory, in which the generated Clear
// zeroes the fields of each nested message Message returned (at a
// compile-time size, its table word kept, as keepIn zeroes it): Message
// checked that they lie in it, and the steps allocate nothing.
func (k Keeper) Memory() []byte { return k.p.mem }

// End records the blocks the steps set aside, for the setters to take
// back (recordAside), once Kept reported true: the Clear is done.
func (k Keeper) End() { k.p.recordAside(int(k.p.keeping.n)) }
