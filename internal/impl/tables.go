package impl

import (
	"sync/atomic"

	"github.com/phaser-go/phaser/payloadbuffer"
)

// What a payload knows of its field tables.
//
// A handle reads a message at its Type's compiled offsets only when the
// message's table is that Type's compiled table. A payload this process
// created trusts what it wrote: as long as every table installed in it is
// the compiled one of a Type of the payload's frontend (trust, below), a
// compiled handle's nested messages are compiled too, known without
// reading their tables. Any other payload (received, continued with Open,
// or one that another frontend's handles wrote into) checks each table
// once: the tables cache remembers, per Type, the table found identical to
// its compiled one, so that the messages that share it (every message of
// a type does, and the elements of a repeated field) are not compared
// again; writers also remember the table they install for each Type.
//
// The cache is read and written with atomic operations: any number of
// goroutines may read one payload at once (verifying tables as they go)
// while nothing writes it.

// tableSlots is the size of a payload's table cache: a Type's entry is in
// its slot (Type.slot, tableSlot), apart from those of the types it
// reaches where it can be. When two types of a payload do share a slot,
// the second one's tables are compared again, and the generated Assign of
// a message whose inline messages are of those types takes the setters;
// nothing else.
const tableSlots = 8

// tableSlot returns the slot of t's entry in a payload's table cache, once
// t.reach is known: the slot the fewest of the types t reaches use (which
// registered before t, or while t registered, and have theirs), t.id's
// own slot on a tie, then the slot after it. A message's payload holds the
// types it reaches, so that a type seldom shares a slot with them: only
// where it reaches more types than there are slots, or where its reach
// shares slots among itself (types that reach none of each other, whose
// slots were chosen apart from each other's).
func tableSlot(t *Type) uint32 {
	var used [tableSlots]int
	for _, r := range t.reach {
		if r != t {
			used[r.slot%tableSlots]++
		}
	}
	best := t.id % tableSlots
	for i := range uint32(tableSlots) {
		if s := (t.id + i) % tableSlots; used[s] < used[best] {
			best = s
		}
	}
	return best
}

// A table cache entry packs a Type's id, what the table is to it, and the
// table's offset: id<<34 | flags<<32 | offset. 0 is empty.
type tableEntry = uint64

// Table entry flags.
const (
	tableCompiled   = 1 << 32 // the table is t's compiled table
	tableRegistered = 2 << 32 // the payload's registry names the table for t
)

// knownCompiled reports whether the table at tab is known to be t's
// compiled table.
func (p *Payload) knownCompiled(t *Type, tab uint32) bool {
	e := atomic.LoadUint64(&p.tables[t.slot%tableSlots])
	return e&^tableRegistered == uint64(t.id)<<34|tableCompiled|uint64(tab)
}

// installed returns the table the payload's registry names for t, if the
// cache holds it.
func (p *Payload) installed(t *Type) (uint32, bool) {
	e := atomic.LoadUint64(&p.tables[t.slot%tableSlots])
	return uint32(e), e>>34 == uint64(t.id) && e&tableRegistered != 0
}

// remember records what the table at tab is to t (flags).
func (p *Payload) remember(t *Type, tab uint32, flags uint64) {
	atomic.StoreUint64(&p.tables[t.slot%tableSlots], uint64(t.id)<<34|flags|uint64(tab))
}

// verify reports whether the table at tab is t's compiled table, which
// the cache did not know, and remembers it if it is.
func (p *Payload) verify(t *Type, tab uint32) bool {
	mem := p.mem
	if n := uint64(len(t.table)); tab == 0 || uint64(tab)+n > uint64(len(mem)) || !sameTable(mem[tab:uint64(tab)+n], t.table, n <= wordTable) {
		return false
	}
	p.remember(t, tab, tableCompiled)
	return true
}

// registeredFlags returns the flags of a table the registry names for t.
func registeredFlags(t *Type, v payloadbuffer.Version) uint64 {
	if t.native(v) {
		return tableRegistered | tableCompiled
	}
	return tableRegistered
}

// A blockCache is the table cache that a match of a Type's block of
// tables at offset tab makes (Type.blockCache).
type blockCache struct {
	tab    uint32
	tables [tableSlots]tableEntry
}

// cacheBlock fills the empty table cache for a match of t's block of
// tables at tab, at an offset other than that of t's blockCache (which
// ReadInto copies): the entries one by one; the first payload's become
// t's blockCache.
func (p *Payload) cacheBlock(t *Type, tab uint32) {
	for i, e := range t.blockEntries { // (one for each of t.reach)
		p.tables[t.reach[i].slot%tableSlots] = e + uint64(tab)
	}
	if t.blockCache.Load() == nil {
		t.blockCache.Store(&blockCache{tab: tab, tables: p.tables})
	}
}

// forget empties the table cache, for a payload whose tables change
// (ReadInto, reset). It is not safe with concurrent readers, which a
// payload being rebound or reset cannot have.
func (p *Payload) forget() { p.tables = [tableSlots]tableEntry{} }

// Trust keys: the frontend and format of a payload whose every table is
// the compiled one of a Type of that frontend. A Type's trust is the set
// of keys under which its compiled table is the one payloads give it.
const (
	trustProtobufV2 uint8 = 1 << iota
	trustProtobufV3
	trustROSV2
	trustROSV3
)

// trustKey returns the key of payloads of frontend fe in format v.
func trustKey(fe Frontend, v payloadbuffer.Version) uint8 {
	k := trustProtobufV2
	if v == payloadbuffer.V3 {
		k = trustProtobufV3
	}
	if fe == ROSFrontend {
		k <<= 2
	}
	return k
}

// trustOf returns the trust of t (see trustKey): the keys of the formats
// in which t's compiled table is what a new message gets, under t's
// frontend, or under both for a type that does not follow the frontend
// (google.protobuf types, which both frontends lay out alike).
func trustOf(t *Type, follows bool) uint8 {
	var trust uint8
	for _, v := range []payloadbuffer.Version{payloadbuffer.V2, payloadbuffer.V3} {
		if !t.native(v) {
			continue
		}
		if follows {
			trust |= trustKey(t.frontend, v)
		} else {
			trust |= trustKey(ProtobufFrontend, v) | trustKey(ROSFrontend, v)
		}
	}
	return trust
}

// seed sets the trust and the table cache of a payload whose root of type t
// was just created: the root's table and, in a Phaser 3 payload whose
// creation registered every reachable type's table (spec 8.7), each of
// those. It keeps them for reseed.
func (p *Payload) seed(t *Type) {
	p.seedCache(t)
	p.seedTrust, p.seedTables = p.trust, p.tables
}

// reseed sets the trust and the table cache of a payload reset to its root's
// creation image: those seed gave it when the image's root table is where
// the seeded one was (the same creation), else anew.
func (p *Payload) reseed(t *Type) {
	root := p.buf.Message()
	if e := p.seedTables[t.slot%tableSlots]; e>>34 == uint64(t.id) && uint64(root)+4 <= uint64(len(p.mem)) &&
		le.Uint32(p.mem[root:]) == uint32(e) {
		p.trust, p.tables = p.seedTrust, p.seedTables
		return
	}
	p.seed(t)
}

// seedCache is seed without keeping its result.
func (p *Payload) seedCache(t *Type) {
	p.forget()
	p.trust = trustKey(t.frontend, p.version) & t.trust
	root := p.buf.Message()
	if uint64(root)+4 > uint64(len(p.mem)) {
		p.trust = 0
		return
	}
	cb := p.control()
	if cb == 0 { // no registry: every message of the type gets its own table
		if t.native(p.version) {
			p.remember(t, le.Uint32(p.mem[root:]), tableCompiled)
		}
		return
	}
	p.remember(t, le.Uint32(p.mem[root:]), registeredFlags(t, p.version))
	if p.version != payloadbuffer.V3 || le.Uint32(p.mem[cb+offCount:]) != uint32(len(t.reach)) {
		return
	}
	base := cb + p.controlHeader()
	if uint64(base)+uint64(len(t.reach))*uint64(p.entrySize()) > uint64(len(p.mem)) {
		return
	}
	for i, r := range t.reach {
		e := base + uint32(i)*p.entrySize()
		if le.Uint64(p.mem[e:]) == r.hash {
			p.remember(r, le.Uint32(p.mem[e+8:]), registeredFlags(r, p.version))
		}
	}
}

// sameTable reports whether b, table bytes read from a payload, are the
// compiled table (or table block) c. Tables are short (16 bytes and 4 or 8
// more a field; the block of a root and the types it reaches, 50 to 200
// bytes): up to 64 bytes they are compared 32 bytes at a time, the
// differences of 8-byte words ORed together (tablesDiffer), where
// runtime.memequal's loop takes 8 instructions for each 8 bytes (71 for
// a 52-byte block, 53 for a 40-byte table); longer ones go to memequal,
// whose wide loop is then faster (81 for a 156-byte block, where six
// 32-byte compares took 93). (A table is compared only to
// choose the compiled offsets, each of whose accesses is bounds-checked on
// its own: a payload that changes while it is read gets a mix of values,
// never an access out of range.)
//
// short is len(c) <= wordTable, which the caller knows (and the compiler
// then inlines one call, not the choice of two).
func sameTable(b, c []byte, short bool) bool {
	if short {
		return len(b) == len(c) && !tablesDiffer(b, c)
	}
	return string(b) == string(c)
}

// wordTable is the longest table tablesDiffer compares.
const wordTable = 64

// tablesDiffer reports whether b and c differ: from 8 to 64 bytes of the
// same length with two 32-byte compares (the second overlapping the
// first) or, below 32 bytes, two or four 8-byte ones.
func tablesDiffer(b, c []byte) bool {
	n := len(b)
	if len(c) != n || n < 8 || n > 64 {
		return string(b) != string(c)
	}
	var x uint64
	switch {
	case n >= 32:
		x = diff32((*[32]byte)(b[n-32:n]), (*[32]byte)(c[n-32:n])) | diff32((*[32]byte)(b), (*[32]byte)(c))
	case n >= 16:
		x = (le.Uint64(b) ^ le.Uint64(c)) | (le.Uint64(b[8:]) ^ le.Uint64(c[8:])) |
			(le.Uint64(b[n-16:]) ^ le.Uint64(c[n-16:])) | (le.Uint64(b[n-8:]) ^ le.Uint64(c[n-8:]))
	default:
		x = (le.Uint64(b) ^ le.Uint64(c)) | (le.Uint64(b[n-8:]) ^ le.Uint64(c[n-8:]))
	}
	return x != 0
}

// diff32 is nonzero when b and c differ.
func diff32(b, c *[32]byte) uint64 {
	return (le.Uint64(b[0:]) ^ le.Uint64(c[0:])) | (le.Uint64(b[8:]) ^ le.Uint64(c[8:])) |
		(le.Uint64(b[16:]) ^ le.Uint64(c[16:])) | (le.Uint64(b[24:]) ^ le.Uint64(c[24:]))
}
