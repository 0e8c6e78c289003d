package impl

import "github.com/phaser-go/phaser/payloadbuffer"

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

// control returns the control block offset, or 0 when the header names none
// or it is not valid (GetRuntimeControl).
func (p *Payload) control() uint32 {
	cb := p.buf.Metadata()
	if cb == 0 || uint64(cb)+uint64(p.controlHeader()) > uint64(len(p.mem)) ||
		le.Uint32(p.mem[cb:]) != controlMagic || le.Uint32(p.mem[cb+4:]) != p.controlVersion() {
		return 0
	}
	return cb
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
	table := p.buf.Allocate(len(want), payloadbuffer.Small)
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
			at = p.buf.Allocate(len(name), payloadbuffer.Small)
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
