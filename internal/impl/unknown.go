package impl

import (
	"sort"
	"sync/atomic"

	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/phaser-go/phaser/payloadbuffer"
)

// Unknown fields (docs/format.md 7.13): the protobuf fields a message
// received that its type does not declare (fields of a newer .proto,
// proto2 extensions, a known field with another wire type, the value of an
// Any whose type this program does not link), kept in the payload so that
// a relay writes them back.
//
// A message's layout has no room for them, and C++ Phaser stores none, so
// they live beside the messages: in the unknown-field index, a block that
// the control block (the registry of field tables, spec 4.5) names under
// the key unknownName, which is not a protobuf full name, so that no C++
// or Go lookup of a message type finds it, and
//
//	+0   uint32 magic 0x4b554850 ("PHUK")
//	+4   uint32 count
//	+8   uint32 capacity
//	+12  uint32 0
//	+16  {uint32 message; uint32 fields}[capacity]
//
// with one entry per message that has unknown fields, sorted by the
// message's offset. fields is a StringHeader: the offset of a string
// block holding the message's unknown fields as protobuf wire bytes, in
// the order they arrived. The messages themselves, their tables and every
// known field keep the C++ layout, byte for byte; a payload without
// unknown fields has no index (nothing is allocated until a message keeps
// one).
//
// The index is keyed by offset, so the writes that free or move a message
// maintain it: Clear drops the message's entry (and, through the nested
// Clears, those of the messages it holds), and the element moves of a
// format-3 repeated field re-key the moved elements. A writer that does
// not know the index (C++ Phaser) and frees and re-creates a message that
// had unknown fields leaves its entry, which the message then at that
// offset inherits.

// unknownName is the control-block key of the unknown-field index: '/' and
// '-' cannot occur in a protobuf full name.
const unknownName = "phaser-go/unknown-fields"

var unknownHash = fnv1a(unknownName)

const (
	unknownMagic = 0x4b554850
	unkCount     = 4
	unkCapacity  = 8
	unkHeader    = 16
	unkEntry     = 8
)

// unknownKnown marks the cached index offset of Payload.unk as looked up.
const unknownKnown = 1 << 32

// unknownIndex returns the offset of the payload's unknown-field index, or
// 0 if it has none. The lookup is cached: readers of one payload may call
// it at once.
func (p *Payload) unknownIndex() uint32 {
	if v := atomic.LoadUint64(&p.unk); v != 0 {
		return uint32(v)
	}
	off := p.findUnknownIndex()
	atomic.StoreUint64(&p.unk, unknownKnown|uint64(off))
	return off
}

// noUnknown records that the payload has no unknown-field index (a payload
// just created, or reset).
func (p *Payload) noUnknown() { atomic.StoreUint64(&p.unk, unknownKnown) }

// findUnknownIndex looks the index up in the control block.
func (p *Payload) findUnknownIndex() uint32 {
	cb := p.readControl()
	if cb == 0 {
		return 0
	}
	e, ok := p.findEntry(cb, unknownHash, unknownName)
	if !ok {
		return 0
	}
	// (An index in the buffer header of a payload continued with Open is
	// none: its writes would land on the allocator's state.)
	idx := le.Uint32(p.mem[e+p.tableOffsetIn():])
	if idx == 0 || idx < p.floor || uint64(idx)+unkHeader > uint64(len(p.mem)) || le.Uint32(p.mem[idx:]) != unknownMagic {
		return 0
	}
	return idx
}

// readControl is control for any payload, read-only ones included: the
// header's metadata word is read from the bytes.
func (p *Payload) readControl() uint32 {
	if p.buf != nil {
		return p.control()
	}
	const offMetadata = 20
	if len(p.mem) < offMetadata+4 {
		return 0
	}
	cb := le.Uint32(p.mem[offMetadata:])
	if cb == 0 || uint64(cb)+uint64(p.controlHeader()) > uint64(len(p.mem)) ||
		le.Uint32(p.mem[cb:]) != controlMagic || le.Uint32(p.mem[cb+4:]) != p.controlVersion() {
		return 0
	}
	return cb
}

// unknownEntries returns the entries of the index at idx (an offset and a
// count) that lie in the payload. The header is read again at every use:
// a payload in shared memory can change under its readers.
func (p *Payload) unknownEntries(idx uint32) (base uint32, n uint32) {
	mem := p.mem
	if idx == 0 || uint64(idx)+unkHeader > uint64(len(mem)) {
		return 0, 0
	}
	count := le.Uint32(mem[idx+unkCount:])
	if uint64(idx)+unkHeader+uint64(count)*unkEntry > uint64(len(mem)) {
		return 0, 0
	}
	return idx + unkHeader, count
}

// unknownEntry returns the offset of the index entry of the message at
// off, and the position it has or would have.
func (p *Payload) unknownEntry(idx, off uint32) (e uint32, i uint32, ok bool) {
	base, n := p.unknownEntries(idx)
	lo, hi := uint32(0), n
	for lo < hi {
		mid := lo + (hi-lo)/2
		switch k := le.Uint32(p.mem[base+mid*unkEntry:]); {
		case k == off:
			return base + mid*unkEntry, mid, true
		case k < off:
			lo = mid + 1
		default:
			hi = mid
		}
	}
	return base + lo*unkEntry, lo, false
}

// unknownAt returns the unknown fields of the message at off, for the
// index at idx (nil if none).
func (p *Payload) unknownAt(idx, off uint32) []byte {
	if idx == 0 || off == 0 {
		return nil
	}
	e, _, ok := p.unknownEntry(idx, off)
	if !ok {
		return nil
	}
	return p.stringAt(e + 4)
}

// UnknownFields returns the unknown fields m keeps, as protobuf wire bytes
// in the order they arrived (nil if none). The slice aliases the payload:
// it is valid until the payload is next written.
func (m Msg) UnknownFields() []byte {
	if m.p == nil {
		return nil
	}
	return m.p.unknownAt(m.p.unknownIndex(), m.off)
}

// UnknownFieldsIn returns the unknown fields of m with the index of w.
func (m Msg) unknownIn(w *Wire) []byte {
	if w.unknown == 0 || m.p == nil {
		return nil
	}
	return m.p.unknownAt(w.unknown, m.off)
}

// SetUnknownFields replaces the unknown fields of m with b (protobuf wire
// bytes; nil or empty removes them). b may alias the payload. It reports
// false, recording why, if m cannot be written or the buffer is full.
func (m Msg) SetUnknownFields(b []byte) bool {
	if !m.writable() {
		return false
	}
	p := m.p
	idx := p.unknownIndex()
	if len(b) == 0 {
		if idx != 0 {
			p.dropUnknown(idx, m.off)
		}
		return true
	}
	if idx == 0 {
		if idx = p.newUnknownIndex(); idx == 0 {
			return false
		}
	}
	e, i, ok := p.unknownEntry(idx, m.off)
	if !ok {
		if e, ok = p.insertUnknown(idx, i, m.off); !ok {
			return false
		}
	}
	if !p.buf.SetBytes(e+4, b) {
		p.sync()
		p.fail()
		return false
	}
	p.sync()
	return true
}

// AddUnknownFields appends b to the unknown fields of m.
func (m Msg) AddUnknownFields(b []byte) bool {
	if len(b) == 0 {
		return true
	}
	old := m.UnknownFields()
	if len(old) == 0 {
		return m.SetUnknownFields(b)
	}
	joined := make([]byte, 0, len(old)+len(b))
	return m.SetUnknownFields(append(append(joined, old...), b...))
}

// newUnknownIndex creates the payload's unknown-field index and registers
// it in the control block (creating one in a payload that has none).
func (p *Payload) newUnknownIndex() uint32 {
	cb := p.control()
	if cb == 0 {
		if cb = p.newControl(); cb == 0 {
			return 0
		}
	}
	const capacity = 4
	idx := p.buf.Allocate(unkHeader+capacity*unkEntry, payloadbuffer.Zero|payloadbuffer.Small)
	p.sync()
	if idx == 0 {
		p.fail()
		return 0
	}
	le.PutUint32(p.mem[idx:], unknownMagic)
	le.PutUint32(p.mem[idx+unkCount:], 0)
	le.PutUint32(p.mem[idx+unkCapacity:], capacity)
	if !p.addEntry(cb, unknownHash, unknownName, idx) {
		return 0
	}
	atomic.StoreUint64(&p.unk, unknownKnown|uint64(idx))
	return idx
}

// newControl gives a payload that has no control block one (a format-3
// payload whose root type reaches no other type has none). A header word
// that named something else (C++ SetUserMetadata stores its offset there
// when there is no control block) becomes the new block's user_metadata,
// where C++ GetUserMetadata then finds it.
func (p *Payload) newControl() uint32 {
	user := p.buf.Metadata()
	cb := p.buf.Allocate(int(p.controlHeader()+p.entrySize()), payloadbuffer.Zero|payloadbuffer.Small)
	p.sync()
	if cb == 0 {
		p.fail()
		return 0
	}
	p.initControl(cb, 1)
	le.PutUint32(p.mem[cb+8:], user)
	p.buf.SetMetadata(cb)
	return cb
}

// insertUnknown inserts an entry for the message at off at position i of
// the index at idx, growing the index when it is full, and returns the
// entry's offset.
func (p *Payload) insertUnknown(idx, i, off uint32) (uint32, bool) {
	base, n := p.unknownEntries(idx)
	if base == 0 || i > n {
		p.badIndex()
		return 0, false
	}
	capacity := le.Uint32(p.mem[idx+unkCapacity:])
	if n < capacity {
		// The room the index says it has must be its block's: a capacity
		// word read from a payload continued with Open (or written behind
		// the handle) could claim more, and the entry would be written
		// over the next block.
		if size, ok := p.buf.BlockAt(idx); !ok || unkHeader+uint64(capacity)*unkEntry > uint64(size) {
			p.badIndex()
			return 0, false
		}
	} else {
		capacity = 2 * max(n, 2)
		moved := p.buf.Realloc(idx, int(unkHeader+capacity*unkEntry), payloadbuffer.Zero|payloadbuffer.Small)
		p.sync()
		if moved == 0 {
			p.fail()
			return 0, false
		}
		le.PutUint32(p.mem[moved+unkCapacity:], capacity)
		if moved != idx {
			idx = moved
			p.moveIndex(idx)
		}
		base = idx + unkHeader
	}
	if uint64(base)+uint64(n+1)*unkEntry > uint64(len(p.mem)) {
		p.badIndex()
		return 0, false
	}
	e := base + i*unkEntry
	copy(p.mem[e+unkEntry:base+(n+1)*unkEntry], p.mem[e:base+n*unkEntry])
	le.PutUint32(p.mem[e:], off)
	le.PutUint32(p.mem[e+4:], 0)
	le.PutUint32(p.mem[idx+unkCount:], n+1)
	return e, true
}

// moveIndex records that the index moved to idx: in the control block and
// the payload's cache.
func (p *Payload) moveIndex(idx uint32) {
	if cb := p.control(); cb != 0 {
		if e, ok := p.findEntry(cb, unknownHash, unknownName); ok {
			le.PutUint32(p.mem[e+p.tableOffsetIn():], idx)
		}
	}
	atomic.StoreUint64(&p.unk, unknownKnown|uint64(idx))
}

// badIndex records an index that the payload's bytes contradict (a payload
// continued with Open).
func (p *Payload) badIndex() {
	if p.err == nil {
		p.err = payloadbuffer.ErrCorrupt
	}
}

// dropUnknown removes the entry of the message at off, freeing its bytes.
func (p *Payload) dropUnknown(idx, off uint32) {
	e, i, ok := p.unknownEntry(idx, off)
	if !ok {
		return
	}
	if s := le.Uint32(p.mem[e+4:]); s != 0 {
		p.buf.Free(s)
	}
	base, n := p.unknownEntries(idx)
	copy(p.mem[e:base+(n-1)*unkEntry], p.mem[e+unkEntry:base+n*unkEntry])
	le.PutUint64(p.mem[base+(n-1)*unkEntry:], 0)
	le.PutUint32(p.mem[idx+unkCount:], n-1)
	_ = i
}

// clearUnknown drops m's unknown fields, for Clear.
func (m Msg) clearUnknown() {
	if idx := m.p.unknownIndex(); idx != 0 {
		m.p.dropUnknown(idx, m.off)
	}
}

// moveUnknown re-keys the entries of the messages in [src, src+n) by
// dst-src, where the bytes of [src, src+n) were just copied to dst (an
// element moved in a format-3 repeated field, with the inline messages it
// holds).
func (p *Payload) moveUnknown(dst, src, n uint32) {
	idx := p.unknownIndex()
	if idx == 0 || dst == src {
		return
	}
	base, count := p.unknownEntries(idx)
	moved := false
	for i := range count {
		e := base + i*unkEntry
		if k := le.Uint32(p.mem[e:]); k >= src && k-src < n {
			le.PutUint32(p.mem[e:], k-src+dst)
			moved = true
		}
	}
	if !moved {
		return
	}
	type entry struct{ k, v uint32 }
	es := make([]entry, count)
	for i := range count {
		e := base + i*unkEntry
		es[i] = entry{le.Uint32(p.mem[e:]), le.Uint32(p.mem[e+4:])}
	}
	sort.SliceStable(es, func(i, j int) bool { return es[i].k < es[j].k })
	for i, x := range es {
		e := base + uint32(i)*unkEntry
		le.PutUint32(p.mem[e:], x.k)
		le.PutUint32(p.mem[e+4:], x.v)
	}
}

// DiscardUnknown drops the unknown fields of m and of every message it
// holds (protobuf-go's proto.DiscardUnknown). For the root message it
// empties the whole index.
func (m Msg) DiscardUnknown(t *Type) {
	if m.p == nil || m.off == 0 || !m.writable() {
		return
	}
	idx := m.p.unknownIndex()
	if idx == 0 {
		return
	}
	if m.off == m.p.buf.Message() {
		base, n := m.p.unknownEntries(idx)
		for i := range n {
			if s := le.Uint32(m.p.mem[base+i*unkEntry+4:]); s != 0 {
				m.p.buf.Free(s)
			}
		}
		clear(m.p.mem[base : base+n*unkEntry])
		le.PutUint32(m.p.mem[idx+unkCount:], 0)
		return
	}
	m.discardUnknown(t, newWalk(m))
}

// discardUnknown drops the unknown fields of m and of the messages it
// holds, bounded like ToProto.
func (m Msg) discardUnknown(t *Type, w *walk) {
	if m.off == 0 {
		return
	}
	w.depth++
	defer func() { w.depth-- }()
	if w.depth > maxDepth || w.visit(t) != nil {
		return
	}
	m.clearUnknown()
	if t.isAny {
		if v := m.anyValueOf(); v.m.IsPresent() {
			v.m.discardUnknown(v.t, w)
		}
		return
	}
	for _, f := range t.fields {
		if f.Kind != Message {
			continue
		}
		switch {
		case f.Repeated:
			for _, e := range m.MessagesOf(f) {
				e.discardUnknown(f.Type, w)
			}
		case f.Union != nil:
			if m.HasMember(f.Field) {
				m.MemberMessage(f.Field, f.Type).discardUnknown(f.Type, w)
			}
		default:
			m.Message(f.Field, f.Type).discardUnknown(f.Type, w)
		}
	}
}

// anyValueOf returns the message embedded in the Any message m, with its
// type, if its type is registered.
func (m Msg) anyValueOf() Dynamic {
	t := FindType(protoreflect.FullName(m.AnyTypeName()))
	if t == nil {
		return Dynamic{}
	}
	return Dynamic{m.AnyValue(t), t}
}
