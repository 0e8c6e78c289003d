package impl

import (
	"sync/atomic"
	"unsafe"

	"github.com/phaser-go/phaser/payloadbuffer"
)

// Assign: a Clear and a fill of every field in one straight line.
//
// The generated Assign of a message whose fields are singular scalars,
// strings, bytes, repeated scalars and messages of such types (no repeated
// message or oneof field) is Clear, then every field's setter (a nested
// message's: its Mutable, then its setters). On a format-3 root whose
// Clear keeps its blocks (keep.go), that is: each string's, vector's and
// nested message's block set aside, the bodies zeroed, each string and
// vector written back over its own block, each nested message's block back
// in its slot, the scalars stored. When every string and vector fits its
// block and every nested message slot held one, the generated code does
// exactly that, at its compile-time offsets, without the record of the
// blocks set aside in between (which only a fill by separate setters
// needs): BeginAssign checks the root as the Clear does, Block checks
// each string's block as the Clear does and Fits that the new string fits
// it as the setter would, KeptVector and KeptMessage check each vector's
// and nested message's block as the Clear and the setters do, and Put and
// PutVector write. Anything else (a string that outgrows its block or is
// empty, bytes that lie in the payload, a nested message whose slot is
// empty, a payload whose Clear would not keep its blocks) is the Clear and
// the setters, decided before anything is written. The payload is the
// same, byte for byte (FuzzAssign and FuzzAssignNested in
// internal/testpb/testpbphaser).

// An Assigner writes the strings, vectors and nested messages of an
// Assign that BeginAssign began. It is the payload, whose assigning field
// holds the root's span (root to end) and the lowest offset a block may
// start at (lo: the floor and a length word above it), as BeginAssign found
// them: an Assign's straight line allocates nothing, so neither they nor
// the payload's memory change under it. One word, it is cheap to return,
// and Block, which the generated code calls for each string, inlines. An
// Assigner is valid from the BeginAssign that returned it with true to the
// next write of the payload; the zero Assigner must not be used.
type Assigner struct{ p *Payload }

// assignSpan is what an Assigner checks blocks against (Payload.assigning).
// span is the payload's length less lo when BeginAssign set it, and 0 (no
// block is in it) until then. Block reads a length word in the span
// without a bounds check: a payload's memory only grows while the span is
// set (a buffer's memory never shrinks), and ReadInto, the one rebinding
// of a Payload to other memory, sets span to 0.
type assignSpan struct{ lo, span, root, end uint64 }

// BeginAssign begins the Assign of m, the root of type t whose compiled
// extent is extent: it returns the root's bytes (extent of them) and an
// Assigner, or false for the caller to Clear m and call the setters. The
// blocks a Clear kept that no field took back are freed first, as the
// Clear frees them.
func (m Msg) BeginAssign(t *Type, extent uint32) (Assigner, []byte, bool) {
	p := m.p
	if p == nil || p.nlive != 0 || p.kplanOf != t {
		// (A call only here, where nothing is used after it, so the
		// common case keeps its values in registers: no spills.)
		return m.beginAssignSlow(t, extent)
	}
	// The root is the buffer's (the header's word at 4, read from the
	// payload's memory, which is the buffer's: every write that may grow
	// it syncs it), there are 8 bytes above the floor (Block's one compare
	// of a block's start needs them), and the Clear would keep the root's
	// blocks (reusable, which checks the root's extent is in the payload).
	o, e, mem := uint64(m.off), uint64(extent), p.mem
	if p.kplan == nil || p.version != payloadbuffer.V3 || t.extent != extent ||
		len(mem) < payloadbuffer.FixedHeaderSize || le.Uint32(mem[4:8]) != m.off ||
		uint64(len(mem)) < uint64(p.floor)+8 || !p.reusable(m, t) {
		return Assigner{}, nil, false
	}
	lo := uint64(p.floor) + 8
	p.assigning = assignSpan{lo, uint64(len(mem)) - lo, o, o + e}
	// mem[o:o+e:o+e], whose bounds were just checked, without the
	// compiler's second check of them.
	return Assigner{p}, unsafe.Slice((*byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(mem)), o)), e), true
}

// readyKept readies m, the root of type t, for the common case of
// BeginAssign and BeginKeep: the blocks a Clear kept that no field took
// back freed, as the Clear frees them, and t's keep plan looked up. It
// reports false for an m that is not the root of type t: the blocks set
// aside are freed where the Clear frees them, in the root's (isRoot), and
// any other Clear (of a payload whose header was written behind the
// handle) leaves them.
func (m Msg) readyKept(t *Type) bool {
	p := m.p
	if p == nil || !p.isRoot(m, t) {
		return false
	}
	if p.nlive != 0 {
		p.EndReuse()
	}
	p.keepPlan(t)
	return p.nlive == 0 && p.kplanOf == t // (else a loop: neither can be)
}

// beginAssignSlow is BeginAssign when blocks a Clear kept are still set
// aside (freed first, as the Clear frees them) or the payload's keep plan
// is another type's (looked up): then BeginAssign's common case.
//
//go:noinline
func (m Msg) beginAssignSlow(t *Type, extent uint32) (Assigner, []byte, bool) {
	if !m.readyKept(t) {
		return Assigner{}, nil, false
	}
	return m.BeginAssign(t, extent)
}

// A KeptBlock is a string block Kept checked (its offset and its length
// word) or a nested message KeptMessage checked (its offset and its
// compiled extent).
type KeptBlock struct{ Off, Size uint32 }

// Block returns the block a string or bytes slot holds (the slot's 4
// bytes, in the root BeginAssign returned) and false unless it is a block
// this buffer handed out (8-aligned above the floor, its length word and
// bytes in the payload; keepFlat's checks but the longest block the Clear
// keeps, which is Fits's). A block that
// overlaps the root (a payload written behind the handle) is refused too:
// the Clear and the setters, which write the root and the block in another
// order, then decide what the payload holds. Two blocks must not overlap
// either, their length words included: two string slots of a payload this
// process wrote never share a block, and the generated code checks that
// (Apart, Disjoint), leaving a payload whose blocks overlap to the Clear
// and the setters. Whether the new string fits the block is Fits. Block
// inlines into the generated Assign.
func (a Assigner) Block(slot *[4]byte) (KeptBlock, bool) {
	p, s := a.p, uint64(le.Uint32(slot[:]))
	if s-p.assigning.lo >= p.assigning.span || s%8 != 0 {
		return KeptBlock{}, false
	}
	// lo <= s < lo+span: s is at least 8 (lo is the floor plus 8) and
	// below len(p.mem), which the span was when BeginAssign made it and
	// which only grows while a span is set (assignSpan), so the block's
	// length word, the 4 bytes at s-8, is in p.mem: read without the
	// checks and the capacity of slicing p.mem[s-8:].
	length := uint64(le.Uint32((*[4]byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(p.mem)), s-8))[:]))
	return KeptBlock{uint32(s), uint32(length)}, s+length <= uint64(len(p.mem)) &&
		(s+length <= p.assigning.root || s-8 >= p.assigning.end)
}

// Fits reports whether a string of n bytes fits block b (Block's) as the
// setter would write it over the block after the Clear: the Clear keeps a
// block of at most keepMax bytes (keepFlat), and the setter takes it back
// for n > 0 bytes when n+4 rounded up to 8 is within its length
// (overwriteAside).
func (b KeptBlock) Fits(n int) bool {
	return n > 0 && (uint64(n)+4+7)&^7 <= uint64(b.Size) && b.Size <= keepMax
}

// Kept is Block and Fits in one call, for generated code of versions 5
// and 6 (slot is the slot's 4 bytes).
func (a Assigner) Kept(slot []byte, n int) (KeptBlock, bool) {
	if len(slot) < 4 || a.p == nil {
		return KeptBlock{}, false
	}
	b, ok := a.Block((*[4]byte)(slot))
	return b, ok && b.Fits(n)
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
//
// A string of 8 to 16 bytes (a name, an id) is ShortAt's and PutShort's
// case, which generated code of version 14 takes in line; any other is
// putAny's copy.
func (a Assigner) Put(b KeptBlock, str string) {
	if w, z := a.ShortAt(b, len(str)); w != nil {
		a.PutShort(w, z, str)
		return
	}
	a.putAny(b, str)
}

// ShortAt returns the first 24 bytes of block b (Block's, checked by Fits
// for a string of n bytes) and the end z of what PutShort writes there
// (4 bytes past which its word of zeros ends), when Put of n bytes is
// PutShort's case: n is 8 to 16, the 24 bytes lie in the payload, and
// what is left of the old string (in a scrubbing buffer) ends at most 16
// bytes in and in the block. nil is any other case: Put's. ShortAt and
// PutShort inline into the generated Assign: Put's case of a name or an
// id without a call.
func (a Assigner) ShortAt(b KeptBlock, n int) (*[24]byte, uint64) {
	p, o, z := a.p, uint64(b.Off), uint64(n)
	if z-8 > 8 || o+24 > uint64(len(p.mem)) {
		return nil, 0
	}
	w := (*[24]byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(p.mem)), o))
	if p.scrub {
		z = max(z, uint64(le.Uint32(w[:4])))
	}
	if z > 16 || z+4 > uint64(b.Size) {
		return nil, 0
	}
	return w, z
}

// PutShort writes str into the block w that ShortAt returned, with z, for
// len(str) bytes: a word of zeros that ends 4 bytes past z (past what is
// left of the old string in a scrubbing buffer, else under the new
// string's last word), then the length word and the string as two
// overlapping words, as the setter's copy leaves them. w, z and the length
// must be ShortAt's (8 <= len(str) <= z <= 16): the stores are not
// checked again.
func (Assigner) PutShort(w *[24]byte, z uint64, str string) {
	s, n, b := unsafe.Pointer(unsafe.StringData(str)), uint64(len(str)), unsafe.Pointer(w)
	*(*[8]byte)(unsafe.Add(b, z-4)) = [8]byte{}
	le.PutUint32(w[:4], uint32(n))
	*(*[8]byte)(unsafe.Add(b, 4)) = *(*[8]byte)(s)
	*(*[8]byte)(unsafe.Add(b, n-4)) = *(*[8]byte)(unsafe.Add(s, n-8))
}

// putAny is Put of a string shorter than 8 bytes or longer than 16, out
// of line: a copy.
//
//go:noinline
func (a Assigner) putAny(b KeptBlock, str string) {
	s := unsafe.Slice(unsafe.StringData(str), len(str))
	mem := a.p.mem
	o, length, n := uint64(b.Off), uint64(b.Size), uint64(len(s))
	if o+length > uint64(len(mem)) || n+4 > length {
		return // (not Kept's: nothing to write)
	}
	blk := mem[o : o+length : o+length]
	old := uint64(le.Uint32(blk[:4]))
	le.PutUint32(blk[:4], uint32(n))
	copy(blk[4:4+n], s)
	if a.p.scrub && old > n {
		clear(blk[4+n : min(4+old, length)])
	}
}

// PutBytes is Put for bytes.
func (a Assigner) PutBytes(b KeptBlock, s []byte) {
	a.Put(b, unsafe.String(unsafe.SliceData(s), len(s)))
}

// Apart reports whether blocks b and c do not overlap, the 8 bytes before
// each (a block's length word) included: the check the generated Assign
// makes of each pair of its blocks (Kept, KeptMessage).
func (b KeptBlock) Apart(c KeptBlock) bool {
	return uint64(b.Off)+uint64(b.Size) <= uint64(c.Off)-8 || uint64(c.Off)+uint64(c.Size) <= uint64(b.Off)-8
}

// Before reports whether block b ends before block c starts, c's length
// word included (Apart's first half): the generated Assign of more than
// two blocks tests each block against the next in field order, the order
// in which a fill allocates them in a buffer and every Assign after it
// keeps them, and calls Disjoint only when one is not.
func (b KeptBlock) Before(c KeptBlock) bool {
	return uint64(b.Off)+uint64(b.Size) <= uint64(c.Off)-8
}

// Disjoint reports whether no two of blocks bs overlap (Apart of each
// pair): the check the generated Assign makes of its blocks when it has
// more than two and they are not in order (Before). Blocks in ascending
// order take one compare each; any other order is compared pair by pair.
func Disjoint(bs ...KeptBlock) bool {
	for i := 1; i < len(bs); i++ {
		if b, c := bs[i-1], bs[i]; uint64(b.Off)+uint64(b.Size) > uint64(c.Off)-8 {
			return disjointPairs(bs)
		}
	}
	return true
}

// disjointPairs is Disjoint's compare of every pair.
func disjointPairs(bs []KeptBlock) bool {
	for i, b := range bs {
		for _, c := range bs[i+1:] {
			if !b.Apart(c) {
				return false
			}
		}
	}
	return true
}

// KeptMessage returns the nested message the message slot holds (its 4
// bytes, in a message BeginAssign or KeptMessage returned) as a block
// (whose compiled fields are Memory()[Off:Off+Size]), and false unless
// it is a message of type t, whose compiled extent is extent, that the
// Clear keeps (nestedOK's checks) and the Mutable then takes back at
// compiled offsets: within the payload above its floor, in a payload that
// trusts what it wrote for t, with 4 bytes after it (the Clear reads each
// slot as a word of 8 bytes). A message that overlaps the root is refused,
// as Kept refuses such a string; the generated code compares each pair of
// blocks, messages and strings alike. It is KeptFields's check, for
// generated code of versions 6 to 8 (which it no longer inlines into:
// the checks have one copy, KeptFields's).
func (a Assigner) KeptMessage(slot *[4]byte, t *Type, extent uint32) (KeptBlock, bool) {
	if a.KeptFields(slot, t, extent) == nil {
		return KeptBlock{}, false
	}
	return KeptBlock{le.Uint32(slot[:]), extent}, true
}

// KeptFields is KeptMessage for generated code of version 9 and later:
// it returns the nested message's compiled fields, Memory()[Off:Off+extent]
// of KeptMessage's block, or nil where KeptMessage reports false. The
// slice is made from the bounds just checked (the compiler would check
// them again), and its length is the caller's conversion to an array of
// extent bytes. The block is {the slot's offset, extent} (a third result
// would make it cost 85, and it would not inline).
func (a Assigner) KeptFields(slot *[4]byte, t *Type, extent uint32) []byte {
	p, s := a.p, uint64(le.Uint32(slot[:]))
	end, mem := s+uint64(extent), p.mem
	// (The floor of a writable payload, its buffer's header size, is at
	// least 40: s-8, which KeptBlock.Apart computes, does not wrap. A Type's
	// extent is at least 4, its table word.)
	if t.extent != extent || s < uint64(p.floor) || end+4 > uint64(len(mem)) ||
		p.trust&t.trust == 0 || end > p.assigning.root && s-8 < p.assigning.end {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(mem)), s)), extent)
}

// Inline returns the table word an inline message of type t (a singular
// message stored in its holder: ROS frontend, format 3) takes when the
// setters make it present after the Clear, and true when that is the word
// it holds (its 4 bytes, in a message BeginAssign returned, or in an
// inline message inside it): a present inline message of a payload that
// trusts what it wrote for t, whose table is the one the payload
// registered for t's inline layout. The Clear zeroes the word, and the
// Mutable installs that registered table again (installMetadata), so the
// generated Assign writes the word back after its Clear of the holder, and
// the inline message's fields at their compiled offsets. Any other word
// (an absent message, a table the cache does not know) is false: the
// caller takes the Clear and the setters. That includes a table the cache
// does not hold because another type of the payload shares its slot (the
// Mutable's look-up in the control block then records it, and another
// type's evicts it again): a look-up here would have to record what the
// Mutables record, in their order, which the straight line does not
// follow, so such types take the setters on every Assign (tableSlot
// keeps the slots of the types a message reaches apart where it can). The
// inline layout of a type of the protobuf frontend (a google.protobuf.Timestamp's,
// in a ROS holder) is the one its first Mutable looked up (inlineType);
// before that, Inline reports false. Inline inlines into the generated
// Assign.
func (a Assigner) Inline(word *[4]byte, t *Type) (uint32, bool) {
	if t.frontend != ROSFrontend {
		if t = t.inlined.Load(); t == nil {
			return 0, false
		}
	}
	p, w := a.p, le.Uint32(word[:])
	// installed's test, written out (through installed, Inline's cost is 89
	// and it does not inline): a registered table is never at offset 0,
	// the buffer's header, so an absent message's zero word matches none.
	e := atomic.LoadUint64(&p.tables[t.slot%tableSlots])
	return w, p.trust&t.trust != 0 && e>>34 == uint64(t.id) && e&tableRegistered != 0 && uint32(e) == w
}

// Memory returns the payload's bytes, in which the blocks KeptMessage
// returns lie whole (until the next write that may grow the payload).
func (a Assigner) Memory() []byte { return a.p.mem }

// KeptVector is Block and FitsElems in one call, for generated code of
// version 6: Kept for the elements of a repeated scalar field, whose
// vector header {num, data} is slot: the storage block the Clear keeps
// (keepIn's checks) that n elements of size bytes each fit, as List.Assign
// would write them over it after the Clear (appendAside's): n > 0, at most
// max when max is not 0 (a fixed array's size, over which List.Assign
// refuses), in a block that does not overlap the root. The elements must
// not lie in the payload (no List method gives a slice that does). On a
// big-endian machine, where a Go value's bytes are not its stored bytes, it
// reports false.
func (a Assigner) KeptVector(slot *[8]byte, n, size, max int) (KeptBlock, bool) {
	b, ok := a.Block((*[4]byte)(slot[4:8])) // the block the Clear keeps, apart from the root
	if length := uint64(b.Size); bigEndian || !ok || n <= 0 || max != 0 && n > max || length < 4 || length > keepMax || uint64(n)*uint64(size) > length {
		return KeptBlock{}, false
	}
	return b, true
}

// FitsElems reports whether n elements of size bytes each fit block b,
// the block a vector header's data word holds (Block's of the header's
// second 4 bytes), as List.Assign would write them over it after the Clear
// (appendAside's test, and keepIn's of the block): n > 0, at most max when
// max is not 0 (a fixed array's size, over which List.Assign refuses), in a
// block of 4 to keepMax bytes. The elements must not lie in the payload (no
// List method gives a slice that does). On a big-endian machine, where a
// Go value's bytes are not its stored bytes, it reports false. With size
// and max constants, as the generated Assign gives them, it inlines into a
// few compares.
func (b KeptBlock) FitsElems(n, size, max int) bool {
	return !bigEndian && n > 0 && (max == 0 || n <= max) && b.Size >= 4 && b.Size <= keepMax &&
		uint64(n)*uint64(size) <= uint64(b.Size)
}

// PutVector writes v, the bytes of the elements (ElemBytes), over block b
// (KeptVector's for the vector header slot, which still holds the count of
// the elements the block held), as List.Assign after the Clear leaves it:
// in a scrubbing buffer what is left of the old elements past v is zeroed
// (the Clear zeroes them all). The caller stores the header.
func (a Assigner) PutVector(b KeptBlock, slot *[8]byte, v []byte, size int) {
	mem := a.p.mem
	o, length, n := uint64(b.Off), uint64(b.Size), uint64(len(v))
	if o+length > uint64(len(mem)) {
		return // (not KeptVector's: nothing to write)
	}
	blk := mem[o : o+length : o+length]
	copy(blk, v) // (all of v: KeptVector's n*size <= length)
	if old := uint64(le.Uint32(slot[:4])) * uint64(size); a.p.scrub && old > n {
		clear(blk[min(n, length):min(old, length)])
	}
}

// ElemBytes returns the bytes of vs's elements in memory (their stored
// bytes on a little-endian machine).
func ElemBytes[T Scalar](vs []T) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(vs))), uintptr(len(vs))*SizeOf[T]())
}
