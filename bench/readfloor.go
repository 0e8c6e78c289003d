package bench

import "bytes"

// read-floor: hand-written, straight-line reads of phaser's Phaser 3
// payloads of small and header, the floor of phaser's read-one and
// read-all: what generated code could do with nothing between it and the
// bytes, making the checks ReadXInto and the accessors make.
//
//   - The payload header: its size, the magic, major version 3, the
//     buffer's failed flag clear.
//   - The root: not 0, its compiled extent within the payload.
//   - The root's type: where the payload has a control block, its first
//     entry names the root's type (the hash of its name) and table.
//   - The tables: the table block at the root's table word (the root's
//     table, then those of the types it reaches, as phaser's format 3
//     root lays them out) is byte-identical to the compiled one, so that
//     the compiled offsets hold; a nested message's table word must be the
//     block's entry for its type.
//   - Every message, string and presence bit read is checked against the
//     payload's length (Go's own bounds checks stay on).
//
// It has no Payload: the handle is the bytes. What it leaves out is what a
// *Payload holds for later reads (the tables found, the unknown-field
// index, the write state a reused Payload drops), the format 2 payloads
// and foreign tables phaser reads through the table, and the errors that
// say why a payload was refused: any payload off the straight line reads
// as 0 here. It builds no payloads of its own: it reads those phaser's
// Build writes (Codec.Source). TestReadFloor checks that it reads the
// values phaser wrote, that cut or corrupted payloads never make it
// panic, and that a changed table or another root type read as 0.

// readFloor holds what a generated reader would have as constants: each
// type's compiled table block and the hash of its name, taken from a
// payload phaser built.
type readFloor struct {
	smallBlock            [40]byte // the table blocks
	headerBlock           [52]byte
	smallHash, headerHash uint64 // control block entry hashes (0: the payloads have none)
	headerTimeTab         uint32 // the Time table's offset in header's block
}

// offControl is the payload header word holding the control block's
// offset (0: none), and controlRoot the offset of its first entry
// {uint64 hash; uint32 table; uint32 0} (docs/format.md, section 6).
const offControl, controlRoot = 20, 24

// hybridTable is the first word of a hybrid field table (docs/format.md,
// section 5.1), the kind phaser writes for every message but Any.
const hybridTable = 0x50484431

func newReadFloor() (*readFloor, error) {
	f := new(readFloor)
	var err error
	grab := func(shape string, block []byte) (hash uint64) {
		p := bytes.Clone(NewCodec("phaser", shape).Build(0))
		root := le.Uint32(p[4:])
		tab := le.Uint32(p[root:])
		// The block: each table's size from its header (16 bytes, then 4 a
		// dense entry and 8 a sparse one), tables back to back until the
		// root's messages' first byte, as the format 3 root lays them out.
		end := tab
		for end+16 <= uint32(len(p)) && le.Uint32(p[end:]) == hybridTable {
			end += 16 + 4*le.Uint32(p[end+8:]) + 8*le.Uint32(p[end+12:])
		}
		if int(end-tab) != len(block) {
			err = errorf("read-floor: %s's table block has %d bytes, not the %d it is written for", shape, end-tab, len(block))
		}
		copy(block, p[tab:end])
		if cb := le.Uint32(p[offControl:]); cb != 0 {
			hash = le.Uint64(p[cb+controlRoot:])
		}
		return hash
	}
	f.smallHash = grab("small", f.smallBlock[:])
	f.headerHash = grab("header", f.headerBlock[:])
	f.headerTimeTab = 16 + 4*le.Uint32(f.headerBlock[8:]) + 8*le.Uint32(f.headerBlock[12:]) // after Header's own table
	return f, err
}

// root returns the root message's size bytes and its table word, having
// checked the payload header, the root's type and its table block (b40's
// or b52's, whichever is not nil).
func root(p []byte, size uint64, hash uint64, b40 *[40]byte, b52 *[52]byte) ([]byte, uint32, bool) {
	if len(p) < payloadHeader || p[0] != 'P' || p[1] != 'H' || p[3] != 3 || p[2]&flagFailed != 0 {
		return nil, 0, false
	}
	r := uint64(le.Uint32(p[4:]))
	if r == 0 || r+size > uint64(len(p)) {
		return nil, 0, false
	}
	m := p[r : r+size : r+size]
	tab := le.Uint32(m)
	if cb := uint64(le.Uint32(p[offControl:])); cb != 0 {
		if cb+controlRoot+12 > uint64(len(p)) {
			return nil, 0, false
		}
		e := p[cb+controlRoot : cb+controlRoot+12 : cb+controlRoot+12]
		if le.Uint64(e) != hash || le.Uint32(e[8:]) != tab {
			return nil, 0, false
		}
	}
	if b40 != nil {
		if b := block40(p, tab); b == nil || !same40(b, b40) {
			return nil, 0, false
		}
	} else if b := block52(p, tab); b == nil || !same52(b, b52) {
		return nil, 0, false
	}
	return m, tab, true
}

// block40 and block52 return the n bytes at tab (n the size of a table
// block), or nil.
func block40(p []byte, tab uint32) *[40]byte {
	if uint64(tab)+40 > uint64(len(p)) {
		return nil
	}
	return (*[40]byte)(p[tab:])
}

func block52(p []byte, tab uint32) *[52]byte {
	if uint64(tab)+52 > uint64(len(p)) {
		return nil
	}
	return (*[52]byte)(p[tab:])
}

// same40 and same52 compare table blocks a word at a time (the last
// overlapping), in line: a compare of strings or arrays calls memequal.
func same40(a, b *[40]byte) bool {
	return (le.Uint64(a[0:])^le.Uint64(b[0:]))|(le.Uint64(a[8:])^le.Uint64(b[8:]))|(le.Uint64(a[16:])^le.Uint64(b[16:]))|
		(le.Uint64(a[24:])^le.Uint64(b[24:]))|(le.Uint64(a[32:])^le.Uint64(b[32:])) == 0
}

func same52(a, b *[52]byte) bool {
	return (le.Uint64(a[0:])^le.Uint64(b[0:]))|(le.Uint64(a[8:])^le.Uint64(b[8:]))|(le.Uint64(a[16:])^le.Uint64(b[16:]))|
		(le.Uint64(a[24:])^le.Uint64(b[24:]))|(le.Uint64(a[32:])^le.Uint64(b[32:]))|(le.Uint64(a[44:])^le.Uint64(b[44:])) == 0
}

func (f *readFloor) oneSmall(p []byte) uint64 {
	m, _, ok := root(p, smallSize, f.smallHash, &f.smallBlock, nil)
	if !ok || m[4]&(1<<smallMoneyID) == 0 {
		return 0
	}
	return le.Uint64(m[smallMoney:])
}

func (f *readFloor) allSmall(p []byte) uint64 {
	m, _, ok := root(p, smallSize, f.smallHash, &f.smallBlock, nil)
	if !ok {
		return 0
	}
	name, ok1 := floorStr(p, le.Uint32(m[smallName:]))
	phone, ok2 := floorStr(p, le.Uint32(m[smallPhone:]))
	if !ok1 || !ok2 {
		return 0
	}
	pres := uint32(m[4])
	return useBytes(name) + le.Uint64(m[smallBirthDay:])&on64(pres, smallBirthDayID) + useBytes(phone) +
		uint64(le.Uint32(m[smallSiblings:])&on32(pres, smallSiblingsID)) +
		uint64(m[smallSpouse]&byte(on32(pres, smallSpouseID))) + le.Uint64(m[smallMoney:])&on64(pres, smallMoneyID)
}

// stamp returns the header m's Time message (the zero message if
// absent), or false where its table word is not the block's Time table.
func (f *readFloor) stamp(p, m []byte, tab uint32) ([]byte, bool) {
	s := uint64(le.Uint32(m[headerStamp:]))
	if s == 0 {
		return zeroMsg[:timeSize], true
	}
	if s+timeSize > uint64(len(p)) {
		return nil, false
	}
	st := p[s : s+timeSize : s+timeSize]
	return st, le.Uint32(st) == tab+f.headerTimeTab
}

// oneHeader and allHeader each check the root and its stamp themselves,
// as a generated reader would: through a helper (a call: it does not
// inline) header's reads cost 9 to 14 instructions more.
func (f *readFloor) oneHeader(p []byte) uint64 {
	m, tab, ok := root(p, headerSize, f.headerHash, nil, &f.headerBlock)
	if !ok {
		return 0
	}
	st, ok := f.stamp(p, m, tab)
	if !ok {
		return 0
	}
	return uint64(int32(le.Uint32(st[timeNanos:]) & on32(uint32(st[4]), timeNanosID)))
}

func (f *readFloor) allHeader(p []byte) uint64 {
	m, tab, ok := root(p, headerSize, f.headerHash, nil, &f.headerBlock)
	if !ok {
		return 0
	}
	st, ok := f.stamp(p, m, tab)
	if !ok {
		return 0
	}
	id, ok := floorStr(p, le.Uint32(m[headerFrameID:]))
	if !ok {
		return 0
	}
	tp := uint32(st[4])
	return uint64(le.Uint32(m[headerSeq:])&on32(uint32(m[4]), headerSeqID)) +
		uint64(int64(le.Uint64(st[timeSeconds:])&on64(tp, timeSecondsID))) +
		uint64(int32(le.Uint32(st[timeNanos:])&on32(tp, timeNanosID))) + useBytes(id)
}

func init() {
	register("read-floor", "small", opsReadOnly, readFloorCodec("small"))
	register("read-floor", "header", opsReadOnly, readFloorCodec("header"))
}

// readFloorCodec is read-floor for shape (small or header): its reads, and
// phaser's build as the source of the payloads they read.
//
//go:noinline
func readFloorCodec(shape string) func() *Codec {
	return func() *Codec {
		f, err := newReadFloor()
		must(err)
		c := &Codec{Source: NewCodec("phaser", shape).Build}
		switch shape {
		case "small":
			c.ReadAll = func(p []byte) uint64 { return f.allSmall(p) }
			c.ReadOne = func(p []byte) uint64 { return f.oneSmall(p) }
		case "header":
			c.ReadAll = func(p []byte) uint64 { return f.allHeader(p) }
			c.ReadOne = func(p []byte) uint64 { return f.oneHeader(p) }
		}
		return c
	}
}
