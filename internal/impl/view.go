package impl

// View is the bytes of one message, bounds-checked once, for code that
// reads many of its scalar fields (the wire encoders): its getters are
// small enough for the compiler to inline, where Msg's must also handle a
// message whose table differs from the compiled one. A View exists only
// for a message laid out with its compiled table: Msg.View reports false
// otherwise, and the Msg getters are the way to read it.
//
// The zero View reads every field as absent. A View aliases the payload:
// like StringBytes, it is valid until the payload is next written.
type View struct {
	b []byte // the message: table word, presence words, fields
}

// View returns the view of m, a message of type t, and whether m is laid
// out with t's compiled table (its compiled fields lie in the payload: see
// compiledRead).
func (m Msg) View(t *Type) (View, bool) {
	if m.acc == throughTable {
		return View{}, false
	}
	end := m.off + t.extent
	return View{m.p.mem[m.off:end:end]}, true
}

// CompiledBytes returns, for a generated codec, the first n bytes of the
// compiled message m (n is its Type's extent, which the codec has as a
// constant) and the payload's bytes, or false if m is not compiled (or n
// bytes do not lie in the payload, which a compiled message's always do).
func (m Msg) CompiledBytes(n uint32) (msg, mem []byte, ok bool) {
	if m.acc == throughTable {
		return nil, nil, false
	}
	// In int arithmetic (no sum of two uint32s overflows it), so that
	// the slice's length and capacity are n where n is a constant: no
	// pointer mask for an empty slice, and the caller's conversion to
	// *[n]byte needs no check.
	mem = m.p.mem
	o, end := int(m.off), int(m.off)+int(n)
	if end > len(mem) {
		return nil, nil, false
	}
	return mem[o:end:end], mem, true
}

// Bytes returns the bytes of the View: for Msg.View's, the message's own
// (its table word, presence words and compiled fields, Type.extent bytes),
// for code that reads them at the compiled offsets itself (generated
// codecs), aliasing the payload like the View; for a copy ViewOf made, the
// copy, which holds the singular scalars only.
func (v View) Bytes() []byte { return v.b }

// has reports whether the presence bit of scalar field f is set.
// It reads Field.Bits directly, as msg.go's get8 does: the method calls
// cost the inliner more than the getters built on has can spare.
func (v View) has(f Field) bool {
	i := uint8(f.Bits)
	return int(i) < len(v.b) && v.b[i]&uint8(f.Bits>>8) != 0
}

// Has reports whether scalar field f is present.
func (v View) Has(f Field) bool { return v.has(f) }

// Get8 returns the 1-byte value of scalar field f, or 0 if f is absent.
func (v View) Get8(f Field) uint8 {
	if o := int(f.Offset); o < len(v.b) && v.has(f) {
		return v.b[o]
	}
	return 0
}

// Get32 returns the 4-byte value of scalar field f, or 0 if f is absent.
func (v View) Get32(f Field) uint32 {
	if o := int(f.Offset); o+4 <= len(v.b) && v.has(f) {
		return le.Uint32(v.b[o : o+4 : o+4])
	}
	return 0
}

// Get64 returns the 8-byte value of scalar field f, or 0 if f is absent.
func (v View) Get64(f Field) uint64 {
	if o := int(f.Offset); o+8 <= len(v.b) && v.has(f) {
		return le.Uint64(v.b[o : o+8 : o+8])
	}
	return 0
}

// Get8Or, Get32Or and Get64Or are Get8, Get32 and Get64 for a field whose
// default is d (see Msg.Get8Or).
func (v View) Get8Or(f Field, d uint8) uint8 {
	if o := int(f.Offset); o < len(v.b) && v.has(f) {
		return v.b[o]
	}
	return d
}

// Get32Or is Get32 for a field whose default is d.
func (v View) Get32Or(f Field, d uint32) uint32 {
	if o := int(f.Offset); o+4 <= len(v.b) && v.has(f) {
		return le.Uint32(v.b[o : o+4 : o+4])
	}
	return d
}

// Get64Or is Get64 for a field whose default is d.
func (v View) Get64Or(f Field, d uint64) uint64 {
	if o := int(f.Offset); o+8 <= len(v.b) && v.has(f) {
		return le.Uint64(v.b[o : o+8 : o+8])
	}
	return d
}

// ViewOf returns a view of m, a message of type t, whatever its layout:
// m's bytes when it has t's compiled table (View), else a copy of its
// singular scalar fields, outside oneofs, laid out with t's compiled table
// and allocated here (a payload written with another version of the
// schema). An absent m gives the zero View.
func (m Msg) ViewOf(t *Type) View { return m.viewOf(t, Msg.viewCopy) }

// viewOf is ViewOf with its copy as a parameter (see the scalar
// accessors): it inlines.
func (m Msg) viewOf(t *Type, copied func(Msg, *Type) View) View {
	if v, ok := m.View(t); ok {
		return v
	}
	return copied(m, t)
}

// viewCopy is the general path of ViewOf: a copy of m's singular scalars
// laid out with t's compiled table.
func (m Msg) viewCopy(t *Type) View {
	if !m.IsPresent() {
		return View{}
	}
	n := uint32(8) // table word and a presence word at least
	for _, f := range t.fields {
		if viewable(f) {
			n = max(n, f.Offset+f.Size, uint32(f.Byte())+1)
		}
	}
	b := make([]byte, n)
	for _, f := range t.fields {
		if !viewable(f) || !m.Has(f.Field) {
			continue
		}
		switch f.Size {
		case 1:
			b[f.Offset] = m.Get8(f.Field)
		case 4:
			le.PutUint32(b[f.Offset:], m.Get32(f.Field))
		case 8:
			le.PutUint64(b[f.Offset:], m.Get64(f.Field))
		default:
			continue
		}
		b[f.Byte()] |= f.Mask()
	}
	return View{b}
}

// viewable reports whether ViewOf copies field f: a singular scalar
// outside any oneof.
func viewable(f *FieldInfo) bool {
	switch f.Kind {
	case Message, String, Bytes:
		return false
	}
	return !f.Repeated && f.Union == nil && f.Size <= 8
}

// Setter writes the singular scalars of one message in place with stores
// the compiler inlines, for code that writes many (the wire decoders,
// generated XSetter types). It exists only for a writable message laid out
// with its compiled table: Msg.Setter reports false otherwise, and the Msg
// setters are the way to write it. Like a Msg, it holds the payload and the
// message's offset, so it stays valid when an owned buffer grows.
type Setter struct {
	p   *Payload
	off uint32
}

// Setter returns a setter of m, a message of type t, and whether m is
// writable, laid out with t's compiled table and lies whole in the
// payload.
func (m Msg) Setter(t *Type) (Setter, bool) {
	if m.acc != compiledWrite || uint64(m.off)+uint64(t.csize) > uint64(len(m.p.mem)) {
		return Setter{}, false
	}
	return Setter{m.p, m.off}, true
}

// Set8 stores a 1-byte value in scalar field f and marks it present.
func (s Setter) Set8(f Field, v uint8) {
	if s.p == nil {
		return
	}
	mem := s.p.mem
	if o, w := uint64(s.off)+uint64(f.Offset), uint64(s.off)+uint64(f.Byte()); o < uint64(len(mem)) && w < uint64(len(mem)) {
		mem[o] = v
		mem[w] |= f.Mask()
	}
}

// Set32 stores a 4-byte value in scalar field f and marks it present.
func (s Setter) Set32(f Field, v uint32) {
	if s.p == nil {
		return
	}
	mem := s.p.mem
	if o, w := uint64(s.off)+uint64(f.Offset), uint64(s.off)+uint64(f.Byte()); o+4 <= uint64(len(mem)) && w < uint64(len(mem)) {
		le.PutUint32(mem[o:], v)
		mem[w] |= f.Mask()
	}
}

// Set64 stores an 8-byte value in scalar field f and marks it present.
func (s Setter) Set64(f Field, v uint64) {
	if s.p == nil {
		return
	}
	mem := s.p.mem
	if o, w := uint64(s.off)+uint64(f.Offset), uint64(s.off)+uint64(f.Byte()); o+8 <= uint64(len(mem)) && w < uint64(len(mem)) {
		le.PutUint64(mem[o:], v)
		mem[w] |= f.Mask()
	}
}

// Store8, Store32 and Store64 are Set8, Set32 and Set64 for the generated
// decoders, which pass a field's offset, presence byte and mask as
// constants: a Field literal, a struct of nine fields, is built in memory
// before the call reads it back, while three constant operands fold into
// the stores' addresses.
func (s Setter) Store8(off, pres uint32, mask, v uint8) {
	if s.p == nil {
		return
	}
	// Unsigned sums of two 32-bit offsets and slices of constant length:
	// the compiler proves the stores in range from the one check.
	mem := s.p.mem
	if o, w := uint(s.off)+uint(off), uint(s.off)+uint(pres); o < uint(len(mem)) && w < uint(len(mem)) {
		mem[o] = v
		mem[w] |= mask
	}
}

// Store32 stores a 4-byte value (Store8).
func (s Setter) Store32(off, pres uint32, mask uint8, v uint32) {
	if s.p == nil {
		return
	}
	mem := s.p.mem
	if o, w := uint(s.off)+uint(off), uint(s.off)+uint(pres); o+4 <= uint(len(mem)) && w < uint(len(mem)) {
		le.PutUint32(mem[o:o+4], v)
		mem[w] |= mask
	}
}

// Store64 stores an 8-byte value (Store8).
func (s Setter) Store64(off, pres uint32, mask uint8, v uint64) {
	if s.p == nil {
		return
	}
	mem := s.p.mem
	if o, w := uint(s.off)+uint(off), uint(s.off)+uint(pres); o+8 <= uint(len(mem)) && w < uint(len(mem)) {
		le.PutUint64(mem[o:o+8], v)
		mem[w] |= mask
	}
}

// MutableMessage returns the message of type t in the singular message
// field stored in a slot (not inline) at offset off of the message,
// creating it if absent: Msg.MutableMessage for the generated decoders,
// without resolving the field again. A handle that is not present is a
// buffer that is full, which the payload records.
func (s Setter) MutableMessage(off uint32, t *Type) Msg {
	p := s.p
	if p == nil {
		return Msg{}
	}
	if o := s.off + off; uint64(o)+4 <= uint64(len(p.mem)) {
		return p.mutableAt(o, t)
	}
	return Msg{p: p}
}

// StoreBytes stores v in the singular string or bytes field whose slot is
// at offset off of the message, as Msg.SetBytes does without resolving the
// field again (the Setter's message is laid out with its compiled table),
// and reports whether it was stored: false is a buffer that is full, which
// the payload records (Msg.Err). v may alias the payload.
func (s Setter) StoreBytes(off uint32, v []byte) bool {
	if s.p == nil {
		return false
	}
	return s.p.storeBytes(s.off+off, v)
}
