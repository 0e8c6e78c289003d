package impl

import (
	"unsafe"

	"github.com/phaser-go/phaser/payloadbuffer"
)

// A Clear that keeps the root's blocks for the next fill.
//
// A publisher clears its message and fills it again with the same shape,
// once per send. Clear of a format-3 root this process created resets the
// buffer to the root's creation image (payload.go), after which every
// string, nested message and vector of the fill is allocated again. When
// the root's type holds only singular fields, nested messages of such
// types (inline ones of the ROS frontend included) and repeated scalars
// (no oneofs, maps, repeated strings or messages, or Any), the Clear
// instead sets their blocks
// aside (as a decoding's BeginReuse does, reuse.go): the slots are zeroed,
// so that every field reads absent, and each block is recorded under the
// slot that held it. The setters that fill an empty slot take its block
// back: a string is written over its old block when it fits
// (setStringAside), a nested message comes back zeroed (mutableAt), a
// vector's elements go into its old storage (appendAside). Blocks no field
// took back are freed by the next Clear or decoding of the root, or by the
// buffer itself when an allocation finds no room (payloadbuffer's
// SetAside): a fill never fails that a Clear which freed them would let
// through. A scrubbing buffer's set-aside strings and elements are zeroed
// at the Clear, so that Bytes never carries what the program cleared.

// A keepPlan is what keepBlocks needs of a type: one step for each string,
// repeated scalar and singular message slot of the root and of the nested
// messages it reaches, each message before the slots inside it. (A fixed
// array, phaser.array_size, is stored as a repeated field of at most its
// size, and clears as one.)
type keepPlan struct {
	steps []keepStep
	// msgs lists the message types by index (msgs[0] is the root's): the
	// bodies keepIn zeroes once the steps have read their slots.
	msgs []*Type
	// flat is a plan with no nested message (len(msgs) == 1): keepFlat's.
	flat bool
}

// A keepStep sets aside the block of one slot, or finds an inline message.
type keepStep struct {
	slot uint32 // the slot's offset in its message (keepInline: the inline message's)
	in   uint8  // the index (in keepPlan.msgs) of the message holding the slot
	kind uint8  // keepString, keepVector, keepMessage or keepInline
	msg  uint8  // keepMessage, keepInline: the index the nested message gets
	size uint32 // keepVector: the element size
}

// The kinds of keepStep (keepString and keepVector are the negated
// entryString and entryVector: keepFlat).
const (
	keepString = iota
	keepVector
	keepMessage
	// keepInline is an inline message of the ROS frontend (format 3): no
	// block to set aside, but the blocks of its own fields, at the
	// offsets of the message inside its holder, when it is present (its
	// table word set). The holder's zeroing clears it (its table word
	// included: absent, as a new holder's).
	keepInline
)

// keepPlanOf returns t's keep plan, computed once (nil: a type whose Clear
// resets the buffer).
func keepPlanOf(t *Type) *keepPlan {
	if v := t.plans[KeepPlan].Load(); v != nil {
		kp, _ := (*v).(*keepPlan)
		return kp
	}
	kp := &keepPlan{msgs: []*Type{t}}
	if !kp.add(t, 0, 0) {
		kp = nil
	} else {
		kp.flat = len(kp.msgs) == 1
	}
	v := t.StorePlan(KeepPlan, kp)
	kp, _ = v.(*keepPlan)
	return kp
}

// keepDepth bounds the nesting of a keep plan (a recursive type has none).
const keepDepth = 4

// add appends the steps of the fields of t, message in of the plan at
// nesting depth, and reports false for a field keepBlocks does not handle
// or more steps than maxReuse.
func (kp *keepPlan) add(t *Type, in uint8, depth int) bool {
	if depth > keepDepth || t.isAny || t.desc == nil || t.desc.ExtensionRanges().Len() > 0 || t.desc.IsMapEntry() || len(t.unions) > 0 {
		return false
	}
	for _, f := range t.fields {
		if f.Union != nil {
			return false
		}
		st := keepStep{slot: f.Offset, in: in}
		switch {
		case f.Inline():
			// An inline message whose fields hold no block needs no step:
			// the holder's zeroing clears it whole.
			if f.Type == nil || f.Repeated {
				return false
			}
			own := &keepPlan{msgs: []*Type{f.Type}}
			if !own.add(f.Type, 0, depth+1) {
				return false
			}
			if len(own.steps) == 0 {
				continue
			}
			if len(kp.msgs) >= maxReuse {
				return false
			}
			st.kind, st.msg = keepInline, uint8(len(kp.msgs))
			kp.msgs = append(kp.msgs, f.Type)
		case f.Repeated:
			if f.Kind == String || f.Kind == Bytes || f.Kind == Message || f.Desc == nil || f.Desc.IsMap() {
				return false
			}
			st.kind, st.size = keepVector, uint32(elemSize(f.Kind))
		case f.Kind == String || f.Kind == Bytes:
			st.kind = keepString
		case f.Kind == Message:
			if f.Type == nil || len(kp.msgs) >= maxReuse {
				return false
			}
			st.kind, st.msg = keepMessage, uint8(len(kp.msgs))
			kp.msgs = append(kp.msgs, f.Type)
		default:
			continue
		}
		if kp.steps = append(kp.steps, st); len(kp.steps) > maxReuse {
			return false
		}
		if (st.kind == keepMessage || st.kind == keepInline) && !kp.add(f.Type, st.msg, depth+1) {
			return false
		}
	}
	return true
}

// keepMax is the largest string or vector block keepBlocks sets aside:
// zeroing a larger one would cost what the reset saves.
const keepMax = 1024

// keepBlocks is Clear of m, the root of type t (of p's buffer: Clear
// checked it), that keeps its blocks for
// the fields set next (see above), and reports whether it cleared m; false
// (a type or a payload it does not handle, a block larger than keepMax)
// leaves the caller to reset the buffer.
func (m Msg) keepBlocks(t *Type) bool {
	p := m.p
	kp := p.keepPlan(t)
	if kp == nil {
		return false
	}
	if p.nlive != 0 { // the blocks the last Clear kept that no field took back
		p.EndReuse()
	}
	if !p.reusable(m, t) {
		return false
	}
	var n int
	var ok bool
	if kp.flat {
		n, ok = p.keepFlat(kp, m.off)
	} else {
		n, ok = p.keepIn(kp, m.off)
	}
	if !ok {
		return false // (the reset frees what was set aside)
	}
	p.recordAside(n)
	return true
}

// keepPlan returns t's keep plan in p's format (nil: none), kept for the
// next Clear.
func (p *Payload) keepPlan(t *Type) *keepPlan {
	if p.kplanOf == t {
		return p.kplan
	}
	return p.planKeep(t)
}

// planKeep is keepPlan's look-up for a type other than the last one's, out
// of line so that keepPlan inlines into Clear's and Assign's paths.
//
//go:noinline
func (p *Payload) planKeep(t *Type) *keepPlan {
	var kp *keepPlan
	if p.version == payloadbuffer.V3 {
		kp = keepPlanOf(t)
	}
	p.kplanOf, p.kplan = t, kp
	return kp
}

// keepIn sets aside the blocks of the root at root as plan kp says, zeroes
// the fields of the root and of its nested messages, and returns the
// number of entries; false is a block it does not keep (the entries
// written are not counted).
func (p *Payload) keepIn(kp *keepPlan, root uint32) (int, bool) {
	mem := p.mem
	var at [maxReuse]uint32 // the messages' offsets, by plan index (0: absent)
	at[0] = root
	n := 0
	var seen uint64                  // the blocks set aside (nestedOK)
	steps, msgs := kp.steps, kp.msgs // (locals: setAside's stores would reload kp's)
	for i := range steps {
		st := &steps[i]
		base := uint64(at[st.in&(maxReuse-1)])
		if base == 0 {
			continue // in a message that is not there
		}
		o := base + uint64(st.slot)
		if o+8 > uint64(len(mem)) {
			return n, false
		}
		w := le.Uint64(mem[o : o+8 : o+8])
		s := uint64(uint32(w)) // a string's or message's slot
		if st.kind == keepVector {
			s = w >> 32 // the elements of the vector header {num, data}
		}
		if s == 0 {
			continue
		}
		kind := -uint32(st.kind) // entryString, entryVector (keepFlat)
		var length uint64
		if st.kind == keepInline { // s is its table word: the fields of a present one are at compiled offsets
			t := msgs[st.msg&(maxReuse-1)]
			if p.trust&t.trust == 0 || o+uint64(t.extent) > base+uint64(msgs[st.in&(maxReuse-1)].extent) {
				return n, false
			}
			at[st.msg&(maxReuse-1)] = uint32(o)
			continue
		}
		if st.kind == keepMessage {
			t := msgs[st.msg&(maxReuse-1)]
			if s == uint64(root) || !p.nestedOK(uint32(s), uint32(base), t, n, seen) {
				return n, false
			}
			at[st.msg&(maxReuse-1)] = uint32(s)
			kind, length = t.id, uint64(t.extent)
		} else {
			// keepFlat's, in line (a call cost Build/imu ~30 instructions).
			if s < uint64(p.floor)+8 || s%8 != 0 || s > uint64(len(mem)) {
				return n, false
			}
			length = uint64(le.Uint32(mem[s-8 : s-4 : s-4]))
			// (A length word under 4 is no block this buffer handed out:
			// a payload written behind the handle. FuzzAssign.)
			if length > keepMax || length < 4 || s+length > uint64(len(mem)) {
				return n, false
			}
			if p.scrub {
				scrubKept(mem[s:s+length:s+length], st.kind, uint64(uint32(w))*uint64(st.size))
			}
		}
		p.setAside(n, uint32(o), uint32(s), kind, uint32(length))
		seen |= asideBit(uint32(s))
		n++
	}
	for i, t := range msgs {
		if b := uint64(at[i&(maxReuse-1)]); b != 0 {
			zeroShort(mem[b+4 : b+uint64(t.extent)]) // (reusable, nestedOK)
		}
	}
	return n, true
}

// scrubKept zeroes, in a scrubbing buffer, what the block blk (its bytes,
// at least 4) set aside from a slot held: a string's length word and
// bytes, or a vector's elements, elems bytes of them.
func scrubKept(blk []byte, kind uint8, elems uint64) {
	if kind == keepVector {
		clear(blk[:min(elems, uint64(len(blk)))])
	} else {
		zeroShort(blk[:min(4+uint64(le.Uint32(blk[:4])), uint64(len(blk)))]) // the length word and the bytes
	}
}

// zeroShort zeroes b, in overlapping word stores when it is 8 to 32 bytes
// long (a short string's block, a small message's body): fewer
// instructions than memclr's, and no call. (Stores up to 64 bytes make it
// too large to inline: Build/imu +97 instructions.)
func zeroShort(b []byte) {
	if n := len(b); n >= 8 && n <= 32 {
		le.PutUint64(b[:8], 0)
		le.PutUint64(b[n-8:], 0)
		if n > 16 {
			le.PutUint64(b[8:16], 0)
			le.PutUint64(b[n-16:], 0)
		}
		return
	}
	clear(b)
}

// keepFlat is keepIn for a flat plan (one message, the root at root, of
// at most maxReuse strings and vectors): the steps' slots are read from the
// root's body, which keepFlat then zeroes, and a scrubbing buffer's short
// strings are zeroed with word stores.
func (p *Payload) keepFlat(kp *keepPlan, root uint32) (int, bool) {
	mem := p.mem
	r := uint64(root)
	n := 0
	steps := kp.steps // (a local: setAside's stores would reload kp's)
	for i := range steps {
		st := &steps[i]
		o := r + uint64(st.slot)
		if o+8 > uint64(len(mem)) {
			return n, false
		}
		w := le.Uint64(mem[o : o+8 : o+8])
		s := uint64(uint32(w)) // a string's slot
		if st.kind == keepVector {
			s = w >> 32 // the elements of the vector header {num, data}
		}
		if s == 0 {
			continue
		}
		if s < uint64(p.floor)+8 || s%8 != 0 || s > uint64(len(mem)) {
			return n, false
		}
		length := uint64(le.Uint32(mem[s-8 : s-4 : s-4]))
		if length > keepMax || length < 4 || s+length > uint64(len(mem)) { // (under 4: keepIn's note)
			return n, false
		}
		if p.scrub {
			scrubKept(mem[s:s+length:s+length], st.kind, uint64(uint32(w))*uint64(st.size))
		}
		// entryString is 0 and entryVector -1: -kind.
		p.setAside(n, uint32(o), uint32(s), -uint32(st.kind), uint32(length))
		n++
	}
	if e := uint64(kp.msgs[0].extent); r+e <= uint64(len(mem)) && e >= 4 { // (reusable)
		clear(mem[r+4 : r+e])
	}
	return n, true
}

// setStringAside stores s in the empty string slot at o over the block a
// Clear set aside from it, and reports whether it did; a block too small
// for s is freed, and the caller stores s as usual.
func (p *Payload) setStringAside(o uint32, s string) bool {
	return p.overwriteAside(o, unsafe.Slice(unsafe.StringData(s), len(s)))
}

// setBytesAside is setStringAside for bytes that do not lie in the
// payload.
func (p *Payload) setBytesAside(o uint32, s []byte) bool {
	if overlaps(p.mem[:cap(p.mem)], s) {
		return false
	}
	return p.overwriteAside(o, s)
}

// overwriteAside writes s (which does not lie in the payload) over the
// string block set aside from the slot at o, if the slot is empty, and
// stores the block in the slot; false is a slot that is not empty, no
// block set aside, or one too small for s, which it frees.
//
// It is takeReuse and payloadbuffer's OverwriteBytes in one, for the
// setters that fill a cleared message: the common case (the entry after
// the one taken last is this slot's, its block large enough) is a few
// loads, one bound, and the copy. The block's length is the one recorded
// when it was set aside (setAside), after the checks OverwriteBytes makes
// (validBlock's); it is bounded again by the memory, so that a length
// word changed since cannot take the copy outside it. A block set aside
// is one the buffer has not freed, in a buffer that has not failed (both
// zero the entry), of format 3 (keepBlocks, BeginReuse).
func (p *Payload) overwriteAside(o uint32, s []byte) bool {
	// (reuseIndex, written out: its two results cost 3 instructions a
	// string.)
	i := uint(p.rnext) & (maxReuse - 1)
	if p.reuseSlot[i] != o || i >= uint(p.nreuse) {
		j := p.findReuse(o)
		if j < 0 {
			return false
		}
		i = uint(j) & (maxReuse - 1)
	}
	if p.reuseKind[i] != entryString {
		return false // (a slot of a block freed and reused: it stays set aside)
	}
	mem := p.mem
	so, n := uint64(o), uint64(len(s))
	if so+4 > uint64(len(mem)) || le.Uint32(mem[so:so+4:so+4]) != 0 {
		return false
	}
	blk, length := uint64(p.reuseBlock[i]), uint64(p.reuseLen[i])
	p.reuseSlot[i], p.reuseBlock[i] = 0, 0 // (took, written out: 3 instructions a string)
	p.nlive--
	p.rnext = uint8(i + 1)
	if blk == 0 || blk+length > uint64(len(mem)) {
		return false // none (freed by an allocation)
	}
	if n > 1<<31 || (n+4+7)&^7 > length {
		p.buf.Free(uint32(blk))
		return false
	}
	b := mem[blk : blk+length : blk+length] // n+4 <= length
	oldN := uint64(le.Uint32(b[:4]))
	le.PutUint32(b[:4], uint32(n))
	switch {
	case n >= 8 && n <= 16:
		// A string of 8 to 16 bytes (a name, an id) in two overlapping
		// words: fewer instructions than memmove's, and no call.
		head, tail := le.Uint64(s[:8]), le.Uint64(s[n-8:n])
		le.PutUint64(b[4:12], head)
		le.PutUint64(b[n-4:n+4], tail)
	case n >= 4 && n < 8:
		head, tail := le.Uint32(s[:4]), le.Uint32(s[n-4:n])
		le.PutUint32(b[4:8], head)
		le.PutUint32(b[n:n+4], tail)
	default:
		copy(b[4:4+n], s)
	}
	if p.scrub && oldN > n { // (a decoding's block: a Clear zeroed its own)
		clear(b[4+n : min(4+oldN, length)])
	}
	le.PutUint32(mem[so:so+4:so+4], uint32(blk))
	return true
}

// reuseIndex returns the index of the entry set aside from slot (taken
// back or not), and false if there is none: takeReuse's look-up, which
// looks at the entry after the one taken last first.
func (p *Payload) reuseIndex(slot uint32) (uint, bool) {
	if i, ok := p.nextAside(slot); ok {
		return i, true
	}
	j := p.findReuse(slot)
	return uint(j) & (maxReuse - 1), j >= 0
}

// appendAside stores v, the stored bytes of whole elements, as the
// elements of the empty vector at o (List.Assign's, or a decoder's packed
// field's), whose header holds no storage, in the
// block a Clear set aside from it, and reports whether it did; a block too
// small for v is freed, and the caller stores v as usual. v must not lie in
// the block.
func (p *Payload) appendAside(o uint32, v []byte, size int) bool {
	mem := p.mem
	if uint64(o)+8 > uint64(len(mem)) || le.Uint64(mem[o:]) != 0 || size <= 0 || len(v) == 0 {
		return false
	}
	// takeReuse, in line (its call cost Build/imu ~15 instructions a
	// vector).
	i, ok := p.reuseIndex(o)
	if !ok || p.reuseKind[i] != entryVector {
		return false
	}
	s, length := uint64(p.reuseBlock[i]), uint64(p.reuseLen[i])
	p.took(i)
	if s == 0 || s+length > uint64(len(mem)) {
		return false // none (freed by an allocation)
	}
	if n := uint64(len(v)); n > length || n%uint64(size) != 0 {
		p.buf.Free(uint32(s))
		return false
	}
	copy(mem[s:s+length], v)
	le.PutUint64(mem[o:], uint64(len(v)/size)|s<<32)
	return true
}
