package impl

import (
	"sync/atomic"

	"github.com/phaser-go/phaser/payloadbuffer"
)

// A decoding that reuses the blocks of the message it replaces.
//
// An UnmarshalProto into the root of a payload this process created
// replaces the root's content: Clear, then the decoding. When the root's
// type holds only singular scalars, strings and bytes, and messages of
// such types (a flat message: only singular scalars), a decoding into a
// root that holds what such a type can hold need not reset the buffer:
// BeginReuse zeroes the root's fields and those of its nested messages
// and sets their blocks aside, keyed by the slot that held them, as if
// Clear had freed them. A string stored into an empty slot (storeBytes)
// or a message created in one (mutableAt) takes the block set aside for
// that slot back, the string written over it in place when it fits; the
// blocks no field took back are freed when the decoding ends (EndReuse).
// What the payload then holds is what Clear and the decoding leave, in
// other blocks: the same message, with the same bytes on the wire.
//
// The preconditions keep it to payloads whose every byte this process
// wrote and checked: format 3, the root's compiled layout, no error
// recorded, no unknown fields, each nested message's table trusted. Any
// other payload is cleared as before.
//
// The record of the blocks set aside (reuseSlot, reuseBlock, reuseKind) is
// shared with the buffer (payloadbuffer's SetAside), which frees the
// blocks and zeroes their entries when an allocation finds no room; a
// Clear that keeps its root's blocks (keep.go) fills the same record, and
// its entries outlive the Clear until a setter takes them back.

// maxReuse bounds the blocks one decoding or Clear sets aside (a power
// of two).
const maxReuse = 16

// reusePlan is what BeginReuse needs of a type: the slots of its strings
// and bytes, and those of its singular messages with their types (flat
// ones). It is nil for a type whose decodings are not done this way.
type reusePlan struct {
	strings []uint32
	msgs    []reuseMsg
}

type reuseMsg struct {
	slot uint32
	t    *Type
}

// reusePlanOf returns t's plan, computed once (nil: not reusable).
func reusePlanOf(t *Type) *reusePlan {
	if v := t.plans[ReusePlan].Load(); v != nil {
		rp, _ := (*v).(*reusePlan)
		return rp
	}
	rp := makeReusePlan(t)
	v := t.StorePlan(ReusePlan, rp)
	rp, _ = v.(*reusePlan)
	return rp
}

// makeReusePlan returns t's plan, or nil if a field of t is one BeginReuse
// does not handle.
func makeReusePlan(t *Type) *reusePlan {
	if !flatOrStrings(t) {
		return nil
	}
	rp := &reusePlan{}
	for _, f := range t.fields {
		switch f.Kind {
		case String, Bytes:
			rp.strings = append(rp.strings, f.Offset)
		case Message:
			if f.Type == nil || !flatOrStrings(f.Type) || hasKind(f.Type, String, Bytes, Message) {
				return nil
			}
			rp.msgs = append(rp.msgs, reuseMsg{f.Offset, f.Type})
		}
	}
	if len(rp.strings)+len(rp.msgs) > maxReuse {
		return nil
	}
	return rp
}

// flatOrStrings reports whether every field of t is singular, outside any
// oneof, not inline, and t declares no extension ranges and is not Any.
func flatOrStrings(t *Type) bool {
	if t.isAny || t.desc == nil || t.desc.ExtensionRanges().Len() > 0 || t.desc.IsMapEntry() || len(t.unions) > 0 {
		return false
	}
	for _, f := range t.fields {
		if f.Repeated || f.Union != nil || f.Inline() || f.Fixed != 0 {
			return false
		}
	}
	return true
}

// hasKind reports whether a field of t has one of kinds.
func hasKind(t *Type, kinds ...Kind) bool {
	for _, f := range t.fields {
		for _, k := range kinds {
			if f.Kind == k {
				return true
			}
		}
	}
	return false
}

// isRoot reports whether m is the root of p's buffer (the message its
// header names) and of type t: the message whose Clear keeps or frees the
// blocks a Clear set aside (Clear), and so the only one whose Assign or
// reusing decoding frees them first (beginAssignSlow, BeginReuse).
func (p *Payload) isRoot(m Msg, t *Type) bool {
	b := p.buf
	return b != nil && m.off != 0 && p.root == t && m.off == b.Message()
}

// reusable reports whether the blocks of m, the root of type t, can be set
// aside: a root this process created, of t's compiled layout, in a buffer
// that has not failed, with no error recorded and no unknown fields.
// m must be the root of p's buffer (isRoot: the callers check it).
func (p *Payload) reusable(m Msg, t *Type) bool {
	b := p.buf
	return p.root == t && m.acc == compiledWrite && p.err == nil && !p.lost && atomic.LoadUint64(&p.unk) == unknownKnown &&
		b != nil && !b.Failed() && uint64(m.off)+uint64(t.extent) <= uint64(len(p.mem)) && t.extent >= 4
}

// BeginReuse prepares a decoding into m, the root of type t, that reuses
// its blocks (see above), and reports whether it did; false leaves m as
// it is, for the caller to Clear.
func (m Msg) BeginReuse(t *Type) bool {
	p := m.p
	if p == nil {
		return false
	}
	rp := p.rplan
	if p.rplanOf != t {
		rp = p.planReuse(t)
	}
	if rp == nil {
		return false
	}
	// The blocks a Clear kept that no field took back are freed as the
	// Clear frees them: in the root's (isRoot).
	if !p.isRoot(m, t) {
		return false
	}
	if p.nlive != 0 {
		p.EndReuse()
	}
	if !p.reusable(m, t) {
		return false
	}
	mem := p.mem
	o := uint64(m.off)
	body := mem[o : o+uint64(t.extent)]
	n := 0
	for _, slot := range rp.strings {
		if s := le.Uint32(body[slot:]); s != 0 {
			length, ok := p.blockLength(uint64(s))
			if !ok {
				return false // not a block this buffer handed out: the caller clears m
			}
			p.setAside(n, m.off+slot, s, entryString, uint32(length))
			n++
		}
	}
	// A check that fails part way leaves nested messages zeroed and the
	// entries written but not counted: the caller clears m, which frees
	// them anyway.
	for _, f := range rp.msgs {
		s := le.Uint32(body[f.slot:])
		if s == 0 {
			continue
		}
		if !p.nestedOK(s, m.off, f.t, n, ^uint64(0)) {
			return false
		}
		clear(mem[uint64(s)+4 : uint64(s)+uint64(f.t.extent)])
		p.setAside(n, m.off+f.slot, s, f.t.id, f.t.extent)
		n++
	}
	clear(body[4:])
	p.recordAside(n)
	return true
}

// setAside writes entry n of the blocks set aside: block, which slot held,
// of kind kind: entryString, entryVector (a vector's elements) or the id
// of a message's type, and the length word of a string's or vector's
// block (blockLength's: the take-back trusts it).
func (p *Payload) setAside(n int, slot, block, kind, length uint32) {
	n &= maxReuse - 1
	p.reuseSlot[n], p.reuseBlock[n], p.reuseKind[n], p.reuseLen[n] = slot, block, kind, length
}

// blockLength returns the length word of the block at s, a string's or a
// vector's, and false for an s that is not a block's start inside p's
// allocations or a block that does not fit in the memory.
func (p *Payload) blockLength(s uint64) (uint64, bool) {
	mem := p.mem
	if s < uint64(p.floor)+8 || s%8 != 0 || s > uint64(len(mem)) {
		return 0, false
	}
	length := uint64(le.Uint32(mem[s-8 : s-4 : s-4]))
	return length, s+length <= uint64(len(mem))
}

// The kinds of the entries set aside that are not messages (a Type's id
// is neither).
const (
	entryString = 0
	entryVector = 1<<32 - 1
)

// recordAside makes the first n entries the blocks set aside, shared with
// the buffer (payloadbuffer's SetAside).
func (p *Payload) recordAside(n int) {
	p.buf.SetAside(p.reuseBlock[:n])
	p.nreuse, p.nlive, p.rnext = uint8(n), uint8(n), 0
}

// nestedOK reports whether s, which a slot of the message at parent holds,
// is a message of type t this process wrote, not one of the first n
// entries set aside. seen has bit asideBit(b) set for each block b of
// those entries (all ones: look at every entry).
func (p *Payload) nestedOK(s, parent uint32, t *Type, n int, seen uint64) bool {
	e := t.extent
	if s < p.floor || s == parent || uint64(s)+uint64(e) > uint64(len(p.mem)) || e < 4 || p.trust&t.trust == 0 {
		return false
	}
	if seen&asideBit(s) == 0 {
		return true
	}
	for _, r := range p.reuseBlock[:n] { // two slots of one block: a payload no decoding wrote
		if r == s {
			return false
		}
	}
	return true
}

// asideBit is block b's bit in the mask of blocks set aside that nestedOK
// tests before it looks through the entries (blocks are 8-aligned).
func asideBit(b uint32) uint64 { return 1 << (b >> 3 & 63) }

// planReuse returns t's reuse plan for p's format (nil: none), and keeps it
// for the next decoding.
func (p *Payload) planReuse(t *Type) *reusePlan {
	var rp *reusePlan
	if p.version == payloadbuffer.V3 {
		rp = reusePlanOf(t)
	}
	p.rplanOf, p.rplan = t, rp
	return rp
}

// takeReuse returns the block of kind kind (see setAside) set aside from
// slot (0 if none: never set aside, taken back, freed by an allocation that
// found no room, or of another kind), and forgets it. A fill takes the
// blocks back in about the order they were set aside: it looks after the
// entry it took last first.
func (p *Payload) takeReuse(slot, kind uint32) uint32 {
	i := int(p.rnext) & (maxReuse - 1)
	if p.reuseSlot[i] != slot || i >= int(p.nreuse) {
		if i = p.findReuse(slot); i < 0 {
			return 0
		}
	}
	s := p.reuseBlock[i]
	if p.reuseKind[i] != kind {
		return 0 // (a slot of a block freed and reused: it stays set aside)
	}
	p.reuseSlot[i], p.reuseBlock[i] = 0, 0 // (took, written out, as is the look-up: reuseIndex's two results cost a few instructions)
	p.nlive--
	p.rnext = uint8(i + 1)
	return s
}

// nextAside returns the entry after the one taken back last and whether
// it is the one set aside from slot: the common case of a take-back, since
// the setters that fill a cleared message take its blocks back in the
// order the Clear set them aside.
func (p *Payload) nextAside(slot uint32) (uint, bool) {
	i := uint(p.rnext) & (maxReuse - 1)
	return i, p.reuseSlot[i] == slot && i < uint(p.nreuse)
}

// took forgets entry i, taken back.
func (p *Payload) took(i uint) {
	i &= maxReuse - 1
	p.reuseSlot[i], p.reuseBlock[i] = 0, 0
	p.nlive--
	p.rnext = uint8(i + 1)
}

// findReuse returns the index of the entry set aside from slot, or -1.
func (p *Payload) findReuse(slot uint32) int {
	for i := range min(int(p.nreuse), maxReuse) {
		if p.reuseSlot[i] == slot {
			return i
		}
	}
	return -1
}

// EndReuse frees the blocks of a decoding's BeginReuse (or a Clear's
// keepBlocks) that no field took back.
func (p *Payload) EndReuse() {
	if p.nlive != 0 {
		p.buf.FreeAside()
	}
	p.nreuse, p.nlive = 0, 0
}

// EndReuse ends a decoding into m that BeginReuse began (EndReuse of m's
// payload).
func (m Msg) EndReuse() {
	if m.p != nil {
		m.p.EndReuse()
	}
}

// DecoderReusing returns the state of a decoding into m, the root of type
// t, that reuses m's blocks (BeginReuse), or false: the caller then clears
// m and takes Decoder's.
func DecoderReusing(m Msg, t *Type) (Wire, bool) {
	if !m.BeginReuse(t) {
		return Wire{}, false
	}
	return Wire{reused: true}, true // BeginReuse: no unknown-field index
}

// EndReuse ends a decoding that DecoderReusing began, if w is one: it
// frees the blocks no field took back and reports, in Again, a decoding
// that filled the buffer (a payload whose Clear would have left room),
// which the caller does again, with m cleared.
func (w *Wire) EndReuse(m Msg) {
	if !w.reused {
		return
	}
	w.reused = false
	if m.p == nil {
		return
	}
	m.p.EndReuse()
	w.again = m.p.Failed()
}

// Again reports whether the decoding w ended (EndReuse) must be done
// again, into a cleared message.
func (w *Wire) Again() bool { return w.again }
