package impl

import (
	"fmt"

	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/phaser-go/phaser/payloadbuffer"
)

// The runtime control block (spec 4.5, 8.5): the writer-side registry that
// maps a message type to the one field table all its messages share.
//
//	v1 (Phaser 2.1): magic "PHTR", version 1, user_metadata, count, capacity,
//	    then {name_offset, table_offset, name_size} (12 bytes) per type.
//	v2 (Phaser 3):   magic "PHTR", version 2, user_metadata, count, capacity,
//	    0, then {uint64 FNV-1a(name), table_offset, 0} (16 bytes) per type.

const (
	controlMagic = 0x52544850
	offCount     = 12
	offCapacity  = 16
)

func (p *Payload) controlVersion() uint32 {
	if p.version == payloadbuffer.V3 {
		return 2
	}
	return 1
}

func (p *Payload) controlHeader() uint32 {
	if p.version == payloadbuffer.V3 {
		return 24
	}
	return 20
}

func (p *Payload) entrySize() uint32 {
	if p.version == payloadbuffer.V3 {
		return 16
	}
	return 12
}

// initControl writes an empty control block at cb.
func (p *Payload) initControl(cb, capacity uint32) {
	le.PutUint32(p.mem[cb:], controlMagic)
	le.PutUint32(p.mem[cb+4:], p.controlVersion())
	le.PutUint32(p.mem[cb+8:], 0)
	le.PutUint32(p.mem[cb+offCount:], 0)
	le.PutUint32(p.mem[cb+offCapacity:], capacity)
}

// offHeaderMetadata is the offset of the header's metadata word, which
// names the control block (spec 1).
const offHeaderMetadata = 20

// control returns the control block offset, or 0 when the header names none
// or it is not valid (GetRuntimeControl). It reads the payload's bytes, so
// that readers find the block too.
func (p *Payload) control() uint32 {
	mem := p.mem
	if len(mem) < offHeaderMetadata+4 {
		return 0
	}
	cb := le.Uint32(mem[offHeaderMetadata:])
	if cb == 0 || cb < p.floor || uint64(cb)+uint64(p.controlHeader()) > uint64(len(mem)) ||
		le.Uint32(mem[cb:]) != controlMagic || le.Uint32(mem[cb+4:]) != p.controlVersion() {
		return 0
	}
	return cb
}

// The root's type. A payload names the type of each table it registered
// (spec 4.5, 8.5): by name in format v2, by the FNV-1a hash of the name in
// format v3. The root's table is registered first, when the root is
// created, so the entry whose table is the root's says what the root is.
// A payload without a control block (format v3, a type that reaches no
// other) names no type: the root's type cannot be checked there.

// rootIs reports whether the root message at root can be of type t: its
// table is registered under t's name (or hash), or under no name at all.
// When another type's entry has the root's table, it returns that entry.
func (p *Payload) rootIs(root uint32, t *Type) (entry uint32, ok bool) {
	cb := p.control()
	if cb == 0 || uint64(root)+4 > uint64(len(p.mem)) {
		return 0, true
	}
	mem := p.mem
	tab := le.Uint32(mem[root:])
	count := le.Uint32(mem[cb+offCount:])
	es, base := p.entrySize(), cb+p.controlHeader()
	if uint64(base)+uint64(count)*uint64(es) > uint64(len(mem)) {
		return 0, true // a block the payload does not hold names nothing
	}
	for i := range count {
		e := base + i*es
		if le.Uint32(mem[e+p.entryTable():]) != tab {
			continue
		}
		if p.entryNames(e, t) || !p.entryNamed(e) {
			return 0, true
		}
		return e, false
	}
	return 0, true
}

// entryNamed reports whether control block entry e names a type: in
// format v2, its name lies in the payload and is a valid full name (C++
// Phaser 2.1 can lose the name of a payload it truncated, spec 2.8, and
// continue the payload over it: such a registry names nothing).
func (p *Payload) entryNamed(e uint32) bool {
	if p.version == payloadbuffer.V3 {
		return true
	}
	mem := p.mem
	name, size := le.Uint32(mem[e:]), le.Uint32(mem[e+8:])
	return uint64(name)+uint64(size) <= uint64(len(mem)) && protoreflect.FullName(mem[name:name+size]).IsValid()
}

// entryTable is the offset of the table word in a control block entry.
func (p *Payload) entryTable() uint32 {
	if p.version == payloadbuffer.V3 {
		return 8
	}
	return 4
}

// entryNames reports whether control block entry e names type t.
func (p *Payload) entryNames(e uint32, t *Type) bool {
	mem := p.mem
	if p.version == payloadbuffer.V3 {
		return le.Uint64(mem[e:]) == t.hash
	}
	name, size := le.Uint32(mem[e:]), le.Uint32(mem[e+8:])
	return int(size) == len(t.name) && uint64(name)+uint64(size) <= uint64(len(mem)) &&
		string(mem[name:name+size]) == t.name
}

// entryName describes the type control block entry e names: its name (in
// format v3, that of the registered Type of its hash, if any, else the
// hash).
func (p *Payload) entryName(e uint32) string {
	mem := p.mem
	if p.version == payloadbuffer.V3 {
		h := le.Uint64(mem[e:])
		if t := typeByHash(h); t != nil {
			return t.name
		}
		return fmt.Sprintf("message type of name hash %#016x", h)
	}
	name, size := le.Uint32(mem[e:]), le.Uint32(mem[e+8:])
	if uint64(name)+uint64(size) > uint64(len(mem)) {
		return "message type of unreadable name"
	}
	n := string(mem[name : name+min(size, 200)])
	if !protoreflect.FullName(n).IsValid() {
		return fmt.Sprintf("message type named %q", n)
	}
	return n
}

// findTable returns the table registered for t, or 0.
func (p *Payload) findTable(cb uint32, t *Type) uint32 {
	if e, ok := p.findEntry(cb, t.hash, t.name); ok {
		return le.Uint32(p.mem[e+p.tableOffsetIn():])
	}
	return 0
}

// tableOffsetIn returns where an entry of the control block holds its
// table offset.
func (p *Payload) tableOffsetIn() uint32 {
	if p.version == payloadbuffer.V3 {
		return 8
	}
	return 4
}

// findEntry returns the offset of the first entry of the control block cb
// registered under name (whose FNV-1a hash, the key of format 3, is hash).
func (p *Payload) findEntry(cb uint32, hash uint64, name string) (uint32, bool) {
	count := le.Uint32(p.mem[cb+offCount:])
	es, base := p.entrySize(), cb+p.controlHeader()
	if uint64(base)+uint64(count)*uint64(es) > uint64(len(p.mem)) {
		return 0, false
	}
	for i := range count {
		e := base + i*es
		if p.version == payloadbuffer.V3 {
			if le.Uint64(p.mem[e:]) == hash {
				return e, true
			}
			continue
		}
		at, size := le.Uint32(p.mem[e:]), le.Uint32(p.mem[e+8:])
		if int(size) == len(name) && uint64(at)+uint64(size) <= uint64(len(p.mem)) &&
			string(p.mem[at:at+size]) == name {
			return e, true
		}
	}
	return 0, false
}

// installMetadata stores the offset of t's field table in word 0 of the
// message at off, copying the table into the buffer and registering it the
// first time t is used (InstallMetadata, spec 3.4 step 4).
func (p *Payload) installMetadata(off uint32, t *Type) bool {
	if t.trust&p.trust == 0 {
		p.trust = 0 // a table of another frontend's Type: see tables.go
	}
	if table, ok := p.installed(t); ok {
		// The table this payload registered for t: registered tables are
		// never freed before the payload is reset, which forgets them.
		le.PutUint32(p.mem[off:], table)
		return true
	}
	want := t.tableFor(p.version)
	cb := p.control()
	registered := false
	if cb != 0 {
		if table := p.findTable(cb, t); table != 0 {
			if uint64(table)+uint64(len(want)) <= uint64(len(p.mem)) &&
				string(p.mem[table:table+uint32(len(want))]) == string(want) {
				le.PutUint32(p.mem[off:], table)
				p.remember(t, table, registeredFlags(t, p.version))
				return true
			}
			// The payload registered another table under t's name (another
			// frontend or version of the .proto wrote it). The message was
			// sized by t's layout, so it gets a copy of t's own table, which
			// readers follow (spec 4); the registration stays.
			registered = true
		}
	}
	table := p.buf.Allocate(len(want), payloadbuffer.Small|payloadbuffer.Overwrite)
	if table == 0 {
		p.fail()
		return false
	}
	p.sync()
	copy(p.mem[table:], want)
	le.PutUint32(p.mem[off:], table)
	if cb != 0 && !registered {
		if !p.addMetadata(cb, t, table) {
			return false
		}
		p.remember(t, table, registeredFlags(t, p.version))
	}
	return true
}

// addMetadata appends an entry for t to the control block, doubling it when
// full.
func (p *Payload) addMetadata(cb uint32, t *Type, table uint32) bool {
	return p.addEntry(cb, t.hash, t.name, table)
}

// addEntry appends an entry for name (whose FNV-1a hash is hash) naming
// table to the control block, doubling it when full.
func (p *Payload) addEntry(cb uint32, hash uint64, name string, table uint32) bool {
	count, capacity := le.Uint32(p.mem[cb+offCount:]), le.Uint32(p.mem[cb+offCapacity:])
	// The count and capacity of a payload continued with Open are checked
	// against the block that holds them: a count past the capacity, or a
	// capacity the block cannot hold, doubled the block on every
	// registration (22 small writes allocated a gigabyte).
	size, ok := p.buf.BlockAt(cb)
	if !ok || count > capacity || capacity == 0 ||
		uint64(size) < uint64(p.controlHeader())+uint64(capacity)*uint64(p.entrySize()) {
		p.corrupt()
		return false
	}
	if count >= capacity {
		capacity *= 2
		cb = p.buf.Realloc(cb, int(p.controlHeader()+p.entrySize()*capacity), payloadbuffer.Zero|payloadbuffer.Small)
		if cb == 0 {
			p.fail()
			return false
		}
		p.sync()
		p.buf.SetMetadata(cb)
		le.PutUint32(p.mem[cb+offCapacity:], capacity)
	}
	// A count or capacity read from a payload written elsewhere can put
	// the entry past the payload: the registration fails instead.
	if count >= capacity || uint64(cb)+uint64(p.controlHeader())+(uint64(count)+1)*uint64(p.entrySize()) > uint64(len(p.mem)) {
		p.fail()
		return false
	}
	e := cb + p.controlHeader() + count*p.entrySize()
	if p.version == payloadbuffer.V3 {
		le.PutUint64(p.mem[e:], hash)
		le.PutUint32(p.mem[e+8:], table)
		le.PutUint32(p.mem[e+12:], 0)
	} else {
		var at uint32
		if len(name) > 0 {
			at = p.buf.Allocate(len(name), payloadbuffer.Small|payloadbuffer.Overwrite)
			if at == 0 {
				p.fail()
				return false
			}
			p.sync()
			copy(p.mem[at:], name)
		}
		e = p.buf.Metadata() + p.controlHeader() + count*p.entrySize()
		le.PutUint32(p.mem[e:], at)
		le.PutUint32(p.mem[e+4:], table)
		le.PutUint32(p.mem[e+8:], uint32(len(name)))
	}
	le.PutUint32(p.mem[p.buf.Metadata()+offCount:], count+1)
	return true
}

// typeNameAt describes the type of the message at off as the payload's
// registry names it, or returns "" if it names none.
func (p *Payload) typeNameAt(off uint32) string {
	cb := p.control()
	mem := p.mem
	if cb == 0 || uint64(off)+4 > uint64(len(mem)) {
		return ""
	}
	tab := le.Uint32(mem[off:])
	count := le.Uint32(mem[cb+offCount:])
	es, base := p.entrySize(), cb+p.controlHeader()
	if uint64(base)+uint64(count)*uint64(es) > uint64(len(mem)) {
		return ""
	}
	for i := range count {
		if e := base + i*es; le.Uint32(mem[e+p.entryTable():]) == tab {
			return p.entryName(e)
		}
	}
	return ""
}

// FieldError reports a write that the message's own field table gives no
// room for: a payload laid out by an older version of the .proto,
// continued with Open, has no room for a field added since (Width 0), or
// stores the field narrower than the value written needs (an int32 since
// widened to int64, written a value beyond int32). The write is not
// stored. errors.Is(err, ErrNoField) holds.
type FieldError struct {
	// Type names the message's type as the payload's registry names it
	// ("" if it names none).
	Type string
	// Number is the field's number.
	Number uint32
	// Width is the width in bytes the message stores the field in, 0 if
	// it has no such field (or places it outside the payload).
	Width uint32
	// Value is the value written (as stored bits) and Signed whether the
	// field is signed, when Width is not 0.
	Value  uint64
	Signed bool
}

func (e *FieldError) Error() string {
	msg := "message"
	if e.Type != "" {
		msg = e.Type
	}
	if e.Width == 0 {
		return fmt.Sprintf("phaser: write to field %d of %s not stored: the message's field table (another version of its .proto) has no field %d", e.Number, msg, e.Number)
	}
	v := fmt.Sprint(e.Value)
	if e.Signed {
		v = fmt.Sprint(int64(e.Value))
	}
	return fmt.Sprintf("phaser: write to field %d of %s not stored: the message (another version of its .proto) stores the field in %d byte(s), too narrow for %s", e.Number, msg, e.Width, v)
}

// Unwrap returns ErrNoField.
func (e *FieldError) Unwrap() error { return ErrNoField }

// fieldError returns the error of a write to field number n of the message
// at off that its table lacks.
func (p *Payload) fieldError(off, n uint32) error {
	return &FieldError{Type: p.typeNameAt(off), Number: n}
}
