package impl

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/phaser-go/phaser/payloadbuffer"
)

var le = binary.LittleEndian

// Errors reported by messages.
var (
	// ErrReadOnly reports a write through a message read from received bytes.
	ErrReadOnly = errors.New("phaser: message is read-only")
	// ErrFull reports that a fixed buffer had no room for a write.
	ErrFull = payloadbuffer.ErrFull
	// ErrTooSmall reports memory too small for the buffer header.
	ErrTooSmall = payloadbuffer.ErrTooSmall
	// ErrNoFit reports memory that holds the header but not the message.
	ErrNoFit = errors.New("phaser: message does not fit in the buffer")
	// ErrNotPayload reports bytes that are not a Phaser payload.
	ErrNotPayload = errors.New("phaser: not a Phaser payload")
	// ErrCorrupt reports a payload continued with Open whose bytes a
	// write found inconsistent (an offset, count or header it cannot
	// follow): the write is refused and the buffer fails, as when it is
	// full.
	ErrCorrupt = payloadbuffer.ErrCorrupt
	// ErrNoMessage reports a write through a handle that refers to no
	// message: the zero handle, the handle a failed NewIn returns, or the
	// handle a getter gives for an absent nested message (MutableX creates
	// one). The write is not stored.
	ErrNoMessage = errors.New("phaser: write through a handle on no message")
	// ErrNoField reports a write to a field that the message's own field
	// table does not have: a payload laid out by an older version of the
	// .proto, continued with Open. The write is not stored (see
	// docs/format.md, "Schema evolution").
	ErrNoField = errors.New("phaser: the message's field table has no such field")
	// ErrArraySize reports a write of more elements than a fixed array
	// (phaser.array_size = N) holds. The write is not stored.
	ErrArraySize = errors.New("phaser: more elements than the field's phaser.array_size")
	// ErrWrongType reports a payload whose root message is of another type
	// than the one asked for.
	ErrWrongType = errors.New("phaser: payload holds another message type")
)

// Options choose the payload format and allocator tuning of a new message.
type Options struct {
	// Version is the payload format: payloadbuffer.V3 (Phaser 3, the
	// default for the zero value) or payloadbuffer.V2 (C++ Phaser 2.x, for
	// peers that run C++ Phaser 2).
	Version payloadbuffer.Version
	// Tuning is payloadbuffer.Performance (the C++ default, the zero value)
	// or payloadbuffer.Size.
	Tuning payloadbuffer.Tuning
	// InitialSize is the initial size of an owned buffer
	// (DefaultInitialSize if 0).
	InitialSize int
	// Scrub selects whether the payload zeroes what it deletes (see
	// payloadbuffer.Options.Scrub): on by default in format 3, off in
	// format 2, whose bytes are C++ Phaser 2.1's.
	Scrub payloadbuffer.Scrub
}

// optionsOf returns the first of opts, or the zero Options: generated
// constructors take options as an optional trailing argument.
func optionsOf(opts []Options) Options {
	if len(opts) == 0 {
		return Options{}
	}
	return opts[0]
}

func (o Options) buffer() payloadbuffer.Options {
	return payloadbuffer.Options{Version: o.version(), Tuning: o.Tuning, Scrub: o.Scrub}
}

func (o Options) version() payloadbuffer.Version {
	if o.Version == payloadbuffer.V2 {
		return payloadbuffer.V2
	}
	return payloadbuffer.V3
}

// DefaultInitialSize is the initial size of an owned buffer, as in C++.
const DefaultInitialSize = 8192

// Payload is the buffer a tree of message handles shares: a writable
// payloadbuffer.Buffer, or read-only received bytes.
type Payload struct {
	buf     *payloadbuffer.Buffer // nil when read-only
	mem     []byte                // buf.Memory(), or the received bytes
	version payloadbuffer.Version
	err     error // first error of a write (read-only or full buffer, a write not stored)
	lost    bool  // a write was not stored for want of a message or field (err says why)
	// floor is the lowest offset a message, message vector or chunk of a
	// writable payload can have: its header size (0 when read-only). An
	// offset below it, read from a payload continued with Open, would
	// make writes overwrite the buffer header.
	floor uint32

	// clearing holds the messages whose Clear is under way, innermost
	// last: their nesting is bounded on hostile payloads, and none of
	// them is freed by a Clear nested in it (see releasable).
	clearing []uint32

	root *Type                // the root's type when this process created the root
	img  *payloadbuffer.Image // root's creation image for this buffer, once reset used it
	// resets records that the root's Clear resets the buffer from now on
	// (format 2: the buffer has run out of room once; see Msg.Clear).
	resets bool
	keep   []uint32 // liveBlocks' storage, and its last result
	// keepKey is what liveBlocks' last result was listed from (the root,
	// its table, the control block and its entry count), 0s when none.
	keepKey [4]uint32
	scrub   bool // buf scrubs: cleared values are zeroed too

	// What the payload knows of its tables (tables.go): the trust key of a
	// payload this process created, while every table in it is the
	// compiled one of a Type of its frontend (0 otherwise), and the tables
	// found or installed per Type.
	trust  uint8
	tables [tableSlots]tableEntry

	// The trust and tables seed gave the root this process created, which
	// a reset to the root's creation image restores.
	seedTrust  uint8
	seedTables [tableSlots]tableEntry

	// unk caches the offset of the unknown-field index (unknown.go):
	// unknownKnown|offset once looked up, 0 before.
	unk uint64

	// The blocks a decoding or a Clear set aside to reuse (reuse.go):
	// reuseBlock[i] is the block slot reuseSlot[i] held, for i < nreuse,
	// and 0 once taken back or freed (the buffer shares reuseBlock:
	// payloadbuffer's SetAside); nlive counts those not taken back.
	// reuseLen[i] is the length word of a string's or a vector's block,
	// checked against the buffer when it was set aside: the take-back
	// trusts it, bounded again by the memory.
	reuseSlot  [maxReuse]uint32
	reuseBlock [maxReuse]uint32
	reuseKind  [maxReuse]uint32
	reuseLen   [maxReuse]uint32
	nreuse     uint8
	nlive      uint8
	rnext      uint8 // where takeReuse looks first: after the entry it took last
	// kplan is the Clear's keep plan of type kplanOf (keep.go).
	kplanOf *Type
	kplan   *keepPlan
	// assigning is the root's span and the lowest block offset of the
	// Assign BeginAssign began last (assign.go).
	assigning assignSpan
	// keeping is the state of the generated Clear BeginKeep began last
	// (keeper.go).
	keeping keepState
	// rplan is the reuse plan of type rplanOf in this payload's format.
	rplanOf *Type
	rplan   *reusePlan
}

// sync refreshes mem after an allocation, which may grow an owned buffer.
func (p *Payload) sync() { p.mem = p.buf.Memory() }

// writable reports whether p can be written, recording ErrReadOnly if not.
func (p *Payload) writable() bool {
	if p.buf != nil {
		return true
	}
	if p.err == nil {
		p.err = ErrReadOnly
	}
	return false
}

// fail records that an allocation failed: the buffer was full, or its
// allocator found the bytes inconsistent.
func (p *Payload) fail() {
	if p.err == nil {
		if p.err = p.buf.Err(); p.err == nil {
			p.err = ErrFull
		}
	}
}

// corrupt records that a write found the payload's bytes inconsistent and
// did not write: the buffer fails (ErrCorrupt).
func (p *Payload) corrupt() {
	p.buf.Corrupt()
	if p.err == nil {
		p.err = ErrCorrupt
	}
}

// drop records a write that is not stored, for the reason err.
func (p *Payload) drop(err error) {
	p.lost = true
	if p.err == nil {
		p.err = err
	}
}

// Buffer returns the payload buffer of a writable payload (nil if read-only).
func (p *Payload) Buffer() *payloadbuffer.Buffer { return p.buf }

// Bytes returns the payload bytes a sender transmits.
//
// The buffer's Bytes does not inline (its failure path is a call), so its
// common case is written out here on the buffer's memory (the high-water
// mark, the header's word at 8, between the header, p.floor, and the end),
// and the generated Bytes, which calls Msg.PayloadBytes, makes one call,
// this one, not two.
func (p *Payload) Bytes() []byte {
	b := p.buf
	if b == nil {
		return p.mem
	}
	if d := b.Memory(); len(d) >= payloadbuffer.FixedHeaderSize {
		if h := uint64(le.Uint32(d[8:12])); h <= uint64(len(d)) && h >= uint64(p.floor) {
			return d[:h]
		}
	}
	return b.Bytes()
}

// Failed reports whether a write was not stored: it did not fit in a fixed
// buffer, or it went through a handle on no message or to a field the
// message's table lacks (Err says which).
func (p *Payload) Failed() bool { return p.lost || p.buf != nil && p.buf.Failed() }

// Err returns the first error a write reported: ErrFull, ErrCorrupt,
// ErrReadOnly, ErrNoMessage or a FieldError (ErrNoField), or the error of
// the NewIn that failed to create the payload's message.
func (p *Payload) Err() error {
	if p.err == nil && p.buf != nil {
		return p.buf.Err()
	}
	return p.err
}

// New creates a message of type t in an owned, growable buffer of
// opts.InitialSize bytes (DefaultInitialSize if 0; twice the message size if
// that is larger, as C++ does).
func New(t *Type, options ...Options) Msg {
	opts := optionsOf(options)
	initial := opts.InitialSize
	if initial <= 0 {
		initial = DefaultInitialSize
	}
	if size := int(t.BinarySize(opts.version())); size > initial {
		initial = 2 * size
	}
	p := &Payload{buf: payloadbuffer.New(initial, opts.buffer()), version: opts.version(), floor: payloadbuffer.MovableHeaderSize}
	p.scrub = p.buf.Scrubs()
	p.sync()
	m, _ := p.createRoot(t)
	return m
}

// NewIn creates a message of type t in caller memory (e.g. shared memory),
// which is never grown. It fails with ErrTooSmall if mem cannot hold the
// buffer header and with ErrNoFit if the message does not fit.
func NewIn(t *Type, mem []byte, options ...Options) (Msg, error) {
	opts := optionsOf(options)
	buf, err := payloadbuffer.NewFixed(mem, opts.buffer())
	if err != nil {
		err = fmt.Errorf("phaser: create %s: %w", t.name, err)
		return failedNew(err), err
	}
	p := &Payload{buf: buf, version: opts.version(), floor: buf.HeaderSize(), scrub: buf.Scrubs()}
	p.sync()
	m, err := p.createRoot(t)
	if err != nil {
		err = fmt.Errorf("phaser: create %s in %d bytes: %w", t.name, len(mem), err)
		return failedNew(err), err
	}
	return m, nil
}

// failedNew returns the handle a NewIn that failed with err gives: it
// refers to no message, reads as the default message, and reports err from
// Err (and true from Failed) rather than ignoring writes silently.
func failedNew(err error) Msg { return Msg{p: &Payload{err: err, lost: true}} }

// createRoot runs the C++ CreateMutable sequence (spec 3.4): root message,
// runtime control block, metadata.
func (p *Payload) createRoot(t *Type) (Msg, error) {
	p.noUnknown()
	if p.version == payloadbuffer.V3 {
		return p.createRootV3(t)
	}
	root := p.buf.Allocate(int(t.BinarySize(p.version)), payloadbuffer.Zero|payloadbuffer.Small)
	if root == 0 {
		return Msg{}, ErrNoFit
	}
	p.buf.SetMessage(root)
	capacity := uint32(max(1, t.typeCount))
	cb := p.buf.Allocate(int(p.controlHeader()+p.entrySize()*capacity), payloadbuffer.Zero|payloadbuffer.Small)
	if cb == 0 {
		return Msg{}, ErrNoFit
	}
	p.sync()
	p.initControl(cb, capacity)
	p.buf.SetMetadata(cb)
	m := Msg{p: p, off: root, acc: p.accessFor(t)}
	if !p.installMetadata(root, t) {
		return Msg{}, ErrNoFit
	}
	p.root = t
	p.seed(t)
	return m, nil
}

// Read binds a read-only message of type t to received payload bytes. Every
// access is bounded by len(data); the header's sizes are never trusted.
// Read fails only when data is not a Phaser payload (too short, bad magic,
// a format-3 magic of another major version, root offset outside data);
// fields that are out of range read as absent.
func Read(t *Type, data []byte) (Msg, error) {
	return ReadInto(new(Payload), t, data)
}

// Release drops p's reference to its bytes, for a p kept for reuse with
// ReadInto. Handles on p become invalid.
func (p *Payload) Release() { *p = Payload{} }

// ReadInto is Read reusing p, whose earlier handles become invalid: a
// reader of many payloads (a bridge, a logger) allocates nothing per
// payload.
//
// It runs on every received payload, so its common case (a payload of the
// type asked for, with the compiled table) is in line: the header, the
// root's type in the control block, then the root's table compared with
// the compiled one. Errors are made out of line (readError).
func ReadInto(p *Payload, t *Type, data []byte) (Msg, error) {
	// Field by field: the wide stores of *p = Payload{...} would stall the
	// loads of the same fields just below (store-to-load forwarding).
	p.buf, p.mem, p.version, p.err, p.lost, p.root, p.img, p.trust, p.unk = nil, data, 0, nil, false, nil, nil, 0, 0
	p.resets, p.floor, p.scrub = false, 0, false
	p.assigning.span = 0 // (assignSpan: the span is of the memory p had)
	// The table cache (of the bytes p had) is forgotten on every way out
	// but the one that copies a whole cache over it (a block's): readError
	// forgets it, and so does each other return.
	if len(data) < payloadbuffer.FixedHeaderSize {
		return Msg{}, p.readError(t, data, errShort)
	}
	switch {
	case data[0] == 'P' && data[1] == 'H':
		// Byte 3 is the format's major version, checked as Open does: a
		// payload of another major version has another layout.
		if data[3] != 3 {
			return Msg{}, p.readError(t, data, errMajor)
		}
		p.version = payloadbuffer.V3
		if data[2]&(1<<2) != 0 { // allocation failed: the payload reads as empty
			p.forget()
			return Msg{p: p}, nil
		}
	case le.Uint32(data)&^1 == 0xE5F6F1C4 || le.Uint32(data)&^1 == 0xC5F6F1C4:
		p.version = payloadbuffer.V2
	default:
		return Msg{}, p.readError(t, data, errMagic)
	}
	root := uint64(le.Uint32(data[4:8]))
	if root == 0 {
		p.forget()
		return Msg{p: p}, nil
	}
	if root+4 > uint64(len(data)) {
		return Msg{}, p.readError(t, data, errRoot)
	}
	// The root's type (control.go): the first entry of a control block,
	// made when the root was created, names the root's type and table. The
	// format v3 entry's hash is checked here, without a call.
	tab := le.Uint32(data[root : root+4])
	if cb := uint64(le.Uint32(data[offHeaderMetadata : offHeaderMetadata+4])); cb != 0 {
		var ok bool
		if p.version == payloadbuffer.V3 {
			ok = cb+36 <= uint64(len(data)) && rootEntryIs((*[12]byte)(data[cb+24:cb+36]), t.hash, tab)
		} else if cb+32 <= uint64(len(data)) { // the 20-byte header, then {name, table, size}
			e := (*[12]byte)(data[cb+20 : cb+32])
			name, size := uint64(le.Uint32(e[:4])), uint64(le.Uint32(e[8:]))
			ok = le.Uint32(e[4:8]) == tab && size == uint64(len(t.name)) && name+size <= uint64(len(data)) &&
				string(data[name:name+size]) == t.name
		}
		if !ok {
			p.forget() // (rootIs reads the cache)
			if e, ok := p.rootIs(uint32(root), t); !ok {
				return Msg{}, p.wrongType("read", t, e)
			}
		}
	}
	// bind's check of the table, knowing that no other goroutine reads p
	// while it is rebound (so plain stores fill the cache).
	if root+uint64(t.extent) <= uint64(len(data)) && tab != 0 {
		// A format 3 payload made as createRootV3 makes it has the tables
		// of every type the root reaches after the root's, in one block:
		// one compare verifies them all (fewer calls than one for each),
		// and the nested messages of those types then find their table in
		// the cache. (The block ends within 32 bits, so that no entry's
		// offset carries into its flags.) Failing that, the root's table.
		// One compare, in line for 32 to 64 bytes, serves both.
		want, block := t.block, true
		if len(want) == 0 || p.version != payloadbuffer.V3 || uint64(tab)+uint64(len(want)) > 1<<32 {
			want, block = t.table, false
		}
		same := false
		if o, n := uint64(tab), uint64(len(want)); o+n <= uint64(len(data)) {
			switch got := data[o : o+n : o+n]; {
			case n > wordTable:
				same = string(got) == string(want)
			case n >= 32:
				// tablesDiffer's case of 32 to 64 bytes, written out: a
				// helper of the two diff32s would cost 122 and not inline.
				same = diff32((*[32]byte)(got[n-32:]), (*[32]byte)(want[n-32:]))|diff32((*[32]byte)(got), (*[32]byte)(want)) == 0
			default:
				same = !tablesDiffer(got, want)
			}
		}
		if !same && block { // (a payload laid out otherwise: the root's table alone)
			same, block = tableAt(data, tab, t.table), false
		}
		if same && block {
			if c := t.blockCache.Load(); c != nil && c.tab == tab {
				p.tables = c.tables // cacheBlock's common case, in line
				return Msg{p: p, off: uint32(root), acc: compiledRead}, nil
			}
		}
		p.forget()
		if !same {
			return Msg{p: p, off: uint32(root), acc: throughTable}, nil
		}
		if !block {
			p.tables[t.slot%tableSlots] = uint64(t.id)<<34 | tableCompiled | uint64(tab)
		} else {
			p.cacheBlock(t, tab)
		}
		return Msg{p: p, off: uint32(root), acc: compiledRead}, nil
	}
	p.forget()
	return Msg{p: p, off: uint32(root), acc: throughTable}, nil
}

// tableAt reports whether data holds table want at tab: ReadInto's
// second compare, out of line.
//
//go:noinline
func tableAt(data []byte, tab uint32, want []byte) bool {
	o, n := uint64(tab), uint64(len(want))
	return o+n <= uint64(len(data)) && sameTable(data[o:o+n], want, n <= wordTable)
}

// Why ReadInto refuses bytes (readError).
const (
	errShort = iota // shorter than the fixed header
	errMajor        // a format-3 magic of another major version
	errMagic        // no Phaser magic
	errRoot         // the root offset lies outside the bytes
)

// readError is the error of a read of data as type t that ReadInto
// refuses for reason why, made out of line. It empties p's table cache.
//
//go:noinline
func (p *Payload) readError(t *Type, data []byte, why int) error {
	p.forget()
	switch why {
	case errShort:
		return fmt.Errorf("phaser: read %s: %d bytes: %w", t.name, len(data), ErrNotPayload)
	case errMajor:
		return fmt.Errorf("phaser: read %s: format major version %d: %w", t.name, data[3], ErrNotPayload)
	case errMagic:
		return fmt.Errorf("phaser: read %s: magic % x: %w", t.name, data[:4], ErrNotPayload)
	}
	return fmt.Errorf("phaser: read %s: root offset %d beyond %d bytes: %w", t.name, le.Uint32(data[4:]), len(data), ErrNotPayload)
}

// Open continues writing a payload held in mem (created here or by C++
// Phaser): see payloadbuffer.Open. The root message must be of type t.
func Open(t *Type, mem []byte) (Msg, error) {
	buf, err := payloadbuffer.Open(mem)
	if err != nil {
		return Msg{}, fmt.Errorf("phaser: open %s: %w", t.name, err)
	}
	p := &Payload{buf: buf, version: buf.Version(), floor: buf.HeaderSize(), scrub: buf.Scrubs()}
	p.sync()
	root := buf.Message()
	if root == 0 {
		return Msg{}, fmt.Errorf("phaser: open %s: no root message: %w", t.name, ErrNotPayload)
	}
	if e, ok := p.rootIs(root, t); !ok {
		return Msg{}, p.wrongType("open", t, e)
	}
	return p.bind(root, t), nil
}

// rootEntryIs reports whether the format v3 control block entry e
// {uint64 hash, uint32 table, 0} has hash h and table tab.
func rootEntryIs(e *[12]byte, h uint64, tab uint32) bool {
	return le.Uint64(e[:8]) == h && le.Uint32(e[8:]) == tab
}

// wrongType is the error of a read or open as type t of a payload whose
// root is of the type control block entry e names.
func (p *Payload) wrongType(op string, t *Type, e uint32) error {
	return fmt.Errorf("phaser: %s %s: the payload's root message is a %s: %w", op, t.name, p.entryName(e), ErrWrongType)
}

// bind returns a handle on the message at off. The handle uses the compiled
// offsets when the message's table is the compiled one (always so for
// messages this process wrote) and its compiled fields lie in the payload,
// and the payload's table otherwise.
//
// In a writable payload, a message in the buffer header (an offset read
// from a payload continued with Open) is absent and the payload fails with
// ErrCorrupt: writes to its fields would overwrite the header.
//
// bind is the one call a nested message of a received payload costs: the
// compiled fields' bounds, then the table (the one the cache knows for t,
// or compared with t's compiled table once per payload), in line.
func (p *Payload) bind(off uint32, t *Type) Msg {
	// The common case first, one bound: off-1 wraps for off == 0
	// (absent), and off+extent within the payload puts the table word
	// off..off+4 in it.
	if mem := p.mem; uint64(off-1)+uint64(t.extent) < uint64(len(mem)) && off >= p.floor {
		if p.trust&t.trust != 0 { // a payload that trusts what it wrote (tables.go)
			return Msg{p: p, off: off, acc: p.compiledAccess()}
		}
		o := uint64(off)
		if tab := le.Uint32(mem[o : o+4 : o+4]); p.knownCompiled(t, tab) || p.verify(t, tab) {
			return Msg{p: p, off: off, acc: p.compiledAccess()}
		}
		return Msg{p: p, off: off}
	}
	if off < p.floor || off == 0 {
		if off != 0 {
			p.corrupt()
		}
		return Msg{p: p}
	}
	return Msg{p: p, off: off} // the compiled fields do not lie in the payload
}

// accessFor returns the access of a message of type t this process creates
// in p: compiled when the table a new message gets is t's compiled one.
func (p *Payload) accessFor(t *Type) access {
	if !t.native(p.version) {
		return throughTable
	}
	return p.compiledAccess()
}

// compiledAccess returns compiledWrite for a writable payload, else
// compiledRead.
func (p *Payload) compiledAccess() access {
	if p.buf != nil {
		return compiledWrite
	}
	return compiledRead
}

// whole reports whether the compiled fields of a message of type t at off
// lie in the payload.
func (p *Payload) whole(off uint32, t *Type) bool {
	return uint64(off)+uint64(t.extent) <= uint64(len(p.mem))
}

// maxEagerMetadata is the most table bytes a v3 payload installs when it is
// created (spec 8.7 PROPOSAL: kMaxEagerMetadataSize).
const maxEagerMetadata = 4096

// createRootV3 creates the root of a v3 payload (spec 8.7): root message,
// control block (none for a type that reaches no other), then the tables of
// every reachable type in one block, registered up front.
func (p *Payload) createRootV3(t *Type) (Msg, error) {
	root := p.buf.Allocate(int(t.BinarySize(p.version)), payloadbuffer.Zero|payloadbuffer.Small)
	if root == 0 {
		return Msg{}, ErrNoFit
	}
	p.buf.SetMessage(root)
	capacity := uint32(max(1, t.typeCount))
	var cb uint32
	if t.typeCount > 1 {
		cb = p.buf.Allocate(int(p.controlHeader()+p.entrySize()*capacity), payloadbuffer.Zero|payloadbuffer.Small)
		if cb == 0 {
			return Msg{}, ErrNoFit
		}
		p.sync()
		p.initControl(cb, capacity)
		p.buf.SetMetadata(cb)
	}
	total := 0
	for _, r := range t.reach {
		total += len(r.tableFor(p.version))
	}
	if cb == 0 || total > maxEagerMetadata || len(t.reach) != t.typeCount {
		if !p.installMetadata(root, t) {
			return Msg{}, ErrNoFit
		}
		p.root = t
		p.seed(t)
		return Msg{p: p, off: root, acc: p.accessFor(t)}, nil
	}
	block := p.buf.Allocate(total, payloadbuffer.Small|payloadbuffer.Overwrite)
	if block == 0 {
		return Msg{}, ErrNoFit
	}
	p.sync()
	off := block
	for i, r := range t.reach {
		table := r.tableFor(p.version)
		copy(p.mem[off:], table)
		e := cb + p.controlHeader() + uint32(i)*p.entrySize()
		le.PutUint64(p.mem[e:], r.hash)
		le.PutUint32(p.mem[e+8:], off)
		off += uint32(len(table))
	}
	le.PutUint32(p.mem[cb+offCount:], uint32(len(t.reach)))
	le.PutUint32(p.mem[root:], block)
	p.root = t
	p.seed(t)
	return Msg{p: p, off: root, acc: p.accessFor(t)}, nil
}

// imageKey identifies the buffers whose creation images are alike.
type imageKey struct {
	version payloadbuffer.Version
	tuning  payloadbuffer.Tuning
	movable bool
}

// reset returns the payload to its state right after the root was
// created, which it rebuilds from t's creation image: spec 8.6 for a buffer
// that filled up, and every Clear of a v3 root (docs/format.md). It reports
// false, changing nothing, when the image does not apply to the buffer.
func (p *Payload) reset(t *Type) bool {
	if p.img == nil {
		p.img = t.image(imageKey{p.version, p.buf.Tuning(), !p.buf.Fixed()})
	}
	// The image's root must be this one, so that handles to it stay valid.
	if p.img == nil || p.img.Message() != p.buf.Message() || p.buf.ResetTo(p.img) != nil {
		return false
	}
	p.sync()
	p.err, p.lost = nil, false
	p.noUnknown()
	p.reseed(t)
	return true
}

// image returns the payload image of a new message of type t in a buffer
// of the given kind, computed once (nil if it cannot be made).
func (t *Type) image(k imageKey) *payloadbuffer.Image {
	t.imagesMu.Lock()
	defer t.imagesMu.Unlock()
	if img, ok := t.images[k]; ok {
		return img
	}
	opts := Options{Version: k.version, Tuning: k.tuning, InitialSize: 1 << 16}
	var m Msg
	if k.movable {
		m = New(t, opts)
	} else {
		var err error
		if m, err = NewIn(t, make([]byte, 1<<16), opts); err != nil {
			return nil
		}
	}
	img, err := payloadbuffer.NewImage(m.p.buf.Bytes())
	if err != nil {
		return nil
	}
	if t.images == nil {
		t.images = make(map[imageKey]*payloadbuffer.Image)
	}
	t.images[k] = img
	return img
}
