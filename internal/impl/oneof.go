package impl

// Oneofs (spec 5.7): [int32 discriminator][value] at the union's offset. The
// discriminator is the active member's field number, 0 for none. Every
// member's Field has the union's offset.

// unionAt returns the payload offset of union u, resolved through the first
// member the message's table knows.
func (m Msg) unionAt(u *Union) (uint32, bool) {
	for _, f := range u.Members {
		if o, ok := m.at(f.Field, 4); ok {
			return o, true
		}
	}
	return 0, false
}

// WhichOneof returns the field number of the active member of u, or 0.
func (m Msg) WhichOneof(u *Union) uint32 {
	if o, ok := m.unionAt(u); ok {
		return le.Uint32(m.p.mem[o:])
	}
	return 0
}

// member returns the offset of member f's value if f is the active member
// and its n bytes lie in the payload.
func (m Msg) member(f Field, n uint32) (uint32, bool) {
	o, ok := m.at(f, 4+n)
	if !ok || le.Uint32(m.p.mem[o:]) != f.Number {
		return 0, false
	}
	return o + 4, true
}

// HasMember reports whether f is the active member of its oneof.
func (m Msg) HasMember(f Field) bool {
	o, ok := m.at(f, 4)
	return ok && le.Uint32(m.p.mem[o:]) == f.Number
}

// Member8 returns the 1-byte value of oneof member f (0 unless active).
func (m Msg) Member8(f Field) uint8 {
	if o, ok := m.member(f, 1); ok {
		return uint8(m.scalarAt(f, o-4, o, 1))
	}
	return 0
}

// Member32 returns the 4-byte value of oneof member f (0 unless active).
func (m Msg) Member32(f Field) uint32 {
	if o, ok := m.member(f, 1); ok {
		return uint32(m.scalarAt(f, o-4, o, 4))
	}
	return 0
}

// Member64 returns the 8-byte value of oneof member f (0 unless active),
// converted from the width the message stores it in (see storedWidth).
func (m Msg) Member64(f Field) uint64 {
	if o, ok := m.member(f, 1); ok {
		return m.scalarAt(f, o-4, o, 8)
	}
	return 0
}

// MemberString returns string or bytes member f (nil unless active).
func (m Msg) MemberString(f Field) []byte {
	if o, ok := m.member(f, 4); ok {
		return m.p.stringAt(o)
	}
	return nil
}

// MemberMessage returns message member f of type t (a default message
// unless active).
func (m Msg) MemberMessage(f Field, t *Type) Msg {
	if o, ok := m.member(f, 4); ok {
		if s := le.Uint32(m.p.mem[o:]); s != 0 {
			return m.p.bind(s, t)
		}
	}
	return Msg{p: m.p}
}

// release frees what the active member of the union at o owns, sets the
// discriminator to 0 and zeroes the first 4 bytes of the value.
func (m Msg) release(u *Union, o uint32) {
	disc := le.Uint32(m.p.mem[o:])
	for _, f := range u.Members {
		if f.Number != disc {
			continue
		}
		switch f.Kind {
		case String, Bytes:
			m.p.buf.ClearString(o + 4)
		case Message:
			if s := le.Uint32(m.p.mem[o+4:]); s != 0 && m.releasable(s) {
				m.p.bind(s, f.Type).Clear(f.Type)
				m.p.buf.Free(s)
			}
		}
	}
	le.PutUint32(m.p.mem[o:], 0)
	clear(m.p.mem[o+4 : o+4+min(4, u.Size-4)])
}

// arm makes f the active member of u and returns the offset of its value
// (C++ Clear<j> of the other members, then PrepareArm).
func (m Msg) arm(u *Union, f Field) (uint32, bool) {
	if !m.writable() {
		return 0, false
	}
	o, ok := m.at(f, u.Size)
	if !ok {
		m.p.drop(m.p.fieldError(m.off, f.Number))
		return 0, false
	}
	if le.Uint32(m.p.mem[o:]) != f.Number {
		m.release(u, o)
		le.PutUint32(m.p.mem[o:], f.Number)
	}
	return o + 4, true
}

// SetMember8 makes f the active member of u with a 1-byte value.
func (m Msg) SetMember8(u *Union, f Field, v uint8) { m.setMember(u, f, 1, uint64(v)) }

// SetMember32 makes f the active member of u with a 4-byte value.
func (m Msg) SetMember32(u *Union, f Field, v uint32) { m.setMember(u, f, 4, uint64(v)) }

// SetMember64 makes f the active member of u with an 8-byte value.
func (m Msg) SetMember64(u *Union, f Field, v uint64) { m.setMember(u, f, 8, v) }

// setMember makes f the active member of u with an n-byte value, stored
// in the width the message stores it in (see storedWidth). A value that
// width cannot hold leaves the oneof as it was.
func (m Msg) setMember(u *Union, f Field, n uint32, v uint64) {
	if !m.writable() {
		return
	}
	o, ok := m.at(f, 4)
	if !ok {
		m.p.drop(m.p.fieldError(m.off, f.Number))
		return
	}
	if m.compiled() {
		if o, ok := m.arm(u, f); ok {
			putWidth(m.p.mem[o:], n, v)
		}
		return
	}
	if w := m.storedWidth(o, o+4, n); w < n && !fitsWidth(f, n, w, v) {
		m.p.drop(m.p.narrowError(m.off, f, n, w, v))
		return // too wide for the member's slot: nothing changed
	}
	if o, ok := m.arm(u, f); ok {
		m.storeScalarAt(f, o-4, o, n, v)
	}
}

// SetMemberString makes f the active member of u with a string value.
func (m Msg) SetMemberString(u *Union, f Field, s string) {
	if o, ok := m.arm(u, f); ok {
		if !m.p.buf.SetString(o, s) {
			m.p.fail()
		}
		m.p.sync()
	}
}

// SetMemberBytes makes f the active member of u with a bytes value, which
// may alias the payload.
func (m Msg) SetMemberBytes(u *Union, f Field, s []byte) {
	if o, ok := m.arm(u, f); ok {
		if !m.p.buf.SetBytes(o, s) {
			m.p.fail()
		}
		m.p.sync()
	}
}

// AllocateMember makes string or bytes member f of u active with a value of
// n bytes and returns the bytes for the caller to fill (C++ allocate_x on a
// oneof arm, a proto3 optional field included: the active arm is released
// first, spec 5.7), or nil if the buffer is full.
func (m Msg) AllocateMember(u *Union, f Field, n int) []byte {
	o, ok := m.arm(u, f)
	if !ok {
		return nil
	}
	return m.allocateAt(o, n)
}

// MutableMember makes message member f of type t active, creating it.
func (m Msg) MutableMember(u *Union, f Field, t *Type) Msg {
	o, ok := m.arm(u, f)
	if !ok {
		return Msg{p: m.p}
	}
	if s := le.Uint32(m.p.mem[o:]); s != 0 {
		return m.p.bind(s, t)
	}
	n := m.p.newMessage(t)
	if n == 0 || !m.p.installMetadata(n, t) {
		return Msg{p: m.p}
	}
	le.PutUint32(m.p.mem[o:], n)
	return Msg{p: m.p, off: n, acc: m.p.accessFor(t)}
}

// ClearOneof clears member f of u if it is active.
func (m Msg) ClearOneof(u *Union, f Field) {
	if !m.clearable() {
		return
	}
	if o, ok := m.at(f, u.Size); ok && le.Uint32(m.p.mem[o:]) == f.Number {
		m.release(u, o)
	}
}
