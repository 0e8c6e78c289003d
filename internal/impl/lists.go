package impl

import (
	"iter"
	"slices"
	"unsafe"

	"github.com/phaser-go/phaser/payloadbuffer"
)

// Handles on repeated fields. Each holds the message handle and the field;
// none holds elements. runtime.List and runtime.StringList are Repeated
// values (package runtime gives them their typed methods); MessageList is
// what generated message list types wrap.

// Repeated is a repeated scalar, string or bytes field of a message. Its
// methods give the elements as stored bits (see FromBits and ToBits) or
// bytes, with the element size passed in.
type Repeated struct {
	m Msg
	f Field
}

// RepeatedOf returns the handle of repeated field f of m.
func RepeatedOf(m Msg, f Field) Repeated { return Repeated{m, f} }

// Msg returns the message that holds the field.
func (r Repeated) Msg() Msg { return r.m }

// Len returns the number of elements of size bytes (4 for strings): N for
// a fixed array (Field.Fixed), whatever it stores.
func (r Repeated) Len(size uintptr) int {
	if r.f.Fixed != 0 {
		return int(r.f.Fixed)
	}
	return r.m.Len(r.f, int(size))
}

// ElemBits returns the stored bits of element i of size bytes (0 if out of
// range) in the form FromBits reads: a bool element is 0 or 1.
func (r Repeated) ElemBits(i int, size uintptr) uint64 {
	o := r.elem(i, size)
	if o == 0 {
		return 0
	}
	mem := r.m.p.mem
	switch size {
	case 1:
		if mem[o] != 0 {
			return placeBits(1, 1)
		}
		return 0
	case 4:
		return placeBits(uint64(le.Uint32(mem[o:])), 4)
	}
	return le.Uint64(mem[o:])
}

// SetElemBits stores element i of size bytes (ignored if out of range);
// bits are as ToBits gives them.
func (r Repeated) SetElemBits(i int, size uintptr, bits uint64) {
	if r.f.Fixed != 0 && !r.m.fillFixed(r.f, i, int(size)) {
		return
	}
	if o := r.m.welem(r.f, i, int(size)); o != 0 {
		putBits(r.m.p.mem[o:], size, bits)
	}
}

// elem returns the offset of element i of size bytes, or 0: the
// VectorHeader of a compiled handle read at its compiled offset, that of
// any other handle through Msg.Elem.
func (r Repeated) elem(i int, size uintptr) uint32 {
	if r.f.Fixed != 0 && uint64(i) >= uint64(r.f.Fixed) {
		return 0 // a fixed array has N elements, whatever it stores
	}
	m := r.m
	if m.acc == throughTable {
		return m.Elem(r.f, i, int(size))
	}
	mem := m.p.mem
	h := mem[m.off+r.f.Offset:]
	num, data := le.Uint32(h), le.Uint32(h[4:])
	if uint64(i) >= uint64(num) || data == 0 || uint64(data)+uint64(num)*uint64(size) > uint64(len(mem)) {
		return 0
	}
	return data + uint32(i)*uint32(size)
}

// PushBits appends an element of size bytes; bits are as ToBits gives
// them.
func (r Repeated) PushBits(size uintptr, bits uint64) {
	if e := r.m.push(r.f, int(size)); e != 0 {
		putBits(r.m.p.mem[e:], size, bits)
	}
}

// putBits stores the size-byte value of bits (ToBits's form) at b[0:size].
func putBits(b []byte, size uintptr, bits uint64) {
	switch v := unplaceBits(bits, size); size {
	case 1:
		b[0] = uint8(v)
	case 4:
		le.PutUint32(b, uint32(v))
	default:
		le.PutUint64(b, v)
	}
}

// Elems returns the stored bytes of the elements (size bytes each),
// aliasing the payload, bounds-checked once.
func (r Repeated) Elems(size uintptr) []byte { return r.m.Span(r.f, int(size)) }

// Reserve makes room for n elements of size bytes.
func (r Repeated) Reserve(n int, size uintptr) { r.m.Reserve(r.f, n, int(size)) }

// Resize sets the length to n elements of size bytes; new elements are
// zero (empty, for strings).
func (r Repeated) Resize(n int, size uintptr) { r.m.Resize(r.f, n, int(size)) }

// Clear empties a repeated scalar field and frees its storage.
func (r Repeated) Clear() { r.m.ClearVector(r.f) }

// ResizeStrings sets the length of a repeated string or bytes field to n
// (see Msg.ResizeStrings).
func (r Repeated) ResizeStrings(n int) { r.m.ResizeStrings(r.f, n) }

// Insert makes room for count zero elements of size bytes at index i and
// returns their stored bytes to fill, or nil (count 0, i out of range or
// the buffer full).
func (r Repeated) Insert(i, count int, size uintptr) []byte {
	if count <= 0 {
		return nil
	}
	at := r.m.InsertElems(r.f, i, count, int(size))
	if at == 0 {
		return nil
	}
	return r.m.p.mem[at : at+uint32(count)*uint32(size)]
}

// Grow appends n zero elements of size bytes with at most one allocation
// and returns their stored bytes to fill; ok is false if the buffer is full
// (n <= 0 appends nothing and succeeds).
func (r Repeated) Grow(n int, size uintptr) (b []byte, ok bool) {
	if n <= 0 {
		return nil, true
	}
	at := r.m.AppendElems(r.f, n, int(size))
	if at == 0 {
		return nil, false
	}
	return r.m.p.mem[at : at+uint32(n)*uint32(size)], true
}

// Erase removes elements [i, j) of size bytes.
func (r Repeated) Erase(i, j int, size uintptr) bool { return r.m.EraseElems(r.f, i, j, int(size)) }

// Swap exchanges the contents of r and o in O(1); both must live in the
// same payload.
func (r Repeated) Swap(o Repeated) bool { return r.m.SwapRepeated(r.f, o.m, o.f) }

// String returns element i of a repeated string or bytes field (nil if out
// of range), aliasing the payload.
func (r Repeated) String(i int) []byte {
	if r.f.Fixed != 0 && uint64(i) >= uint64(r.f.Fixed) {
		return nil
	}
	return r.m.ElemString(r.f, i)
}

// SetString stores s as element i, growing the field if i is past its end.
func (r Repeated) SetString(i int, s string) {
	if r.f.Fixed == 0 || r.m.fillFixed(r.f, i, 0) {
		r.m.SetElemString(r.f, i, s)
	}
}

// SetBytes is SetString for bytes; s may alias the payload.
func (r Repeated) SetBytes(i int, s []byte) {
	if r.f.Fixed == 0 || r.m.fillFixed(r.f, i, 0) {
		r.m.SetElemBytes(r.f, i, s)
	}
}

// AppendString appends s.
func (r Repeated) AppendString(s string) { r.m.PushString(r.f, s) }

// AppendBytes appends s, which may alias the payload.
func (r Repeated) AppendBytes(s []byte) { r.m.PushBytes(r.f, s) }

// InsertString inserts s at index i.
func (r Repeated) InsertString(i int, s string) bool { return r.m.InsertString(r.f, i, s) }

// EraseStrings removes elements [i, j), freeing their strings.
func (r Repeated) EraseStrings(i, j int) bool { return r.m.EraseStrings(r.f, i, j) }

// ClearStrings empties a repeated string or bytes field, freeing its
// strings.
func (r Repeated) ClearStrings() { r.m.ClearStrings(r.f) }

// Failed reports whether a write did not fit in the message's fixed buffer.
func (r Repeated) Failed() bool { return r.m.Failed() }

// AppendElems appends the elements of repeated scalar field r to dst and
// returns the extended slice, resolving and bounds-checking the field once.
func AppendElems[T Scalar](dst []T, r Repeated) []T {
	size := SizeOf[T]()
	b := r.Elems(size)
	n := len(b) / int(size)
	if fixed := int(r.f.Fixed); fixed != 0 { // a fixed array reads N elements
		n = min(n, fixed)
		start := len(dst)
		dst = slices.Grow(dst, fixed)[:start+fixed]
		loadElems(dst[start:start+n], b)
		clear(dst[start+n:])
		return dst
	}
	if n == 0 {
		return dst
	}
	dst = slices.Grow(dst, n)[:len(dst)+n]
	loadElems(dst[len(dst)-n:], b)
	return dst
}

// AssignElems replaces the elements of r with vs (List.Assign). On a
// little-endian machine vs's memory is the stored bytes; elsewhere they
// are converted into a copy first.
//
// A refill takes its common cases here, in line, for a compiled handle of
// a payload with no blocks set aside: as many elements as the vector holds
// are stored over them (AssignCopy's storeOver: each where an element store
// would put it); in format 3, a vector whose block holds both its elements
// and vs (which does not lie in the payload) gets vs copied over the old
// elements and its count changed. The checks are those of
// VectorAssign and payloadbuffer's BlockAt for a format-3 block (the
// vector header above the buffer header and in the memory; the block above
// it, 8-aligned, its length word and bytes in the memory, holding the old
// count and the new one), so that a payload written behind the handle
// cannot move the copy outside the block; a block that holds its own
// header is left to VectorAssign, whose copy and store would overlap.
// Everything else (a first fill, a larger assign, a fixed array's refusal,
// format 2, blocks a Clear set aside) is AssignCopy's. Measured in
// Build/imu's instructions an assign: through AssignCopy and VectorAssign,
// with the same checks, ~170 more; through a function of its own, ~14
// more; with BlockAt's checks called in line, ~33 more (it reads the
// buffer's fields through p.buf, and the memory's length again); passing
// on the address and count to a function of 9 words of arguments, so that
// none is passed on the stack, ~3 more.
func AssignElems[T Scalar](r Repeated, vs []T) bool {
	size := SizeOf[T]()
	n := uintptr(len(vs)) * size
	if bigEndian {
		b := make([]byte, n)
		StoreElems(b, vs)
		return r.m.AssignCopy(r.f, b, int(size))
	}
	// The address, not a slice: a slice's three words, live across the
	// checks, spill (~6 instructions an assign).
	src := (*byte)(unsafe.Pointer(unsafe.SliceData(vs)))
	if m, f := r.m, r.f; m.acc == compiledWrite && m.p.nlive == 0 && (f.Fixed == 0 || uint(len(vs)) <= uint(f.Fixed)) {
		// In int arithmetic, as VectorAssign's (a sum of two uint32s does
		// not overflow an int), so that the slices need no second check; a
		// count read from the payload is multiplied in uint64 first.
		p := m.p
		mem := p.mem
		at := int(m.off) + int(f.Offset) // the vector header {count, block}
		if at >= int(p.floor) && at+8 <= len(mem) {
			hdr := (*[8]byte)(mem[at : at+8])
			h := le.Uint64(hdr[:])
			num, data := uint64(uint32(h)), int(h>>32)
			// As many elements as the vector holds: AssignCopy's
			// storeOver, in line.
			if num == uint64(len(vs)) && num != 0 && data >= int(p.floor) && data+int(n) <= len(mem) {
				copy(mem[data:data+int(n)], unsafe.Slice(src, n))
				return true
			}
			if data >= int(p.floor)+8 && data%8 == 0 && data <= len(mem) && p.version == payloadbuffer.V3 && n != 0 {
				c := int(le.Uint32(mem[data-8:])) // the block's length word
				if data+c <= len(mem) && int(n) <= c && num*uint64(size) <= uint64(c) &&
					(at+8 <= data || at >= data+c) {
					blk := mem[data : data+c]
					le.PutUint32(hdr[:4], uint32(len(vs)))
					if uint64(len(vs)) < num && p.scrub {
						clear(blk[n : int(num)*int(size)]) // the dropped elements
					}
					copy(blk, unsafe.Slice(src, n)) // (last: no value outlives the call)
					return true
				}
			}
		}
	}
	return r.m.AssignCopy(r.f, unsafe.Slice(src, n), int(size))
}

// StoreElems stores vs as the stored bytes b of len(vs) elements.
func StoreElems[T Scalar](b []byte, vs []T) {
	size := SizeOf[T]()
	if !bigEndian && len(vs) > 0 { // a Go bool is stored as 0 or 1, as the payload holds it
		copy(b, unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(vs))), uintptr(len(vs))*size))
		return
	}
	for k, v := range vs {
		putBits(b[uintptr(k)*size:], size, ToBits(v))
	}
}

// MessageList is a repeated message field with its element type: the
// list handle of the dynamic runtime (AnyList, the codecs). Generated list
// types, which know their element type, wrap a MessageField instead.
type MessageList struct {
	m Msg
	f Field
	t *Type
}

// NewMessageList returns the list handle of field f (elements of type t).
func NewMessageList(m Msg, f Field, t *Type) MessageList { return MessageList{m, f, t} }

// field returns l without its element type.
func (l MessageList) field() MessageField { return MessageField{l.m, l.f} }

// Len returns the number of elements: N for a fixed array.
func (l MessageList) Len() int { return l.field().Len() }

// At returns element i (a default message if out of range).
func (l MessageList) At(i int) Msg { return l.m.ElemMessage(l.f, i, l.t) }

// Mutable returns element i, growing the list and creating the element as
// needed.
func (l MessageList) Mutable(i int) Msg { return l.field().Mutable(i, l.t) }

// Append adds a new, empty element and returns it.
func (l MessageList) Append() Msg { return l.m.AddMessage(l.f, l.t) }

// Allocate replaces the list with n new, empty elements made in one
// allocation (C++ allocate_x).
func (l MessageList) Allocate(n int) { l.m.AllocateMessages(l.f, n, l.t) }

// Reserve makes room for n elements.
func (l MessageList) Reserve(n int) { l.m.ReserveMessages(l.f, n, l.t) }

// Resize sets the length to n; new elements are absent until Mutable.
func (l MessageList) Resize(n int) { l.m.ResizeMessages(l.f, n, l.t) }

// Clear empties the list, clearing and freeing every element.
func (l MessageList) Clear() { l.m.ClearMessages(l.f, l.t) }

// All iterates over the elements as At returns them: see
// MessageField.All.
func (l MessageList) All() iter.Seq2[int, Msg] { return l.field().All(l.t) }

// Insert inserts a new, empty element at index i and returns it.
func (l MessageList) Insert(i int) Msg { return l.m.InsertMessage(l.f, i, l.t) }

// Erase removes elements [i, j), clearing and freeing them.
func (l MessageList) Erase(i, j int) bool { return l.m.EraseMessages(l.f, i, j, l.t) }

// Swap exchanges the contents of l and o in O(1); both must live in the
// same payload, and their elements be of one type.
func (l MessageList) Swap(o MessageList) bool { return l.t == o.t && l.field().Swap(o.field()) }

// AppendN adds n new elements and calls fill for each.
func (l MessageList) AppendN(n int, fill func(i int, elem Msg)) bool {
	return l.field().AppendN(n, l.t, fill)
}

// A MessageField is a repeated message field whose element type the caller
// passes to each method that makes or returns elements: the handle a
// generated list type wraps, which knows its element type. It is 32 bytes,
// which the compiler keeps in registers through the inlined accessors; a
// MessageList (40) it keeps in memory, and copying one there from the
// narrower stores that made it stalls store-to-load forwarding.
type MessageField struct {
	m Msg
	f Field
}

// NewMessageField returns the handle of repeated message field f of m.
func NewMessageField(m Msg, f Field) MessageField { return MessageField{m, f} }

// List returns l as the list handle of elements of type t.
func (l MessageField) List(t *Type) MessageList { return MessageList{l.m, l.f, t} }

// Len returns the number of elements: N for a fixed array.
func (l MessageField) Len() int {
	if l.f.Fixed != 0 {
		return int(l.f.Fixed)
	}
	return l.m.MessagesLen(l.f)
}

// At returns element i, of type t (a default message if out of range).
func (l MessageField) At(i int, t *Type) Msg { return l.m.ElemMessage(l.f, i, t) }

// Mutable returns element i, of type t, growing the list and creating the
// element as needed.
func (l MessageField) Mutable(i int, t *Type) Msg {
	if l.f.Fixed != 0 && !l.m.fillFixedMessages(l.f, i, t) {
		return Msg{p: l.m.p}
	}
	return l.m.MutableElem(l.f, i, t)
}

// Append adds a new, empty element of type t and returns it.
func (l MessageField) Append(t *Type) Msg { return l.m.AddMessage(l.f, t) }

// All iterates over the elements, of type t, as At returns them, resolving
// the field once and, in a v3 payload, checking the element table once for
// the elements that share it (At does both per element): see Cursor. The
// elements are those of the list when the iteration starts: writing the
// elements' fields is fine, but after adding, erasing or clearing elements
// during the iteration, the elements it yields are unspecified (each reads
// within the payload's bounds, like any handle).
func (l MessageField) All(t *Type) iter.Seq2[int, Msg] {
	// Inlined into a range over it, which then allocates nothing and makes
	// one call per run of elements (Runs), none per element: the inner loop
	// over a run keeps its offset, stride and count in registers, where a
	// Cursor's fields, which its general path takes by pointer, live in
	// memory.
	return func(yield func(int, Msg) bool) {
		r := Runs{l.m.cursor(l.f, t)}
		if l.f.Fixed != 0 {
			r.c.facade()
		}
		i := 0
		for {
			run, ok := r.Next()
			if !ok {
				return
			}
			p, acc, stride := run.p, run.acc, run.stride
			for n, o := run.n, run.off; n > 0; n, o = n-1, o+stride {
				if !yield(i, Msg{p, o, acc}) {
					return
				}
				i++
			}
		}
	}
}

// Swap exchanges the contents of l and o, whose elements must be of one
// type, in O(1); both must live in the same payload.
func (l MessageField) Swap(o MessageField) bool { return l.m.SwapRepeated(l.f, o.m, o.f) }

// AppendN adds n new elements of type t and calls fill for each.
func (l MessageField) AppendN(n int, t *Type, fill func(i int, elem Msg)) bool {
	l.m.ReserveMessages(l.f, l.Len()+n, t)
	for k := range n {
		e := l.m.AddMessage(l.f, t)
		if !e.IsPresent() {
			return false
		}
		fill(k, e)
	}
	return true
}

// StoreElem stores v as the stored bytes b[0:SizeOf[T]()] of one element.
func StoreElem[T Scalar](b []byte, v T) { putBits(b, SizeOf[T](), ToBits(v)) }

// Fixed arrays (phaser.array_size = N, Field.Fixed): the list handles read
// N elements, the ones not stored as defaults, and a write of element i
// stores N first (spec 5.10: the C++ ROS frontend pads the storage on
// mutable access). A write past N is refused (ErrArraySize).

// fillFixed makes fixed array f (elements of size bytes, 0 for strings)
// store its N elements before a write of element i, and reports whether i
// is in range.
func (m Msg) fillFixed(f Field, i, size int) bool {
	if i < 0 {
		return false
	}
	if m.exceeds(f, i+1) {
		return false
	}
	n := int(f.Fixed)
	if size == 0 {
		if m.Len(f, 4) < n {
			m.FixedStrings(f, n)
		}
	} else if m.Len(f, size) < n {
		m.Reserve(f, n, size)
		m.Resize(f, n, size)
	}
	return !m.Failed()
}

// fillFixedMessages is fillFixed for a fixed array of messages of type t:
// new elements are empty messages, as the C++ facade's Add makes them.
func (m Msg) fillFixedMessages(f Field, i int, t *Type) bool {
	if i < 0 || m.p == nil {
		return false
	}
	if m.exceeds(f, i+1) {
		return false
	}
	for m.MessagesLen(f) < int(f.Fixed) {
		if !m.AddMessage(f, t).IsPresent() {
			return false
		}
	}
	return true
}
