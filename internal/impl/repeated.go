package impl

import (
	"fmt"
	"iter"

	"github.com/phaser-go/phaser/payloadbuffer"
)

// Repeated fields (spec 5.4-5.6): a VectorHeader {num, data} slot. Scalars
// and enums are stored inline (size 1, 4 or 8); strings and messages as
// uint32 offsets.

// vec returns the element array of repeated field f holding elements of
// size bytes, bounded by the payload: a vector whose elements would not all
// lie in the payload reads as empty.
func (m Msg) vec(f Field, size uint32) (data uint32, n int) {
	return m.vecOf(f, size, Msg.vecGeneral)
}

// vecOf is vec with its general path as a parameter (see the scalar
// accessors): a compiled handle reads the VectorHeader at its compiled
// offset inline.
func (m Msg) vecOf(f Field, size uint32, general func(Msg, Field, uint32) (uint32, int)) (uint32, int) {
	if m.acc != throughTable {
		mem := m.p.mem
		h := mem[m.off+f.Offset:]
		num, data := le.Uint32(h), le.Uint32(h[4:])
		if num == 0 || data == 0 || uint64(data)+uint64(num)*uint64(size) > uint64(len(mem)) {
			return 0, 0
		}
		return data, int(num)
	}
	return general(m, f, size)
}

// vecGeneral is the general path of vec.
func (m Msg) vecGeneral(f Field, size uint32) (data uint32, n int) {
	o, ok := m.at(f, 8)
	if !ok {
		return 0, 0
	}
	num, data := le.Uint32(m.p.mem[o:]), le.Uint32(m.p.mem[o+4:])
	if num == 0 || data == 0 || uint64(data)+uint64(num)*uint64(size) > uint64(len(m.p.mem)) {
		return 0, 0
	}
	return data, int(num)
}

// Len returns the number of elements of repeated field f whose elements are
// size bytes (4 for strings and messages).
func (m Msg) Len(f Field, size int) int {
	_, n := m.vec(f, uint32(size))
	return n
}

// Elem returns the payload offset of element i (size bytes) of repeated
// field f, or 0 if i is out of range.
func (m Msg) Elem(f Field, i, size int) uint32 {
	data, n := m.vec(f, uint32(size))
	if i < 0 || i >= n {
		return 0
	}
	return data + uint32(i*size)
}

// Elem8, Elem32 and Elem64 return element i of a repeated scalar field (0
// if out of range).
func (m Msg) Elem8(f Field, i int) uint8 {
	if o := m.Elem(f, i, 1); o != 0 {
		return m.p.mem[o]
	}
	return 0
}

// Elem32 returns 4-byte element i of repeated field f.
func (m Msg) Elem32(f Field, i int) uint32 {
	if o := m.Elem(f, i, 4); o != 0 {
		return le.Uint32(m.p.mem[o:])
	}
	return 0
}

// Elem64 returns 8-byte element i of repeated field f.
func (m Msg) Elem64(f Field, i int) uint64 {
	if o := m.Elem(f, i, 8); o != 0 {
		return le.Uint64(m.p.mem[o:])
	}
	return 0
}

// Span returns the raw element bytes of repeated scalar field f (n elements
// of size bytes), aliasing the payload.
func (m Msg) Span(f Field, size int) []byte {
	data, n := m.vec(f, uint32(size))
	if n == 0 {
		return nil
	}
	return m.p.mem[data : data+uint32(n*size) : data+uint32(n*size)]
}

// MutableSpan is Span for a write of the elements (a decoder's, after it
// sized the field): nil, and the payload failed with ErrCorrupt, when they
// lie in the buffer header (a vector header read from a payload continued
// with Open, or written behind the handle since the field was sized), as
// welem refuses them.
func (m Msg) MutableSpan(f Field, size int) []byte {
	data, n := m.vec(f, uint32(size))
	if n == 0 || m.p.buf == nil { // (no elements, or a read-only payload)
		return nil
	}
	if data < m.p.floor {
		m.p.corrupt()
		return nil
	}
	return m.p.mem[data : data+uint32(n*size) : data+uint32(n*size)]
}

// welem returns the offset of element i for a write, or 0 if i is out of
// range. Elements that lie in the buffer header (a vector header read from
// a payload continued with Open) are not written, and the payload fails
// with ErrCorrupt, as bind refuses a message there: the allocator keeps
// its state in the header.
func (m Msg) welem(f Field, i, size int) uint32 {
	if !m.writable() {
		return 0
	}
	data, n := m.vec(f, uint32(size))
	if i < 0 || i >= n {
		return 0
	}
	if data < m.p.floor {
		m.p.corrupt()
		return 0
	}
	return data + uint32(i*size)
}

// SetElem8, SetElem32 and SetElem64 store element i (ignored if out of
// range).
func (m Msg) SetElem8(f Field, i int, v uint8) {
	if o := m.welem(f, i, 1); o != 0 {
		m.p.mem[o] = v
	}
}

// SetElem32 stores 4-byte element i of repeated field f.
func (m Msg) SetElem32(f Field, i int, v uint32) {
	if o := m.welem(f, i, 4); o != 0 {
		le.PutUint32(m.p.mem[o:], v)
	}
}

// SetElem64 stores 8-byte element i of repeated field f.
func (m Msg) SetElem64(f Field, i int, v uint64) {
	if o := m.welem(f, i, 8); o != 0 {
		le.PutUint64(m.p.mem[o:], v)
	}
}

// vslot returns the VectorHeader offset of repeated field f for a write.
func (m Msg) vslot(f Field) (uint32, bool) {
	o, _, ok := m.wloc(f, 8)
	return o, ok
}

// cslot is vslot for a write that removes elements: a field the message
// lacks has none, and nothing is lost.
func (m Msg) cslot(f Field) (uint32, bool) {
	o, _, ok := m.cloc(f, 8)
	return o, ok
}

// exceeds reports whether a write that leaves repeated field f with n
// elements stores more than its fixed array holds (Field.Fixed), and
// records the refusal.
func (m Msg) exceeds(f Field, n int) bool {
	if f.Fixed == 0 || n <= int(f.Fixed) {
		return false
	}
	if m.p != nil {
		m.p.drop(fmt.Errorf("phaser: field %d: %d elements, array_size %d: %w", f.Number, n, f.Fixed, ErrArraySize))
	}
	return true
}

// push appends a zeroed element of size bytes and returns its offset.
func (m Msg) push(f Field, size int) uint32 {
	o, ok := m.vslot(f)
	if !ok || f.Fixed != 0 && m.exceeds(f, m.p.buf.VectorLen(o)+1) {
		return 0
	}
	e := m.p.buf.VectorPush(o, size)
	m.p.sync()
	if e == 0 {
		m.p.fail()
	}
	return e
}

// Push8, Push32 and Push64 append a value to a repeated scalar field.
func (m Msg) Push8(f Field, v uint8) {
	if e := m.push(f, 1); e != 0 {
		m.p.mem[e] = v
	}
}

// Push32 appends a 4-byte value to repeated field f.
func (m Msg) Push32(f Field, v uint32) {
	if e := m.push(f, 4); e != 0 {
		le.PutUint32(m.p.mem[e:], v)
	}
}

// Push64 appends an 8-byte value to repeated field f.
func (m Msg) Push64(f Field, v uint64) {
	if e := m.push(f, 8); e != 0 {
		le.PutUint64(m.p.mem[e:], v)
	}
}

// Reserve makes room for n elements of size bytes in repeated field f.
func (m Msg) Reserve(f Field, n, size int) {
	if o, ok := m.vslot(f); ok {
		if !m.p.buf.VectorReserve(o, n, size) {
			m.p.fail()
		}
		m.p.sync()
	}
}

// Resize sets the length of repeated field f to n elements of size bytes;
// new elements are zero (absent, for strings and messages).
func (m Msg) Resize(f Field, n, size int) {
	if o, ok := m.vslot(f); ok && !m.exceeds(f, n) {
		if !m.p.buf.VectorResize(o, n, size) {
			m.p.fail()
		}
		m.p.sync()
	}
}

// ClearVector empties a repeated scalar field and frees its storage.
func (m Msg) ClearVector(f Field) {
	if o, ok := m.cslot(f); ok {
		m.p.buf.VectorClear(o)
	}
}

// Repeated strings and bytes.

// ElemString returns element i of a repeated string or bytes field (nil if
// out of range or absent), aliasing the payload.
func (m Msg) ElemString(f Field, i int) []byte {
	o := m.Elem(f, i, 4)
	if o == 0 {
		return nil
	}
	return m.p.stringAt(le.Uint32(m.p.mem[o:]))
}

// PushString appends s to a repeated string field.
func (m Msg) PushString(f Field, s string) {
	if o, ok := m.vslot(f); ok && !(f.Fixed != 0 && m.exceeds(f, m.p.buf.VectorLen(o)+1)) {
		if !m.p.buf.PushString(o, s) {
			m.p.fail()
		}
		m.p.sync()
	}
}

// PushBytes appends s to a repeated bytes field; s may alias the payload.
func (m Msg) PushBytes(f Field, s []byte) {
	if o, ok := m.vslot(f); ok && !(f.Fixed != 0 && m.exceeds(f, m.p.buf.VectorLen(o)+1)) {
		if !m.p.buf.PushBytes(o, s) {
			m.p.fail()
		}
		m.p.sync()
	}
}

// SetElemString stores s as element i, growing the field if i is past its
// end (C++ set_x(i, s)).
func (m Msg) SetElemString(f Field, i int, s string) {
	if o, ok := m.vslot(f); ok && !m.exceeds(f, i+1) {
		if !m.p.buf.SetStringAt(o, i, s) {
			m.p.fail()
		}
		m.p.sync()
	}
}

// SetElemBytes is SetElemString for bytes; s may alias the payload.
func (m Msg) SetElemBytes(f Field, i int, s []byte) {
	if o, ok := m.vslot(f); ok && !m.exceeds(f, i+1) {
		if !m.p.buf.SetBytesAt(o, i, s) {
			m.p.fail()
		}
		m.p.sync()
	}
}

// ClearStrings empties a repeated string or bytes field.
func (m Msg) ClearStrings(f Field) {
	if o, ok := m.cslot(f); ok {
		m.p.buf.ClearStrings(o)
	}
}

// Repeated messages (2.1 layout: an array of element offsets).

// ElemMessage returns element i of a repeated message field of type t (a
// default message if out of range or absent).
func (m Msg) ElemMessage(f Field, i int, t *Type) Msg {
	if f.Fixed != 0 && uint64(i) >= uint64(f.Fixed) {
		return Msg{p: m.p} // a fixed array has N elements, whatever it stores
	}
	if m.v3() {
		return m.mvbElem(f, i, t)
	}
	o := m.Elem(f, i, 4)
	if o == 0 {
		return Msg{p: m.p}
	}
	return m.p.bind(le.Uint32(m.p.mem[o:]), t)
}

// AddMessage appends a new message of type t to repeated field f.
func (m Msg) AddMessage(f Field, t *Type) Msg {
	if !m.writable() || f.Fixed != 0 && m.exceeds(f, m.MessagesLen(f)+1) {
		return Msg{p: m.p}
	}
	if m.v3() {
		return m.mvbAdd(f, t)
	}
	n := m.p.newMessage(t)
	if n == 0 {
		return Msg{p: m.p}
	}
	e := m.push(f, 4)
	if e == 0 {
		m.p.buf.Free(n)
		return Msg{p: m.p}
	}
	le.PutUint32(m.p.mem[e:], n)
	if !m.p.installMetadata(n, t) {
		return Msg{p: m.p}
	}
	return Msg{p: m.p, off: n, acc: m.p.accessFor(t)}
}

// MutableElem returns element i of repeated message field f, growing the
// field and creating the element as needed (C++ Mutable(i)).
func (m Msg) MutableElem(f Field, i int, t *Type) Msg {
	o, ok := m.vslot(f)
	if !ok || i < 0 || m.exceeds(f, i+1) {
		return Msg{p: m.p}
	}
	if m.v3() {
		for m.MessagesLen(f) <= i {
			if !m.mvbAdd(f, t).IsPresent() {
				return Msg{p: m.p}
			}
		}
		return m.ElemMessage(f, i, t)
	}
	if i >= m.p.buf.VectorLen(o) || i >= m.p.buf.VectorCap(o, 4) {
		if !m.p.buf.VectorResize(o, i+1, 4) {
			m.p.fail()
			return Msg{p: m.p}
		}
		m.p.sync()
	}
	e := m.p.buf.VectorData(o) + 4*uint32(i)
	if s := le.Uint32(m.p.mem[e:]); s != 0 {
		return m.p.bind(s, t)
	}
	n := m.p.newMessage(t)
	if n == 0 {
		return Msg{p: m.p}
	}
	if e = m.p.elemSlot(o, i); e == 0 {
		return Msg{p: m.p}
	}
	le.PutUint32(m.p.mem[e:], n)
	if !m.p.installMetadata(n, t) {
		return Msg{p: m.p}
	}
	return Msg{p: m.p, off: n, acc: m.p.accessFor(t)}
}

// AllocateMessages sets repeated message field f to n new messages of type
// t carved from one allocation (C++ allocate_x(n), spec 5.6).
func (m Msg) AllocateMessages(f Field, n int, t *Type) {
	o, ok := m.vslot(f)
	if !ok || n <= 0 || m.exceeds(f, n) {
		return
	}
	if m.v3() {
		m.mvbClear(f, t)
		m.mvbReserve(f, n, t)
		m.p.mvbFill(o, n)
		return
	}
	if !m.p.buf.VectorResize(o, n, 4) {
		m.p.fail()
		return
	}
	a := (t.BinarySize(m.p.version) + 7) &^ 7
	big := m.p.buf.Allocate(n*int(a+8), payloadbuffer.Zero|payloadbuffer.Small)
	m.p.sync()
	if big == 0 {
		m.p.fail()
		return
	}
	for i := range uint32(n) {
		sub := big + i*(a+8)
		le.PutUint64(m.p.mem[sub:], uint64(a))
		if !m.p.installMetadata(sub+8, t) {
			return
		}
		e := m.p.elemSlot(o, int(i))
		if e == 0 {
			return
		}
		le.PutUint32(m.p.mem[e:], sub+8)
	}
}

// ClearMessages clears and frees every element of repeated message field f
// and empties it.
func (m Msg) ClearMessages(f Field, t *Type) {
	o, ok := m.cslot(f)
	if !ok {
		return
	}
	if m.v3() {
		m.mvbClear(f, t)
		return
	}
	num, data := m.p.buf.VectorLen(o), m.p.buf.VectorData(o)
	if data != 0 && uint64(data)+uint64(num)*4 <= uint64(len(m.p.mem)) {
		for i := range uint32(num) {
			if s := le.Uint32(m.p.mem[data+4*i:]); s != 0 && m.releasable(s) {
				m.p.bind(s, t).Clear(t)
				m.p.buf.Free(s)
			}
		}
	}
	m.p.buf.VectorClear(o)
}

// ClearRepeated empties repeated field fi, whatever its kind.
func (m Msg) ClearRepeated(fi *FieldInfo) {
	switch fi.Kind {
	case String, Bytes:
		m.ClearStrings(fi.Field)
	case Message:
		m.ClearMessages(fi.Field, fi.Type)
	default:
		m.ClearVector(fi.Field)
	}
}

// FixedStrings extends a repeated string field to n elements, each with its
// own empty StringHeader block, as the ROS frontend's fixed arrays
// (phaser.array_size) do on their first mutable access (spec 5.10).
func (m Msg) FixedStrings(f Field, n int) {
	o, ok := m.vslot(f)
	if !ok {
		return
	}
	have := m.p.buf.VectorLen(o)
	if have >= n {
		return
	}
	if !m.p.buf.VectorReserve(o, n, 4) || !m.p.buf.VectorResize(o, n, 4) {
		m.p.fail()
		m.p.sync()
		return
	}
	for i := have; i < n; i++ {
		hdr := m.p.buf.Allocate(4, payloadbuffer.Zero|payloadbuffer.Small)
		m.p.sync()
		if hdr == 0 {
			m.p.fail()
			return
		}
		e := m.p.elemSlot(o, i)
		if e == 0 {
			return
		}
		le.PutUint32(m.p.mem[e:], hdr)
	}
}

// Editing repeated fields in place (spec 8.15).

// InsertElems makes room for count zero elements of size bytes at index i
// of repeated field f and returns the offset of the first (0 if i is out of
// range or the buffer is full).
func (m Msg) InsertElems(f Field, i, count, size int) uint32 {
	o, ok := m.vslot(f)
	if !ok || f.Fixed != 0 && m.exceeds(f, m.p.buf.VectorLen(o)+count) {
		return 0
	}
	e := m.p.buf.VectorInsert(o, i, count, size)
	m.p.sync()
	if e == 0 && m.p.buf.Failed() {
		m.p.fail()
	}
	return e
}

// EraseElems removes elements [i, j) of a repeated scalar field.
func (m Msg) EraseElems(f Field, i, j, size int) bool {
	o, ok := m.cslot(f)
	return ok && m.p.buf.VectorErase(o, i, j, size)
}

// EraseStrings removes elements [i, j) of a repeated string or bytes field,
// freeing their strings.
func (m Msg) EraseStrings(f Field, i, j int) bool {
	o, ok := m.cslot(f)
	// Within the block's capacity too: the header may be hostile.
	if !ok || i < 0 || j < i || j > m.p.buf.VectorLen(o) || j > m.p.buf.VectorCap(o, 4) {
		return false
	}
	data := m.p.buf.VectorData(o)
	for k := i; k < j; k++ {
		if hdr := le.Uint32(m.p.mem[data+4*uint32(k):]); hdr != 0 {
			m.p.buf.ClearString(hdr)
			m.p.buf.Free(hdr)
		}
	}
	return m.p.buf.VectorErase(o, i, j, 4)
}

// EraseMessages removes elements [i, j) of a repeated message field,
// clearing and freeing them.
func (m Msg) EraseMessages(f Field, i, j int, t *Type) bool {
	if m.v3() {
		return m.writable() && m.mvbErase(f, i, j, t)
	}
	o, ok := m.cslot(f)
	if !ok || i < 0 || j < i || j > m.p.buf.VectorLen(o) || j > m.p.buf.VectorCap(o, 4) {
		return false
	}
	data := m.p.buf.VectorData(o)
	for k := i; k < j; k++ {
		if s := le.Uint32(m.p.mem[data+4*uint32(k):]); s != 0 && m.releasable(s) {
			m.p.bind(s, t).Clear(t)
			m.p.buf.Free(s)
		}
	}
	return m.p.buf.VectorErase(o, i, j, 4)
}

// InsertMessage inserts a new, empty message of type t at index i of
// repeated field f and returns it.
func (m Msg) InsertMessage(f Field, i int, t *Type) Msg {
	if m.v3() {
		if !m.writable() || f.Fixed != 0 && m.exceeds(f, m.MessagesLen(f)+1) {
			return Msg{p: m.p}
		}
		return m.mvbInsert(f, i, t)
	}
	e := m.InsertElems(f, i, 1, 4)
	if e == 0 {
		return Msg{p: m.p}
	}
	n := m.p.newMessage(t)
	if n == 0 {
		o, _ := m.vslot(f)
		m.p.buf.VectorErase(o, i, i+1, 4)
		return Msg{p: m.p}
	}
	o, _ := m.vslot(f)
	e = m.p.elemSlot(o, i)
	if e == 0 {
		return Msg{p: m.p}
	}
	le.PutUint32(m.p.mem[e:], n)
	if !m.p.installMetadata(n, t) {
		return Msg{p: m.p}
	}
	return Msg{p: m.p, off: n, acc: m.p.accessFor(t)}
}

// InsertString inserts s at index i of a repeated string field.
func (m Msg) InsertString(f Field, i int, s string) bool {
	if m.InsertElems(f, i, 1, 4) == 0 {
		return false
	}
	o, _ := m.vslot(f)
	hdr := m.p.buf.Allocate(4, payloadbuffer.Zero|payloadbuffer.Small)
	m.p.sync()
	if hdr == 0 || !m.p.buf.SetString(hdr, s) {
		m.p.buf.VectorErase(o, i, i+1, 4)
		m.p.fail()
		m.p.sync()
		return false
	}
	m.p.sync()
	e := m.p.elemSlot(o, i)
	if e == 0 {
		return false
	}
	le.PutUint32(m.p.mem[e:], hdr)
	return true
}

// elemSlot returns the offset of 4-byte element i (a string's or message's
// offset) of the vector whose header is at o, for a write after an
// allocation, which may have overwritten a header that lies in memory the
// allocator held free (payloadbuffer's VectorAt): 0, and the payload fails
// with ErrCorrupt, when the vector no longer holds element i.
func (p *Payload) elemSlot(o uint32, i int) uint32 {
	e := p.buf.VectorAt(o, i, i+1, 4)
	if e == 0 {
		p.corrupt()
	}
	return e
}

// SwapRepeated exchanges repeated fields f of m and g of o in O(1) when both
// live in the same payload and hold elements of the same type. It reports
// false otherwise.
func (m Msg) SwapRepeated(f Field, o Msg, g Field) bool {
	a, ok := m.vslot(f)
	b, ok2 := o.vslot(g)
	if !ok || !ok2 || m.p != o.p || m.exceeds(f, m.p.buf.VectorLen(b)) || o.exceeds(g, m.p.buf.VectorLen(a)) {
		return false
	}
	m.p.buf.VectorSwap(a, b)
	return true
}

// AppendElems adds n zero elements of size bytes to repeated field f with
// at most one allocation and returns the offset of the first.
func (m Msg) AppendElems(f Field, n, size int) uint32 {
	o, ok := m.vslot(f)
	if !ok || f.Fixed != 0 && m.exceeds(f, m.p.buf.VectorLen(o)+n) {
		return 0
	}
	e := m.p.buf.VectorAppendN(o, n, size)
	m.p.sync()
	if e == 0 && n > 0 {
		m.p.fail()
	}
	return e
}

// AppendCopy appends the elements in v (size bytes each, as stored) to
// repeated field f with at most one allocation and one copy, for a decoder
// of a packed record of fixed-width elements. It reports whether it stored
// them; a refusal (a full buffer, a fixed array that would hold more than
// its length) is recorded in the payload, as AppendElems records it.
func (m Msg) AppendCopy(f Field, v []byte, size int) bool {
	o, ok := m.vslot(f)
	if !ok {
		return false
	}
	if f.Fixed != 0 {
		// exceeds is called (a Field passed by value) only to refuse, and
		// the bound compared in bytes, so that the divide that counts the
		// elements is paid only then.
		if have := uint64(m.p.buf.VectorLen(o)); have*uint64(size)+uint64(len(v)) > uint64(f.Fixed)*uint64(size) && m.exceeds(f, int(have)+int(uint(len(v))/uint(size))) {
			return false
		}
	}
	if m.p.nlive != 0 && m.p.appendAside(o, v, size) { // a decoding after a Clear that kept the blocks (keep.go)
		return true
	}
	ok = m.p.buf.VectorAppendCopy(o, v, size)
	m.p.sync()
	if !ok {
		m.p.fail()
	}
	return ok
}

// AssignCopy replaces the elements of repeated field f with those in v
// (size bytes each, as stored), keeping the storage when it holds them
// (see List.Assign). A refusal (a full buffer, more than a fixed array
// holds, a read-only message) is recorded in the payload; the field is
// then unchanged.
func (m Msg) AssignCopy(f Field, v []byte, size int) bool {
	o, ok := m.compiledSlot(f, 8) // vslot's common case, in line
	if !ok {
		o, ok = m.vslot(f)
	}
	// The array bound compared in bytes: the divide that counts the
	// elements (a 64-bit DIV, tens of cycles) only when it refuses.
	if !ok || f.Fixed != 0 && uint64(len(v)) > uint64(f.Fixed)*uint64(size) && m.exceeds(f, int(uint(len(v))/uint(size))) {
		return false
	}
	if m.p.nlive != 0 && m.p.appendAside(o, v, size) { // after a Clear (keep.go): an empty vector
		return true
	}
	if m.p.storeOver(o, v, size) {
		return true
	}
	ok = m.p.buf.VectorAssign(o, v, size)
	m.p.sync()
	if !ok {
		m.p.fail()
	}
	return ok
}

// storeOver stores v, the stored bytes of whole elements of size bytes,
// over the elements of the vector whose header is at o (8 bytes in the
// memory) when it holds as many, and reports whether it did. Each element
// goes where Msg.SetElem* would store it: within the memory, past the
// buffer header (welem's checks), the vector's count and block as they
// were. It relies on nothing else (the block's length word is neither
// read nor changed), so that it is the same write as a loop of element
// stores, which a payload continued with Open allows as well.
func (p *Payload) storeOver(o uint32, v []byte, size int) bool {
	mem, at := p.mem, uint64(o)
	h := le.Uint64(mem[at : at+8])
	num, data := uint64(uint32(h)), uint64(h>>32)
	if num == 0 || num*uint64(size) != uint64(len(v)) || data < uint64(p.floor) || data+uint64(len(v)) > uint64(len(mem)) {
		return false
	}
	copy(mem[data:data+uint64(len(v))], v)
	return true
}

// v3 reports whether the message lives in a format v3 payload, whose
// repeated messages are MessageVectorBlocks.
func (m Msg) v3() bool { return m.p != nil && m.p.version == payloadbuffer.V3 }

// MessagesLen returns the number of elements of repeated message field f.
func (m Msg) MessagesLen(f Field) int {
	if m.v3() {
		_, _, n := m.mvbLen(f)
		return n
	}
	return m.Len(f, 4)
}

// LenOf returns the number of elements of repeated field fi, whatever its
// kind.
func (m Msg) LenOf(fi *FieldInfo) int {
	if fi.Kind == Message {
		return m.MessagesLen(fi.Field)
	}
	return m.Len(fi.Field, elemSize(fi.Kind))
}

// MessagesOf iterates over the elements of repeated message field fi, as
// MessageList.All does: the field is resolved, and each distinct element
// table checked, once (ElemMessage does both per element).
func (m Msg) MessagesOf(fi *FieldInfo) iter.Seq2[int, Msg] {
	return func(yield func(int, Msg) bool) { m.eachMessage(fi.Field, fi.Type, yield) }
}

// ReserveMessages makes room for n elements of repeated message field f.
func (m Msg) ReserveMessages(f Field, n int, t *Type) {
	if !m.writable() {
		return
	}
	if m.v3() {
		m.mvbReserve(f, n, t)
		return
	}
	m.Reserve(f, n, 4)
}

// ResizeMessages sets the length of repeated message field f to n. New
// elements are empty messages in format v3, and absent (read as default
// until MutableElem) in format v2, as in C++ 2.1.
func (m Msg) ResizeMessages(f Field, n int, t *Type) {
	if !m.writable() || n < 0 || m.exceeds(f, n) {
		return
	}
	if m.v3() {
		if have := m.MessagesLen(f); n < have {
			m.mvbErase(f, n, have, t)
		}
		for m.MessagesLen(f) < n {
			if !m.mvbAdd(f, t).IsPresent() {
				return
			}
		}
		return
	}
	// C++ 2.1 drops the offsets of the elements a shrink removes and
	// leaves the messages allocated; a payload that scrubs clears and
	// frees them, as Erase does.
	if have := m.Len(f, 4); n < have && m.p.buf.Scrubs() {
		m.EraseMessages(f, n, have, t)
	}
	m.Resize(f, n, 4)
}

// ResizeStrings sets the length of repeated string or bytes field f to n;
// new elements are empty. C++ 2.1 drops the StringHeaders of the elements
// a shrink removes and leaves their strings allocated; a payload that
// scrubs frees them, as EraseStrings does.
func (m Msg) ResizeStrings(f Field, n int) {
	if have := m.Len(f, 4); n < have && m.writable() && m.p.buf.Scrubs() {
		m.EraseStrings(f, n, have)
	}
	m.Resize(f, n, 4)
}
