package impl

import "github.com/phaser-go/phaser/payloadbuffer"

// A Clear that keeps the root's blocks for the next fill.
//
// A publisher clears its message and fills it again with the same shape,
// once per send. Clear of a format-3 root this process created resets the
// buffer to the root's creation image (payload.go), after which every
// string, nested message and vector of the fill is allocated again. When
// the root's type holds only singular fields, nested messages of such
// types and repeated scalars (no oneofs, maps, repeated strings or
// messages, Any or inline messages), the Clear instead sets their blocks
// aside (as a decoding's BeginReuse does, reuse.go): the slots are zeroed,
// so that every field reads absent, and each block is recorded under the
// slot that held it. The setters that fill an empty slot take its block
// back: a string is written over its old block when it fits
// (setStringAside), a nested message comes back zeroed (mutableAt), a
// vector's elements go into its old storage (assignAside). Blocks no field
// took back are freed by the next Clear or decoding of the root, or by the
// buffer itself when an allocation finds no room (payloadbuffer's
// SetAside): a fill never fails that a Clear which freed them would let
// through. A scrubbing buffer's set-aside strings and elements are zeroed
// at the Clear, so that Bytes never carries what the program cleared.

// vectorEntry is the kind of an entry set aside that holds a vector's
// elements (see setAside).
var vectorEntry = new(Type)

// A keepPlan is what keepBlocks needs of a type: the slots of its strings,
// of its repeated scalars (with the element size) and of its singular
// messages with their plans. (A fixed array, phaser.array_size, is stored
// as a repeated field of at most its size, and clears as one.)
type keepPlan struct {
	strings []uint32
	vectors []keepVector
	msgs    []keepMsg
}

type keepVector struct {
	slot, size uint32
}

type keepMsg struct {
	slot uint32
	t    *Type
	plan *keepPlan
}

// keepPlanOf returns t's keep plan, computed once (nil: a type whose Clear
// resets the buffer).
func keepPlanOf(t *Type) *keepPlan {
	if v := t.plans[KeepPlan].Load(); v != nil {
		kp, _ := (*v).(*keepPlan)
		return kp
	}
	n := 0
	kp := makeKeepPlan(t, 0, &n)
	v := t.StorePlan(KeepPlan, kp)
	kp, _ = v.(*keepPlan)
	return kp
}

// keepDepth bounds the nesting of a keep plan (a recursive type has none).
const keepDepth = 4

// makeKeepPlan returns t's plan at nesting depth, counting its entries in
// *n, or nil if a field of t is one keepBlocks does not handle or the
// entries would exceed maxReuse.
func makeKeepPlan(t *Type, depth int, n *int) *keepPlan {
	if depth > keepDepth || t.isAny || t.desc == nil || t.desc.ExtensionRanges().Len() > 0 || t.desc.IsMapEntry() || len(t.unions) > 0 {
		return nil
	}
	kp := &keepPlan{}
	for _, f := range t.fields {
		if f.Union != nil || f.Inline() {
			return nil
		}
		switch {
		case f.Repeated:
			if f.Kind == String || f.Kind == Bytes || f.Kind == Message || f.Desc == nil || f.Desc.IsMap() {
				return nil
			}
			kp.vectors = append(kp.vectors, keepVector{f.Offset, uint32(elemSize(f.Kind))})
		case f.Kind == String || f.Kind == Bytes:
			kp.strings = append(kp.strings, f.Offset)
		case f.Kind == Message:
			if f.Type == nil {
				return nil
			}
			sub := makeKeepPlan(f.Type, depth+1, n)
			if sub == nil {
				return nil
			}
			kp.msgs = append(kp.msgs, keepMsg{f.Offset, f.Type, sub})
		default:
			continue
		}
		if *n++; *n > maxReuse {
			return nil
		}
	}
	return kp
}

// keepMax is the largest string or vector block keepBlocks sets aside:
// zeroing a larger one would cost what the reset saves.
const keepMax = 1024

// keepBlocks is Clear of m, the root of type t, that keeps its blocks for
// the fields set next (see above), and reports whether it cleared m; false
// (a type or a payload it does not handle, a block larger than keepMax)
// leaves the caller to reset the buffer.
func (m Msg) keepBlocks(t *Type) bool {
	p := m.p
	kp := p.kplan
	if p.kplanOf != t {
		kp = nil
		if p.version == payloadbuffer.V3 {
			kp = keepPlanOf(t)
		}
		p.kplanOf, p.kplan = t, kp
	}
	if kp == nil {
		return false
	}
	if p.nlive != 0 { // the blocks the last Clear kept that no field took back
		p.EndReuse()
	}
	if !p.reusable(m, t) {
		return false
	}
	n, ok := p.keepIn(kp, m.off, t, 0)
	if !ok {
		return false // (the reset frees what was set aside)
	}
	p.recordAside(n)
	return true
}

// keepIn sets aside the blocks of the message of type t at off, after the
// first n entries, zeroes its fields and returns the entries' new count;
// false is a block it does not keep (the entries written are not counted).
func (p *Payload) keepIn(kp *keepPlan, off uint32, t *Type, n int) (int, bool) {
	mem := p.mem
	o := uint64(off)
	body := mem[o : o+uint64(t.extent)] // (reusable or nestedOK checked it)
	for _, slot := range kp.strings {
		s := uint64(le.Uint32(body[slot:]))
		if s == 0 {
			continue
		}
		length, ok := p.keptBlock(s)
		if !ok {
			return n, false
		}
		if p.scrub {
			clear(mem[s : s+min(4+uint64(le.Uint32(mem[s:])), length)])
		}
		p.setAside(n, off+slot, uint32(s), nil)
		n++
	}
	for _, v := range kp.vectors {
		h := le.Uint64(body[v.slot:])
		s := h >> 32
		if s == 0 {
			continue
		}
		length, ok := p.keptBlock(s)
		if !ok {
			return n, false
		}
		if p.scrub {
			clear(mem[s : s+min(uint64(uint32(h))*uint64(v.size), length)])
		}
		p.setAside(n, off+v.slot, uint32(s), vectorEntry)
		n++
	}
	for _, f := range kp.msgs {
		s := le.Uint32(body[f.slot:])
		if s == 0 {
			continue
		}
		if !p.nestedOK(s, off, f.t, n) {
			return n, false
		}
		var ok bool
		if n, ok = p.keepIn(f.plan, s, f.t, n); !ok {
			return n, false
		}
		p.setAside(n, off+f.slot, s, f.t)
		n++
	}
	clear(body[4:])
	return n, true
}

// keptBlock checks that s is the data offset of a block keepBlocks keeps
// (it stays allocated, and its bytes are zeroed): in the payload, past
// its header, and at most keepMax bytes long, which it returns.
func (p *Payload) keptBlock(s uint64) (uint64, bool) {
	mem := p.mem
	if s < uint64(p.floor)+8 || s%8 != 0 || s+4 > uint64(len(mem)) {
		return 0, false
	}
	length := uint64(le.Uint32(mem[s-8:]))
	return length, length <= keepMax && s+length <= uint64(len(mem))
}

// setStringAside stores s in the empty string slot at o over the block a
// Clear set aside from it, and reports whether it did; a block too small
// for s is freed, and the caller stores s as usual.
func (p *Payload) setStringAside(o uint32, s string) bool {
	if uint64(o)+4 > uint64(len(p.mem)) || le.Uint32(p.mem[o:]) != 0 {
		return false
	}
	old := p.takeReuse(o, nil)
	if old == 0 {
		return false
	}
	if !p.buf.OverwriteString(old, s) {
		p.buf.Free(old)
		return false
	}
	le.PutUint32(p.mem[o:], old)
	return true
}

// setBytesAside is setStringAside for bytes that do not lie in the
// payload.
func (p *Payload) setBytesAside(o uint32, s []byte) bool {
	if uint64(o)+4 > uint64(len(p.mem)) || le.Uint32(p.mem[o:]) != 0 || overlaps(p.mem[:cap(p.mem)], s) {
		return false
	}
	old := p.takeReuse(o, nil)
	if old == 0 {
		return false
	}
	if !p.buf.OverwriteBytes(old, s) {
		p.buf.Free(old)
		return false
	}
	le.PutUint32(p.mem[o:], old)
	return true
}

// assignAside gives the empty vector at o, whose header holds no storage,
// the elements' block a Clear set aside from it, for VectorAssign to fill
// in place (or replace, when it is too small).
func (p *Payload) assignAside(o uint32) {
	if uint64(o)+8 > uint64(len(p.mem)) || le.Uint64(p.mem[o:]) != 0 {
		return
	}
	if s := p.takeReuse(o, vectorEntry); s != 0 {
		le.PutUint64(p.mem[o:], uint64(s)<<32)
	}
}
