package impl

import (
	"slices"

	"github.com/phaser-go/phaser/internal/layout"
	"github.com/phaser-go/phaser/payloadbuffer"
)

// Msg is a handle on one message in a payload: the payload and the
// message's offset, never the field values. The zero Msg, and a handle on an
// absent nested message, read every field as its default and ignore writes.
// Generated message types wrap a Msg.
type Msg struct {
	p   *Payload
	off uint32
	acc access // how the handle reaches the message's fields
}

// access is how a handle reaches its message's fields: at the compiled
// offsets of its Type, or through the payload's own table.
type access uint8

const (
	// throughTable resolves each field through the table the message
	// carries (a payload from another version of the .proto or the other
	// frontend, a message that does not lie whole in the payload), and is
	// the access of the zero Msg and of absent messages.
	throughTable access = iota
	// compiledRead is a message whose table is its Type's compiled one and
	// whose compiled fields lie in the payload (off+Type.extent <=
	// len(mem), checked when the handle is made: the memory of a payload
	// never shrinks under its handles), in a read-only payload.
	compiledRead
	// compiledWrite is compiledRead in a writable payload.
	compiledWrite
)

// compiled reports whether m reads its fields at the compiled offsets.
func (m Msg) compiled() bool { return m.acc != throughTable }

// Compiled reports whether m reads and writes its fields at the compiled
// offsets of its Type (its table is the compiled one and its compiled
// fields lie in the payload), rather than through the payload's table.
// The accessors of a compiled handle take the fields of its own Type, each
// as wide as the field.
func (m Msg) Compiled() bool { return m.compiled() }

// Payload returns the payload the message lives in (nil for the zero Msg).
func (m Msg) Payload() *Payload { return m.p }

// Offset returns the message's offset in the payload (0 if absent).
func (m Msg) Offset() uint32 { return m.off }

// PayloadBytes returns the bytes of the payload the message lives in, as a
// sender transmits them (nil for the zero Msg).
func (m Msg) PayloadBytes() []byte {
	if m.p == nil {
		return nil
	}
	return m.p.Bytes()
}

// Failed reports whether a write was not stored: it did not fit in the
// message's fixed buffer, or it had no message or field to go to (Err says
// which). The zero Msg stores nothing: it reports true.
func (m Msg) Failed() bool { return m.p == nil || m.p.Failed() }

// Err returns the first error a write to the payload reported, or nil. The
// zero Msg, which has no payload to write, reports ErrNoMessage.
func (m Msg) Err() error {
	if m.p == nil {
		return ErrNoMessage
	}
	return m.p.Err()
}

// BoolByte returns the stored byte of a bool.
func BoolByte(v bool) uint8 {
	if v {
		return 1
	}
	return 0
}

// IsPresent reports whether the handle refers to a message in a payload.
func (m Msg) IsPresent() bool { return m.off != 0 }

// loc resolves field f: its offset in the payload and its presence id. For
// a compiled handle the id only tells an inline message (InlineID) from
// other fields: its scalars' presence bits are f.Byte() and f.Mask(),
// which the accessors' compiled paths use.
func (m Msg) loc(f Field) (off uint32, id uint8, ok bool) {
	if m.off == 0 {
		return 0, 0, false
	}
	if m.compiled() {
		if f.Inline() {
			id = InlineID
		}
		return m.off + f.Offset, id, true
	}
	return m.lookup(f.Number)
}

// lookup resolves a field number through the message's own table (schema
// evolution: the payload may come from another version of the .proto).
func (m Msg) lookup(number uint32) (uint32, uint8, bool) {
	mem := m.p.mem
	if uint64(m.off)+4 > uint64(len(mem)) {
		return 0, 0, false
	}
	tab := le.Uint32(mem[m.off:])
	if tab == 0 || uint64(tab) >= uint64(len(mem)) {
		return 0, 0, false
	}
	off, id, ok := layout.Lookup(mem[tab:], number)
	if !ok || uint64(m.off)+uint64(off) > uint64(len(mem)) {
		return 0, 0, false
	}
	return m.off + off, id, true
}

// at returns the offset of an n-byte value at field f, if it lies in the
// payload.
func (m Msg) at(f Field, n uint32) (uint32, bool) {
	if m.compiled() { // loc's common case, without its call
		if off := uint64(m.off) + uint64(f.Offset); off+uint64(n) <= uint64(len(m.p.mem)) {
			return uint32(off), true
		}
		return 0, false
	}
	off, _, ok := m.loc(f)
	if !ok || uint64(off)+uint64(n) > uint64(len(m.p.mem)) {
		return 0, false
	}
	return off, true
}

// writable reports whether a value can be stored in m, and records why
// not: the payload is read-only, or m is a handle on no message (the write
// is lost: ErrNoMessage).
func (m Msg) writable() bool {
	if m.off == 0 {
		if m.p != nil {
			if m.p.buf == nil {
				m.p.writable()
			} else {
				m.p.drop(ErrNoMessage)
			}
		}
		return false
	}
	return m.p.writable()
}

// clearable reports whether m can be cleared: a clear of a handle on no
// message has nothing to clear and loses nothing. A read-only payload
// records ErrReadOnly.
func (m Msg) clearable() bool {
	if m.off == 0 {
		if m.p != nil && m.p.buf == nil {
			m.p.writable()
		}
		return false
	}
	return m.p.writable()
}

// The scalar accessors of a compiled handle are a load or store at the
// field's compiled offset and its presence bit, and inline into generated
// code and its callers; every other handle takes the general path, out of
// line. Each accessor is written as a function of the general path it
// falls back on: the inliner charges a call through a parameter 17 where
// it charges any other call 57, which keeps the accessor within its
// budget, and the exported accessor passes its general path as a
// constant, which inlining turns into a direct call. The compiled offsets
// need no bounds checks of their own: a compiled handle's fields lie in
// the payload (see compiledRead), and the compiler's checks stay.

// bytes returns the payload from the compiled handle m's message on.
func (m Msg) bytes() []byte { return m.p.mem[m.off:] }

// Get8 returns the 1-byte value of scalar field f, or 0 if f is absent.
func (m Msg) Get8(f Field) uint8 { return m.get8(f, Msg.present8) }

// The getters and setters that generated accessors inline read the
// presence bit as uint8(f.Bits) and uint8(f.Bits>>8) (Field.Byte and
// Field.Mask written out: the method calls cost the inliner more, which
// would put the accessors over its budget).
func (m Msg) get8(f Field, general func(Msg, Field) uint8) uint8 {
	if m.acc != throughTable {
		if b := m.p.mem[m.off:]; b[uint8(f.Bits)]&uint8(f.Bits>>8) != 0 {
			return b[f.Offset]
		}
		return 0
	}
	return general(m, f)
}

// Get32 returns the 4-byte value of scalar field f, or 0 if f is absent.
func (m Msg) Get32(f Field) uint32 { return m.get32(f, Msg.present32) }

func (m Msg) get32(f Field, general func(Msg, Field) uint32) uint32 {
	if m.acc != throughTable {
		if b := m.p.mem[m.off:]; b[uint8(f.Bits)]&uint8(f.Bits>>8) != 0 {
			return le.Uint32(b[f.Offset:])
		}
		return 0
	}
	return general(m, f)
}

// Get64 returns the 8-byte value of scalar field f, or 0 if f is absent.
func (m Msg) Get64(f Field) uint64 { return m.get64(f, Msg.present64) }

func (m Msg) get64(f Field, general func(Msg, Field) uint64) uint64 {
	if m.acc != throughTable {
		if b := m.p.mem[m.off:]; b[uint8(f.Bits)]&uint8(f.Bits>>8) != 0 {
			return le.Uint64(b[f.Offset:])
		}
		return 0
	}
	return general(m, f)
}

// GetSigned32 and GetSigned64 are Get32 and Get64 for a signed integer or
// enum field, whose general path sign-extends a narrower stored value
// (Field.Signed, which f need not set): generated getters pass a Field
// literal of at most 4 fields, which the compiler keeps as constants in the
// inlined accessor (a literal of more is copied from static data to the
// stack, and each use of a field is then a load).
func (m Msg) GetSigned32(f Field) uint32 { return m.get32(f, Msg.presentSigned32) }

// GetSigned64 is Get64 for a signed field (see GetSigned32).
func (m Msg) GetSigned64(f Field) uint64 { return m.get64(f, Msg.presentSigned64) }

// GetSigned32Or is Get32Or for a signed field (see GetSigned32).
func (m Msg) GetSigned32Or(f Field, d uint32) uint32 { return m.get32Or(f, d, Msg.presentSigned32Or) }

// GetSigned64Or is Get64Or for a signed field (see GetSigned32).
func (m Msg) GetSigned64Or(f Field, d uint64) uint64 { return m.get64Or(f, d, Msg.presentSigned64Or) }

// The general paths of the GetSigned accessors.
func (m Msg) presentSigned32(f Field) uint32 { f.Bits |= SignedField; return m.present32(f) }

func (m Msg) presentSigned64(f Field) uint64 { f.Bits |= SignedField; return m.present64(f) }

func (m Msg) presentSigned32Or(f Field, d uint32) uint32 {
	f.Bits |= SignedField
	return m.present32Or(f, d)
}

func (m Msg) presentSigned64Or(f Field, d uint64) uint64 {
	f.Bits |= SignedField
	return m.present64Or(f, d)
}

// Get8Or, Get32Or and Get64Or are Get8, Get32 and Get64 for a field with a
// default other than zero (proto2 [default = ...], or a proto2 enum whose
// first value is not 0): an absent field reads as d.
func (m Msg) Get8Or(f Field, d uint8) uint8 { return m.get8Or(f, d, Msg.present8Or) }

func (m Msg) get8Or(f Field, d uint8, general func(Msg, Field, uint8) uint8) uint8 {
	if m.acc != throughTable {
		if b := m.p.mem[m.off:]; b[uint8(f.Bits)]&uint8(f.Bits>>8) != 0 {
			return b[f.Offset]
		}
		return d
	}
	return general(m, f, d)
}

// Get32Or is Get32 for a field whose default is d (see Get8Or).
func (m Msg) Get32Or(f Field, d uint32) uint32 { return m.get32Or(f, d, Msg.present32Or) }

func (m Msg) get32Or(f Field, d uint32, general func(Msg, Field, uint32) uint32) uint32 {
	// An absent field takes the general path, which returns d: a return
	// of d here would put the float getters with a default over the
	// inliner's budget.
	if m.acc != throughTable {
		if b := m.p.mem[m.off:]; b[uint8(f.Bits)]&uint8(f.Bits>>8) != 0 {
			return le.Uint32(b[f.Offset:])
		}
	}
	return general(m, f, d)
}

// Get64Or is Get64 for a field whose default is d (see Get8Or).
func (m Msg) Get64Or(f Field, d uint64) uint64 { return m.get64Or(f, d, Msg.present64Or) }

func (m Msg) get64Or(f Field, d uint64, general func(Msg, Field, uint64) uint64) uint64 {
	// An absent field takes the general path, which returns d: a return
	// of d here would put the float getters with a default over the
	// inliner's budget.
	if m.acc != throughTable {
		if b := m.p.mem[m.off:]; b[uint8(f.Bits)]&uint8(f.Bits>>8) != 0 {
			return le.Uint64(b[f.Offset:])
		}
	}
	return general(m, f, d)
}

// present8Or, present32Or and present64Or are the general paths of
// Get8Or, Get32Or and Get64Or.
func (m Msg) present8Or(f Field, d uint8) uint8 {
	if o, ok := m.present(f, 1); ok {
		return uint8(m.scalarAt(f, o, o, 1))
	}
	return d
}

func (m Msg) present32Or(f Field, d uint32) uint32 {
	if o, ok := m.present(f, 1); ok {
		return uint32(m.scalarAt(f, o, o, 4))
	}
	return d
}

func (m Msg) present64Or(f Field, d uint64) uint64 {
	if o, ok := m.present(f, 1); ok {
		return m.scalarAt(f, o, o, 8)
	}
	return d
}

// present8, present32 and present64 are the general paths of Get8, Get32
// and Get64.
func (m Msg) present8(f Field) uint8 {
	if o, ok := m.present(f, 1); ok {
		return uint8(m.scalarAt(f, o, o, 1))
	}
	return 0
}

func (m Msg) present32(f Field) uint32 {
	if o, ok := m.present(f, 1); ok {
		return uint32(m.scalarAt(f, o, o, 4))
	}
	return 0
}

func (m Msg) present64(f Field) uint64 {
	if o, ok := m.present(f, 1); ok {
		return m.scalarAt(f, o, o, 8)
	}
	return 0
}

// Schema evolution of scalars (docs/format.md, "Schema evolution"). A
// message read through its own table may come from a version of the .proto
// in which a field had another width: protobuf lets int32, uint32, int64,
// uint64 and bool change into one another (sint32 into sint64, an enum
// into int32, ...), and reads the old value converted. The table records
// offsets, not widths, but a value ends where the next field or union the
// table places begins, and slots are 1, 4 or 8 bytes: that gap bounds the
// width. A value stored narrower than the handle's field is extended (sign
// extended for a signed field), a wider one truncated, as protobuf's wire
// format converts them; a write of a value the stored width cannot hold is
// not stored and reported (FieldError). A compiled handle's table is its
// Type's: its widths are the compiled ones.

// storedWidth returns the width of the value at payload offset value of
// the field whose entry in m's table is at payload offset entry (a union's
// for a oneof member), for an access of n bytes: the slot size (1, 4 or 8)
// that fits before the table's next entry, or n when no entry follows.
func (m Msg) storedWidth(entry, value, n uint32) uint32 {
	if m.compiled() {
		return n
	}
	mem := m.p.mem
	tab := le.Uint32(mem[m.off:]) // m.off+4 and tab lie in mem: m resolved entry through it
	if uint64(tab) >= uint64(len(mem)) {
		return n
	}
	next, ok := layout.NextOffset(mem[tab:], entry-m.off)
	if !ok {
		return n
	}
	switch gap := uint64(m.off) + uint64(next) - uint64(value); {
	case gap >= 8:
		return 8
	case gap >= 4:
		return 4
	case gap >= 1:
		return 1
	}
	return n
}

// scalarAt returns the n-byte value of scalar field f, stored at payload
// offset value (its entry at entry), converted from the width it is stored
// in. A 1-byte (bool) field is 1 if any stored byte is set.
func (m Msg) scalarAt(f Field, entry, value, n uint32) uint64 {
	w := m.storedWidth(entry, value, n)
	if n > 1 {
		w = min(w, n)
	}
	mem := m.p.mem
	if uint64(value)+uint64(w) > uint64(len(mem)) {
		if w = n; uint64(value)+uint64(n) > uint64(len(mem)) {
			return 0
		}
	}
	var v uint64
	switch w {
	case 1:
		v = uint64(mem[value])
	case 4:
		v = uint64(le.Uint32(mem[value:]))
		if f.Signed() && n == 8 {
			v = uint64(int64(int32(v)))
		}
	default:
		v = le.Uint64(mem[value:])
	}
	if n == 1 && w > 1 && v != 0 {
		v = 1
	}
	return v
}

// storeScalarAt stores the n-byte value v of scalar field f at payload
// offset value (its entry at entry) in the width it is stored in there. It
// reports false, storing nothing and recording a FieldError, when that
// width cannot hold v.
func (m Msg) storeScalarAt(f Field, entry, value, n uint32, v uint64) bool {
	w := m.storedWidth(entry, value, n)
	mem := m.p.mem
	if w < n {
		if !fitsWidth(f, n, w, v) || uint64(value)+uint64(w) > uint64(len(mem)) {
			m.p.drop(m.p.narrowError(m.off, f, n, w, v))
			return false
		}
		putWidth(mem[value:], w, v)
		return true
	}
	if uint64(value)+uint64(n) > uint64(len(mem)) {
		m.p.drop(m.p.fieldError(m.off, f.Number))
		return false
	}
	putWidth(mem[value:], n, v)
	if w > n && uint64(value)+uint64(w) <= uint64(len(mem)) {
		// A field stored wider (the .proto since narrowed it): its
		// remaining bytes must extend the value, or a reader of the wider
		// field sees what they held before. Bytes that already do (the
		// zero padding after a value of the compiled width) stay as they
		// are.
		ext := uint64(0)
		if n == 4 && f.Signed() && int32(v) < 0 {
			ext = ^uint64(0)
		}
		var want [8]byte
		putWidth(want[:], 8, ext)
		if string(mem[value+n:value+w]) != string(want[:w-n]) {
			copy(mem[value+n:value+w], want[:w-n])
		}
	}
	return true
}

// fitsWidth reports whether w bytes (fewer than n) hold the n-byte value v
// of field f: 0 or 1 in a bool's byte, an int32 or uint32 in 4.
func fitsWidth(f Field, n, w uint32, v uint64) bool {
	if n == 4 && f.Signed() {
		v = uint64(int64(int32(v)))
	}
	switch {
	case w == 1:
		return v <= 1
	case f.Signed():
		return int64(v) == int64(int32(v))
	}
	return v == uint64(uint32(v))
}

// narrowError is the error of a write of the n-byte value v to field f of
// the message at off, which stores it in w bytes, too few for v.
func (p *Payload) narrowError(off uint32, f Field, n, w uint32, v uint64) error {
	if n == 4 && f.Signed() {
		v = uint64(int64(int32(v)))
	}
	return &FieldError{Type: p.typeNameAt(off), Number: f.Number, Width: w, Value: v, Signed: f.Signed()}
}

// putWidth stores the low w bytes (1, 4 or 8) of v at b.
func putWidth(b []byte, w uint32, v uint64) {
	switch w {
	case 1:
		b[0] = uint8(v)
	case 4:
		le.PutUint32(b, uint32(v))
	default:
		le.PutUint64(b, v)
	}
}

// Raw32 returns the 4-byte value stored for scalar field f whether or not
// it is present: after ClearX the bytes keep the old value, which C++ getters
// return. Get32 is what accessors use.
func (m Msg) Raw32(f Field) uint32 {
	if o, ok := m.at(f, 4); ok {
		return le.Uint32(m.p.mem[o:])
	}
	return 0
}

// Raw64 is Raw32 for 8-byte fields.
func (m Msg) Raw64(f Field) uint64 {
	if o, ok := m.at(f, 8); ok {
		return le.Uint64(m.p.mem[o:])
	}
	return 0
}

// Raw8 is Raw32 for 1-byte fields.
func (m Msg) Raw8(f Field) uint8 {
	if o, ok := m.at(f, 1); ok {
		return m.p.mem[o]
	}
	return 0
}

// present returns the offset of scalar field f's n-byte value if f's
// presence bit is set and the value lies in the payload. (C++ getters read
// the value without looking at the bit, so a cleared field reads stale
// there; here it reads 0.)
func (m Msg) present(f Field, n uint32) (uint32, bool) {
	off, id, ok := m.loc(f)
	if !ok {
		return 0, false
	}
	mem := m.p.mem
	if m.compiled() { // the presence bit is f's own (loc gives no id)
		if b := uint64(m.off) + uint64(f.Byte()); b >= uint64(len(mem)) || mem[b]&f.Mask() == 0 ||
			uint64(off)+uint64(n) > uint64(len(mem)) {
			return 0, false
		}
		return off, true
	}
	w := uint64(m.off) + 4 + 4*uint64(id>>5)
	if w+4 > uint64(len(mem)) || le.Uint32(mem[w:])&(1<<(id&31)) == 0 ||
		uint64(off)+uint64(n) > uint64(len(mem)) {
		return 0, false
	}
	return off, true
}

// Has reports whether the scalar field f is present (its presence bit).
func (m Msg) Has(f Field) bool { return m.has(f, Msg.hasGeneral) }

func (m Msg) has(f Field, general func(Msg, Field) bool) bool {
	if m.acc != throughTable {
		return m.p.mem[m.off+uint32(f.Byte())]&f.Mask() != 0
	}
	return general(m, f)
}

func (m Msg) hasGeneral(f Field) bool {
	_, ok := m.present(f, 0)
	return ok
}

// setBit sets or clears the presence bit of id.
func (m Msg) setBit(id uint8, on bool) {
	w := m.off + 4 + 4*uint32(id>>5)
	v := le.Uint32(m.p.mem[w:])
	if on {
		v |= 1 << (id & 31)
	} else {
		v &^= 1 << (id & 31)
	}
	le.PutUint32(m.p.mem[w:], v)
}

// wloc resolves field f for a write of n bytes, and checks that the
// presence word of its id lies in the payload too (a received table can
// give any id).
func (m Msg) wloc(f Field, n uint32) (uint32, uint8, bool) {
	if m.acc == compiledWrite { // loc's common case, without its call
		var id uint8
		if f.Inline() {
			id = InlineID
		}
		if off := m.off + f.Offset; uint64(off)+uint64(n) <= uint64(len(m.p.mem)) {
			return off, id, true
		}
		return 0, 0, false
	}
	return m.wlocGeneral(f, n, true)
}

// compiledSlot is wloc's common case, small enough to inline into a setter: the
// offset of field f (n bytes) of a message with the compiled layout, or
// false when the caller must take wloc (which gives the same answer when
// the field does not fit).
func (m Msg) compiledSlot(f Field, n uint32) (uint32, bool) {
	if m.acc == compiledWrite {
		if off := m.off + f.Offset; uint64(off)+uint64(n) <= uint64(len(m.p.mem)) {
			return off, true
		}
	}
	return 0, false
}

// cloc is wloc for a write that clears field f: a field the message lacks
// (or a handle on no message) is already clear, and nothing is lost.
func (m Msg) cloc(f Field, n uint32) (uint32, uint8, bool) {
	if m.acc == compiledWrite {
		return m.wloc(f, n)
	}
	return m.wlocGeneral(f, n, false)
}

// wlocGeneral is wloc's general path. A field the message's table does not
// have, or places outside the payload, cannot be stored: a store records
// a FieldError (ErrNoField), so that the value is not lost silently.
func (m Msg) wlocGeneral(f Field, n uint32, store bool) (uint32, uint8, bool) {
	if store && !m.writable() || !store && !m.clearable() {
		return 0, 0, false
	}
	off, id, ok := m.loc(f)
	if mem := m.p.mem; ok && (uint64(off)+uint64(n) > uint64(len(mem)) || uint64(m.off)+8+4*uint64(id>>5) > uint64(len(mem))) {
		ok = false
	}
	if !ok {
		if store {
			m.p.drop(m.p.fieldError(m.off, f.Number))
		}
		return 0, 0, false
	}
	return off, id, true
}

// Set8 stores a 1-byte value in field f and marks it present.
func (m Msg) Set8(f Field, v uint8) { m.set8(f, v, Msg.set8General) }

func (m Msg) set8(f Field, v uint8, general func(Msg, Field, uint8)) {
	if m.acc == compiledWrite {
		b := m.p.mem[m.off:]
		b[f.Offset] = v
		b[uint8(f.Bits)] |= uint8(f.Bits >> 8)
		return
	}
	general(m, f, v)
}

func (m Msg) set8General(f Field, v uint8) {
	if o, id, ok := m.wloc(f, 1); ok && m.storeScalarAt(f, o, o, 1, uint64(v)) {
		m.setBit(id, true)
	}
}

// Set32 stores a 4-byte value in field f and marks it present.
func (m Msg) Set32(f Field, v uint32) { m.set32(f, v, Msg.set32General) }

func (m Msg) set32(f Field, v uint32, general func(Msg, Field, uint32)) {
	if m.acc == compiledWrite {
		b := m.p.mem[m.off:]
		le.PutUint32(b[f.Offset:], v)
		b[uint8(f.Bits)] |= uint8(f.Bits >> 8)
		return
	}
	general(m, f, v)
}

func (m Msg) set32General(f Field, v uint32) {
	if o, id, ok := m.wloc(f, 1); ok && m.storeScalarAt(f, o, o, 4, uint64(v)) {
		m.setBit(id, true)
	}
}

// Set64 stores an 8-byte value in field f and marks it present.
func (m Msg) Set64(f Field, v uint64) { m.set64(f, v, Msg.set64General) }

func (m Msg) set64(f Field, v uint64, general func(Msg, Field, uint64)) {
	if m.acc == compiledWrite {
		b := m.p.mem[m.off:]
		le.PutUint64(b[f.Offset:], v)
		b[uint8(f.Bits)] |= uint8(f.Bits >> 8)
		return
	}
	general(m, f, v)
}

func (m Msg) set64General(f Field, v uint64) {
	if o, id, ok := m.wloc(f, 1); ok && m.storeScalarAt(f, o, o, 8, uint64(v)) {
		m.setBit(id, true)
	}
}

// ClearScalar clears the presence bit of field f. The value bytes stay, as
// in C++; getters of an absent field should check Has.
func (m Msg) ClearScalar(f Field) { m.clearScalar(f, Msg.clearGeneral) }

func (m Msg) clearScalar(f Field, general func(Msg, Field)) {
	if m.acc == compiledWrite && !m.p.scrub {
		b := m.p.mem[m.off:]
		b[f.Byte()] &^= f.Mask()
		return
	}
	general(m, f)
}

func (m Msg) clearGeneral(f Field) {
	o, id, ok := m.cloc(f, 0)
	if !ok {
		return
	}
	if m.acc == compiledWrite { // (a payload that scrubs)
		b := m.p.mem[m.off:]
		b[f.Byte()] &^= f.Mask()
	} else {
		m.setBit(id, false)
	}
	if m.p.scrub && f.Size() != 0 { // the value too, in the width it is stored in
		if w := m.storedWidth(o, o, uint32(f.Size())); uint64(o)+uint64(w) <= uint64(len(m.p.mem)) {
			clear(m.p.mem[o : o+w])
		}
	}
}

// Strings and bytes.

// slot returns the uint32 slot (string header or message offset) at o.
func (m Msg) slot(f Field) uint32 {
	if o, ok := m.at(f, 4); ok {
		return le.Uint32(m.p.mem[o:])
	}
	return 0
}

// stringAt returns the string whose header is at payload offset o,
// bounded by the payload.
func (p *Payload) stringAt(o uint32) []byte {
	if uint64(o)+4 > uint64(len(p.mem)) {
		return nil
	}
	s := le.Uint32(p.mem[o:])
	if s == 0 || uint64(s)+4 > uint64(len(p.mem)) {
		return nil
	}
	n := le.Uint32(p.mem[s:])
	if uint64(s)+4+uint64(n) > uint64(len(p.mem)) {
		return nil
	}
	return p.mem[s+4 : s+4+n : s+4+n]
}

// StringBytes returns the bytes of string or bytes field f without copying
// (nil if absent). The slice aliases the payload: it is valid until the
// field is next written or an owned buffer grows.
func (m Msg) StringBytes(f Field) []byte {
	if m.compiled() { // the slot at the compiled offset, then the string's bounds
		// Each word sliced with a constant capacity: no pointer mask
		// for an empty slice.
		mem := m.p.mem
		mem = mem[:len(mem):len(mem)]
		o := uint64(m.off) + uint64(f.Offset)
		s := uint64(le.Uint32(mem[o : o+4 : o+4]))
		if s == 0 || s+4 > uint64(len(mem)) {
			return nil
		}
		n := uint64(le.Uint32(mem[s : s+4 : s+4]))
		if s+4+n > uint64(len(mem)) {
			return nil
		}
		return mem[s+4 : s+4+n : s+4+n]
	}
	o, ok := m.at(f, 4)
	if !ok {
		return nil
	}
	return m.p.stringAt(o)
}

// HasString reports whether string or bytes field f is present.
func (m Msg) HasString(f Field) bool { return m.slot(f) != 0 }

// SetString stores s in string or bytes field f.
func (m Msg) SetString(f Field, s string) {
	o, ok := m.compiledSlot(f, 4)
	if !ok {
		if o, _, ok = m.wloc(f, 4); !ok {
			return
		}
	}
	if p := m.p; p.nlive != 0 { // after a Clear (reuse.go)
		// setStringAside's common case, in line: the block set aside from
		// this (empty) slot is the entry after the one taken last, and s,
		// of 8 to 16 bytes, fits it as overwriteAside writes it
		// (Assigner.ShortAt and PutShort write the same bytes).
		mem, so := p.mem, uint64(o)
		if i, ok := p.nextAside(o); ok && p.reuseKind[i] == entryString && so+4 <= uint64(len(mem)) && le.Uint32(mem[so:so+4:so+4]) == 0 {
			blk, length, n := p.reuseBlock[i], p.reuseLen[i], uint64(len(s))
			if blk != 0 && uint64(blk)+uint64(length) <= uint64(len(mem)) && (n+4+7)&^7 <= uint64(length) {
				if w, z := (Assigner{p}).ShortAt(KeptBlock{blk, length}, len(s)); w != nil {
					p.took(i)
					Assigner{}.PutShort(w, z, s)
					le.PutUint32(mem[so:so+4:so+4], blk)
					return
				}
			}
		}
		if p.setStringAside(o, s) {
			return
		}
	}
	if m.p.buf.RefillString(o, s) { // in place: the memory is unchanged, no sync
		return
	}
	if !m.p.buf.SetString(o, s) {
		m.p.fail()
	}
	m.p.sync()
}

// SetBytes stores s in string or bytes field f. s may alias the payload.
func (m Msg) SetBytes(f Field, s []byte) {
	o, ok := m.compiledSlot(f, 4)
	if !ok {
		if o, _, ok = m.wloc(f, 4); !ok {
			return
		}
	}
	if m.p.nlive != 0 && m.p.setBytesAside(o, s) { // after a Clear (reuse.go)
		return
	}
	if !m.p.buf.SetBytes(o, s) {
		m.p.fail()
	}
	m.p.sync()
}

// AllocateString makes string field f n bytes long and returns the bytes
// for the caller to fill (C++ allocate_x), or nil if the buffer is full.
func (m Msg) AllocateString(f Field, n int) []byte {
	o, _, ok := m.wloc(f, 4)
	if !ok {
		return nil
	}
	return m.allocateAt(o, n)
}

// allocateAt makes the string whose StringHeader is at o n bytes long and
// returns its bytes, or nil if the buffer is full.
func (m Msg) allocateAt(o uint32, n int) []byte {
	d := m.p.buf.AllocateString(o, n, m.p.allocateFlags())
	m.p.sync()
	if d == 0 {
		m.p.fail()
		return nil
	}
	return m.p.mem[d : d+uint32(n) : d+uint32(n)]
}

// allocateFlags are the flags of C++ AllocateString (spec 2.10).
func (p *Payload) allocateFlags() payloadbuffer.Flags {
	if p.version == payloadbuffer.V3 {
		return payloadbuffer.Small
	}
	return payloadbuffer.Zero
}

// ClearString frees string or bytes field f.
func (m Msg) ClearString(f Field) {
	if o, _, ok := m.cloc(f, 4); ok {
		m.p.buf.ClearString(o)
	}
}

// Messages.

// Message returns a handle on message field f of type t. An absent field
// gives a handle that reads as the default message (IsPresent is false).
//
// For a compiled handle, the slot is read in line and one call (bind)
// makes the nested handle: in a payload that trusts what it wrote
// (tables.go) without reading the nested message's table, in any other
// with the table the payload's cache knows for t, or compared once.
func (m Msg) Message(f Field, t *Type) Msg {
	return m.message(f, t, Msg.messageGeneral, (*Payload).bind)
}

func (m Msg) message(f Field, t *Type, general func(Msg, Field, *Type) Msg, slot func(*Payload, uint32, *Type) Msg) Msg {
	if m.acc != throughTable && !f.Inline() {
		return slot(m.p, le.Uint32(m.p.mem[m.off+f.Offset:]), t)
	}
	return general(m, f, t)
}

// SlotMessage is Message for a field that is not Field.Inline (stored in
// a slot holding its offset), what the generated getters of such fields
// call: it leaves out Message's test of the flag, which would put them
// over the inliner's budget.
func (m Msg) SlotMessage(f Field, t *Type) Msg {
	return m.slotMessage(f, t, Msg.messageGeneral, (*Payload).bind)
}

func (m Msg) slotMessage(f Field, t *Type, general func(Msg, Field, *Type) Msg, slot func(*Payload, uint32, *Type) Msg) Msg {
	if m.acc != throughTable {
		return slot(m.p, le.Uint32(m.p.mem[m.off+f.Offset:]), t)
	}
	return general(m, f, t)
}

// NestedAt returns, for a generated codec, the message of type t whose
// offset s the compiled message m holds in a (non-inline) message slot, as
// Message returns it: the codec has read the slot at its compiled offset.
// In a payload that trusts what it wrote the handle is made inline; in any
// other, one call finds the table this payload gives t.
func (m Msg) NestedAt(s uint32, t *Type) Msg { return m.nestedAt(s, t, (*Payload).bind) }

func (m Msg) nestedAt(s uint32, t *Type, general func(*Payload, uint32, *Type) Msg) Msg {
	if p := m.p; p.trust&t.trust != 0 && s != 0 && uint64(s)+uint64(t.extent) <= uint64(len(p.mem)) {
		return Msg{p, s, m.acc}
	}
	return general(m.p, s, t)
}

// InlineMessage is Message for a field whose compiled layout stores the
// message inside its holder (Field.Inline: the ROS frontend's layout in
// format v3): a compiled handle in a payload that trusts what it wrote
// makes the nested handle inline.
func (m Msg) InlineMessage(f Field, t *Type) Msg { return m.inlineMessage(f, t, Msg.messageGeneral) }

func (m Msg) inlineMessage(f Field, t *Type, general func(Msg, Field, *Type) Msg) Msg {
	// The message in the holder has the table of the ROS frontend's Type of
	// its name, whoever made it (MutableMessage): in a trusted payload
	// whose compiled handle m has an inline field, t is that Type.
	if m.acc != throughTable && m.p.trust != 0 {
		if o := m.off + f.Offset; le.Uint32(m.p.mem[o:]) != 0 {
			return Msg{m.p, o, m.acc}
		}
	}
	return general(m, f, t)
}

// messageGeneral is the general path of Message.
func (m Msg) messageGeneral(f Field, t *Type) Msg {
	if m.compiled() && !f.Inline() { // the compiled layout: a slot
		return m.p.bind(le.Uint32(m.bytes()[f.Offset:]), t)
	}
	s, ok := m.inlineSlot(f)
	if ok {
		if le.Uint32(m.p.mem[s:]) == 0 {
			return Msg{p: m.p} // an inline message whose word is 0: absent
		}
	} else if s = m.slot(f); s == 0 {
		return Msg{p: m.p}
	}
	return m.p.bind(s, t)
}

// InlineID is the presence id that marks, in a payload's table, a singular
// message stored inside its holder (Phaser 3 ROS frontend, spec 8.9).
const InlineID = layout.InlineID

// inlineSlot returns where message field f is stored when it is stored
// inline, whether or not it is present.
func (m Msg) inlineSlot(f Field) (uint32, bool) {
	if m.off == 0 {
		return 0, false
	}
	off, id, ok := m.loc(f)
	if !ok || id != InlineID || uint64(off)+4 > uint64(len(m.p.mem)) {
		return 0, false
	}
	return off, true
}

// HasMessage reports whether message field f is present.
func (m Msg) HasMessage(f Field) bool {
	if o, ok := m.inlineSlot(f); ok {
		return le.Uint32(m.p.mem[o:]) != 0
	}
	return m.slot(f) != 0
}

// MutableMessage returns message field f, creating it if absent.
func (m Msg) MutableMessage(f Field, t *Type) Msg {
	if m.acc == compiledWrite && f.Bits&InlineField == 0 { // compiledSlot, in int arithmetic
		p := m.p
		mem := p.mem
		if o := int(m.off) + int(f.Offset); o+4 <= len(mem) {
			s := le.Uint32(mem[o : o+4])
			if s == 0 {
				// mutableAt's, the slot's bounds known: the message a
				// Clear set aside from this slot (reuse.go), else a new one.
				if p.nlive == 0 {
					return p.newAt(uint32(o), t)
				}
				if s = p.takeReuse(uint32(o), t.id); s == 0 {
					return p.newAt(uint32(o), t)
				}
				le.PutUint32(mem[o:o+4], s)
			}
			// mutableAt's common case, and bind's in a payload that
			// trusts what it wrote: the message lies whole in the payload.
			// (The handle's compiledWrite says that p is writable: the
			// access compiledAccess would give.)
			if s >= p.floor && int(s)+int(t.extent) <= len(mem) && p.trust&t.trust != 0 {
				return Msg{p: p, off: s, acc: compiledWrite}
			}
			return p.bind(s, t)
		}
	}
	o, id, ok := m.wloc(f, 4)
	if !ok {
		return Msg{p: m.p}
	}
	if id == InlineID { // stored in the holder (spec 8.9)
		if le.Uint32(m.p.mem[o:]) == 0 {
			// The holder's layout made room for the ROS frontend's layout
			// of the type, whatever the frontend of t.
			it := t.inlineType()
			if it == nil {
				return Msg{p: m.p}
			}
			size := it.BinarySize(m.p.version)
			if uint64(o)+uint64(size) > uint64(len(m.p.mem)) {
				return Msg{p: m.p}
			}
			// The new message is empty. In a payload that trusts what it
			// wrote an absent one's slots are zero (a Clear zeroed them);
			// in one continued with Open they are whatever the peer left,
			// and a vector header or string slot among them would be
			// followed by the writes to come: its bytes are zeroed.
			if m.p.trust&it.trust == 0 {
				clear(m.p.mem[o : o+size])
			}
			if !m.p.installMetadata(o, it) {
				return Msg{p: m.p}
			}
		}
		return m.p.bind(o, t)
	}
	return m.p.mutableAt(o, t)
}

// mutableAt returns the message of type t whose offset the (non-inline)
// message slot at o holds, creating it if the slot is empty; a handle that
// is not present is a full buffer. o+4 lies in the payload.
func (p *Payload) mutableAt(o uint32, t *Type) Msg {
	if s := le.Uint32(p.mem[o:]); s != 0 {
		return p.bind(s, t)
	}
	if p.nlive != 0 { // a decoding that set this slot's message aside (reuse.go)
		if s := p.takeReuse(o, t.id); s != 0 {
			le.PutUint32(p.mem[o:], s)
			return p.bind(s, t)
		}
	}
	return p.newAt(o, t)
}

// newAt creates a message of type t in the empty (non-inline) message slot
// at o: mutableAt's allocation. o+4 lies in the payload.
func (p *Payload) newAt(o uint32, t *Type) Msg {
	n := p.newMessage(t)
	if n == 0 {
		return Msg{p: p}
	}
	le.PutUint32(p.mem[o:], n)
	if !p.installMetadata(n, t) {
		return Msg{p: p}
	}
	return Msg{p: p, off: n, acc: p.accessFor(t)}
}

// newMessage allocates a zeroed message of type t (no metadata yet).
func (p *Payload) newMessage(t *Type) uint32 {
	n := p.buf.Allocate(int(t.BinarySize(p.version)), payloadbuffer.Zero|payloadbuffer.Small)
	p.sync()
	if n == 0 {
		p.fail()
	}
	return n
}

// ClearMessage clears and frees message field f.
func (m Msg) ClearMessage(f Field, t *Type) {
	o, id, ok := m.cloc(f, 4)
	if !ok {
		return
	}
	if id == InlineID { // release the contents, zero the word
		if le.Uint32(m.p.mem[o:]) != 0 {
			m.p.bind(o, t).Clear(t)
			le.PutUint32(m.p.mem[o:], 0)
		}
		return
	}
	if s := le.Uint32(m.p.mem[o:]); s != 0 {
		if m.releasable(s) {
			m.p.bind(s, t).Clear(t)
			m.p.buf.Free(s)
		}
		le.PutUint32(m.p.mem[o:], 0)
	}
}

// Clear clears every field of the message (C++ Clear, spec 5.12): the
// non-oneof fields in declaration order, then every oneof.
//
// Clear of the root message of a buffer that filled up, and of the root of
// any v3 payload this process created, resets the buffer to its state right
// after the root was created (docs/format.md): it can be filled again, and
// the cost does not grow with the number of fields and elements. Handles on
// the root stay valid. A v3 root whose type holds only singular fields,
// nested messages of such types and repeated scalars keeps its blocks
// instead, for the setters of the next fill to take back (keep.go). A v2
// root this process created clears as C++ does,
// and the blocks C++ leaves allocated are freed when an allocation finds no
// room (payloadbuffer.Buffer.Collect); its Clear resets from then on, and
// from the first Clear that finds the previous one's blocks still there.
func (m Msg) Clear(t *Type) {
	if !m.clearable() {
		return
	}
	if m.p.isRoot(m, t) {
		// Format 3 keeps the blocks of a root that holds only singular
		// fields for the fields set next (reuse.go); else it resets.
		if m.p.version == payloadbuffer.V3 && m.keepBlocks(t) {
			return
		}
		m.p.EndReuse() // the blocks the last Clear kept, if any
		// Format 2 clears the root as C++ does until the buffer runs out
		// of room, or the previous Clear left garbage behind (the payload
		// would carry leaked blocks from cycle to cycle, and grow).
		if m.p.buf.Failed() || m.p.buf.Reclaimed() || m.p.buf.Garbage() > 0 {
			m.p.resets = true
		}
		if (m.p.resets || m.p.version == payloadbuffer.V3) && m.p.reset(t) {
			return
		}
	}
	// A payload continued with Open can hold a message inside itself (a
	// slot, element or oneof pointing back up): bound the nesting as the
	// readers do, rather than recurse until the stack overflows.
	if len(m.p.clearing) >= maxDepth {
		return
	}
	m.clearUnknown()
	m.p.clearing = append(m.p.clearing, m.off)
	m.clearFields(t)
	m.p.clearing = m.p.clearing[:len(m.p.clearing)-1]
	if m.off == m.p.buf.Message() && m.p.root == t {
		m.p.buf.Collect(m.p.liveBlocks())
	}
	if m.off == m.p.buf.Message() && !m.p.buf.Failed() {
		// The root cleared: the payload starts afresh, and the writes not
		// stored before are history.
		m.p.err, m.p.lost = nil, false
	}
}

// liveBlocks lists the blocks a payload whose root is clear still uses, in
// storage the payload keeps (a fill/Clear loop allocates nothing).
//
// The list depends only on the root, its table and the control block's
// entries, which a payload only appends to: while the root, its table, the
// control block and the entry count stay, the last list (which Collect
// sorted in place) is the answer again, and a fill/Clear loop of format 2
// neither lists nor sorts the blocks each time.
func (p *Payload) liveBlocks() []uint32 {
	root := p.buf.Message()
	var key [4]uint32
	key[0] = root
	if uint64(root)+4 <= uint64(len(p.mem)) {
		key[1] = le.Uint32(p.mem[root:])
	}
	cb := p.control()
	if cb != 0 {
		key[2], key[3] = cb, le.Uint32(p.mem[cb+offCount:])
	}
	if len(p.keep) > 0 && key == p.keepKey {
		return p.keep
	}
	p.keepKey = key
	keep := append(p.keep[:0], root)
	defer func() { p.keep = slices.Grow(keep, len(keep))[:len(keep)] }() // room for more next time
	if uint64(root)+4 <= uint64(len(p.mem)) {
		keep = append(keep, le.Uint32(p.mem[root:]))
	}
	if cb != 0 {
		keep = append(keep, cb)
		count := key[3]
		es, base := p.entrySize(), cb+p.controlHeader()
		if uint64(base)+uint64(count)*uint64(es) <= uint64(len(p.mem)) {
			for i := range count {
				e := base + i*es
				if p.version == payloadbuffer.V3 {
					keep = append(keep, le.Uint32(p.mem[e+8:]))
				} else {
					keep = append(keep, le.Uint32(p.mem[e:]), le.Uint32(p.mem[e+4:]))
				}
			}
		}
	}
	return keep
}

// releasable reports whether a Clear of m may clear and free the message
// at s, which one of m's fields holds: not m itself, nor the root, nor a
// message whose Clear is under way. In a payload continued with Open a
// slot or an element can point at any of them (a cycle, or a message
// shared with a live one up the tree); clearing and freeing it there freed
// the root or freed a block twice, and later allocations overwrote live
// fields. The caller only zeroes its slot then.
func (m Msg) releasable(s uint32) bool {
	if s == m.off || s == m.p.buf.Message() {
		return false
	}
	for _, a := range m.p.clearing {
		if a == s {
			return false
		}
	}
	return true
}

// clearFields clears every field of m, for Clear.
func (m Msg) clearFields(t *Type) {
	if t.isAny {
		m.releaseAnyValue()
	}
	for _, f := range t.fields {
		if f.Union != nil {
			continue
		}
		switch {
		case f.Repeated:
			m.ClearRepeated(f)
		case f.Kind == String || f.Kind == Bytes:
			m.ClearString(f.Field)
		case f.Kind == Message:
			m.ClearMessage(f.Field, f.Type)
		default:
			m.ClearScalar(f.Field)
		}
	}
	for _, u := range t.unions {
		for _, f := range u.Members {
			m.ClearOneof(u, f.Field)
		}
	}
}

// As returns m as a handle of type t: the same message, read with t's
// compiled offsets only when its table is t's (a handle made for one
// frontend's Type, converted to the other's).
func (m Msg) As(t *Type) Msg {
	if m.p == nil {
		return m
	}
	return m.p.bind(m.off, t)
}

// Dynamic is a message handle with its type: what runtime.Msg is.
type Dynamic struct {
	m Msg
	t *Type
}

// DynamicOf returns the handle m of type t with its type.
func DynamicOf(m Msg, t *Type) Dynamic { return Dynamic{m, t} }

// Msg returns the handle.
func (d Dynamic) Msg() Msg { return d.m }

// Type returns the handle's type (nil for the zero Dynamic).
func (d Dynamic) Type() *Type { return d.t }
