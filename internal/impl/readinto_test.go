package impl_test

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/phaser-go/phaser/internal/impl"
)

// TestReadIntoForgetsVerifiedTables reads, into one reused Payload, a
// payload whose root table is the compiled one and then the same bytes
// with the table's entry for seq pointing at frame_id's slot: the second
// read must resolve seq through its own table, as a fresh Read does, not
// with the compiled offsets the first read verified at the same table
// offset.
func TestReadIntoForgetsVerifiedTables(t *testing.T) {
	header, _, _ := testTypes(t)
	seq, frame := field(header, "seq"), field(header, "frame_id")
	m := impl.New(header)
	m.Set32(seq.Field, 7)
	m.SetString(frame.Field, "base_link")
	good := bytes.Clone(m.PayloadBytes())
	le := binary.LittleEndian
	root := le.Uint32(good[4:])
	tab := le.Uint32(good[root:])
	if !bytes.Equal(good[tab:tab+uint32(len(header.Table()))], header.Table()) {
		t.Fatal("the payload's root table is not the compiled one")
	}
	// The dense entry of field 1 (seq) is at table+16: offset | id<<24.
	bad := bytes.Clone(good)
	entry := tab + 16 + 4*(seq.Number-le.Uint32(good[tab+4:]))
	if got := le.Uint32(bad[entry:]); got != seq.Offset|uint32(seq.ID)<<24 {
		t.Fatalf("seq's table entry %#x, want offset %d id %d", got, seq.Offset, seq.ID)
	}
	le.PutUint32(bad[entry:], frame.Offset|uint32(seq.ID)<<24)
	want := le.Uint32(bad[root+frame.Offset:]) // what seq reads through bad's table
	if want == 7 {
		t.Fatal("frame_id's slot holds 7: the test cannot tell the offsets apart")
	}
	fresh, err := impl.Read(header, bad)
	if err != nil || fresh.Get32(seq.Field) != want {
		t.Fatalf("Read: seq %d (%v), want %d", fresh.Get32(seq.Field), err, want)
	}
	p := new(impl.Payload)
	for range 2 {
		r, err := impl.ReadInto(p, header, good)
		if err != nil || r.Get32(seq.Field) != 7 {
			t.Fatalf("ReadInto good: seq %d (%v)", r.Get32(seq.Field), err)
		}
		r, err = impl.ReadInto(p, header, bad)
		if err != nil || r.Get32(seq.Field) != want {
			t.Fatalf("ReadInto bad after good: seq %d (%v), want %d", r.Get32(seq.Field), err, want)
		}
	}
}

// TestWriteHostilePresenceID opens, for writing, a payload whose root
// message is the last bytes of the buffer and whose table gives seq the
// presence id 254 (word 7, past the end of the message and of the buffer):
// Set32 must refuse the write, not index past the payload.
func TestWriteHostilePresenceID(t *testing.T) {
	header, _, _ := testTypes(t)
	seq, frame := field(header, "seq"), field(header, "frame_id")
	le := binary.LittleEndian
	tried := 0
	for size := 64; size <= 4096; size += 4 {
		mem := make([]byte, size)
		m, err := impl.NewIn(header, mem)
		if err != nil {
			continue
		}
		m.SetString(frame.Field, string(make([]byte, 12)))
		if m.Failed() {
			continue
		}
		root := le.Uint32(mem[4:])
		tab := le.Uint32(mem[root:])
		s := le.Uint32(mem[root+frame.Offset:]) // string block: length, then bytes
		msg := s + 4                            // the bytes become the root message
		if uint64(msg)+4+4*(254>>5)+4 <= uint64(len(mem)) {
			continue // the presence word would still lie in the buffer
		}
		entry := tab + 16 + 4*(seq.Number-le.Uint32(mem[tab+4:]))
		if le.Uint32(mem[entry:]) != seq.Offset|uint32(seq.ID)<<24 {
			t.Fatalf("seq's table entry %#x is not the compiled one", le.Uint32(mem[entry:]))
		}
		le.PutUint32(mem[entry:], seq.Offset|254<<24)
		le.PutUint32(mem[msg:], tab)
		le.PutUint32(mem[4:], msg)
		tried++
		w, err := impl.Open(header, mem)
		if err != nil {
			continue // not a payload Open accepts: nothing to write through
		}
		before := bytes.Clone(mem)
		w.Set32(seq.Field, 7)
		w.ClearScalar(seq.Field)
		if !bytes.Equal(before, mem) {
			t.Errorf("size %d: a write through presence id 254 changed the payload", size)
		}
		return
	}
	t.Fatalf("no buffer size put the root message's presence word past the end (%d tried)", tried)
}

// TestReadTableBlock reads a format 3 Header, whose tables (Header's, then
// Timestamp's) a new payload installs in one block that a reader compares
// at once: intact, both messages read at the compiled offsets; with the
// Timestamp table of the block changed (a peer whose Timestamp is another
// version), the root still does, and the stamp reads through its own table;
// with the block intact but the stamp's table word pointing at another
// table, the stamp reads through that table.
func TestReadTableBlock(t *testing.T) {
	header, _, _ := testTypes(t)
	stamp := field(header, "stamp")
	ts := stamp.Type
	seconds, nanos := field(ts, "seconds"), field(ts, "nanos")
	m := impl.New(header)
	st := m.MutableMessage(stamp.Field, ts)
	st.Set64(seconds.Field, 5)
	st.Set32(nanos.Field, 9)
	good := bytes.Clone(m.PayloadBytes())
	le := binary.LittleEndian
	root := le.Uint32(good[4:])
	tab := le.Uint32(good[root:])
	stab := tab + uint32(len(header.Table()))
	if !bytes.Equal(good[stab:stab+uint32(len(ts.Table()))], ts.Table()) {
		t.Fatal("Timestamp's table does not follow Header's: the payload has no table block")
	}
	so := le.Uint32(good[root+stamp.Offset:])
	if le.Uint32(good[so:]) != stab {
		t.Fatalf("the stamp's table word is %#x, want %#x", le.Uint32(good[so:]), stab)
	}
	read := func(data []byte) (impl.Msg, impl.Msg) {
		t.Helper()
		r, err := impl.ReadInto(new(impl.Payload), header, data)
		if err != nil {
			t.Fatal(err)
		}
		return r, r.Message(stamp.Field, ts)
	}
	r, s := read(good)
	if !r.Compiled() || !s.Compiled() || s.Get64(seconds.Field) != 5 || s.Get32(nanos.Field) != 9 {
		t.Fatalf("intact: compiled %v %v, seconds %d nanos %d", r.Compiled(), s.Compiled(), s.Get64(seconds.Field), s.Get32(nanos.Field))
	}

	// nanos's dense entry (field 2, the table's base 1: at +20) points at
	// seconds' value.
	bad := bytes.Clone(good)
	le.PutUint32(bad[stab+16+4*(nanos.Number-le.Uint32(bad[stab+4:])):], seconds.Offset|uint32(nanos.ID)<<24)
	r, s = read(bad)
	if !r.Compiled() || s.Compiled() || s.Get32(nanos.Field) != 5 {
		t.Fatalf("other Timestamp table: compiled %v %v, nanos %d, want the root compiled and nanos 5 through the table", r.Compiled(), s.Compiled(), s.Get32(nanos.Field))
	}

	// The stamp's table word points at Header's table: field 2 is there
	// the stamp slot of a Header.
	other := bytes.Clone(good)
	le.PutUint32(other[so:], tab)
	r, s = read(other)
	if !r.Compiled() || s.Compiled() {
		t.Fatalf("stamp with Header's table: compiled %v %v, want the stamp through its table", r.Compiled(), s.Compiled())
	}
	if got, want := s.Get32(nanos.Field), le.Uint32(other[so+stamp.Offset:]); got != want {
		t.Fatalf("stamp with Header's table: nanos %d, want %d", got, want)
	}
}

// TestReadTableBlockMoved reads a payload whose block of tables lies at
// another offset than a new payload's, between reads of payloads with the
// block where new payloads have it: the table cache a reader copies for
// the usual offset (the block's cache) must not serve the other one.
func TestReadTableBlockMoved(t *testing.T) {
	header, stamp, nanos, good, o := stampedHeader(t)
	ts := stamp.Type
	le := binary.LittleEndian
	root, tab, so, stab := o.root, o.tab, o.stamp, o.stampTable
	n := stab - tab + uint32(len(ts.Table())) // the block: Header's table, then Timestamp's

	// The same payload with a copy of the block at its end: the root's
	// table word, its control block entry and the stamp's table word
	// point at the copy; the old block is zeroed.
	moved := append(bytes.Clone(good), make([]byte, 8)...)
	at := uint32(len(moved)) &^ 7
	moved = append(moved[:at], good[tab:tab+n]...)
	clear(moved[tab : tab+n])
	le.PutUint32(moved[root:], at)
	le.PutUint32(moved[so:], at+stab-tab)
	cb := le.Uint32(good[20:])
	if le.Uint32(moved[cb+32:]) != tab {
		t.Fatalf("control block entry names table %#x, want %#x", le.Uint32(moved[cb+32:]), tab)
	}
	le.PutUint32(moved[cb+32:], at)

	p := new(impl.Payload)
	for i, data := range [][]byte{good, moved, good, moved} {
		r, err := impl.ReadInto(p, header, data)
		if err != nil {
			t.Fatalf("read %d: %v", i, err)
		}
		s := r.Message(stamp.Field, ts)
		if !r.Compiled() || !s.Compiled() || s.Get32(nanos.Field) != 9 {
			t.Fatalf("read %d: compiled %v %v, nanos %d, want both compiled and 9", i, r.Compiled(), s.Compiled(), s.Get32(nanos.Field))
		}
	}
	// The moved payload with the stamp's table word left at the old
	// block's place, now zeros: not the compiled table, whatever the
	// cache of the usual offset says.
	stale := bytes.Clone(moved)
	le.PutUint32(stale[so:], stab)
	for i, data := range [][]byte{good, stale} {
		r, err := impl.ReadInto(p, header, data)
		if err != nil {
			t.Fatalf("stale read %d: %v", i, err)
		}
		if s := r.Message(stamp.Field, ts); s.Compiled() != (i == 0) {
			t.Fatalf("stale read %d: stamp compiled %v, want %v", i, s.Compiled(), i == 0)
		}
	}
}

// TestReadTableEveryByte reads a format 3 Header with each byte of its
// block of tables (Header's, then Timestamp's: 32 to 64 bytes, which
// readInto compares in line) changed in turn: a byte of Header's table
// leaves the root reading through the payload's table; a byte of
// Timestamp's leaves the root compiled (its own table compared alone) and
// the stamp reading through its table.
func TestReadTableEveryByte(t *testing.T) {
	header, _, _ := testTypes(t)
	stamp := field(header, "stamp")
	ts := stamp.Type
	m := impl.New(header)
	m.MutableMessage(stamp.Field, ts).Set64(field(ts, "seconds").Field, 5)
	good := bytes.Clone(m.PayloadBytes())
	le := binary.LittleEndian
	tab := le.Uint32(good[le.Uint32(good[4:]):])
	n, sn := uint32(len(header.Table())), uint32(len(ts.Table()))
	if n+sn < 32 || n+sn > 64 {
		t.Fatalf("the block is %d bytes: not the in-line compare's 32 to 64", n+sn)
	}
	for i := range n + sn {
		bad := bytes.Clone(good)
		bad[tab+i] ^= 0x40
		r, err := impl.ReadInto(new(impl.Payload), header, bad)
		if err != nil {
			t.Fatal(err)
		}
		s := r.Message(stamp.Field, ts)
		if inRoot := i < n; r.Compiled() == inRoot || !inRoot && s.Compiled() {
			t.Errorf("byte %d of the block (Header's table %v) changed: root compiled %v, stamp compiled %v", i, inRoot, r.Compiled(), s.Compiled())
		}
	}
}

// TestReadIntoEmptiesCache reads, into one Payload, a format 3 Header
// whose block of tables fills the whole table cache, then each of a set of
// other bytes: refused ones, empty ones, a root of another type, a block
// that does not match, a root table alone. After each, the cache must be
// the one a fresh Payload's read of the same bytes leaves: ReadInto
// forgets the cache on every way out but the one that overwrites it whole.
func TestReadIntoEmptiesCache(t *testing.T) {
	header, stamp, nanos, good, o := stampedHeader(t)
	le := binary.LittleEndian
	root, tab, stab := o.root, o.tab, o.stampTable
	edit := func(f func(b []byte)) []byte {
		b := bytes.Clone(good)
		f(b)
		return b
	}
	tsm := impl.New(stamp.Type)
	tsm.Set32(nanos.Field, 1)
	cases := map[string][]byte{
		"short":         good[:8],
		"magic":         edit(func(b []byte) { b[0] = 'X' }),
		"major":         edit(func(b []byte) { b[3] = 2 }),
		"failed":        edit(func(b []byte) { b[2] |= 1 << 2 }),
		"no root":       edit(func(b []byte) { le.PutUint32(b[4:], 0) }),
		"root beyond":   edit(func(b []byte) { le.PutUint32(b[4:], uint32(len(b))) }),
		"other type":    bytes.Clone(tsm.PayloadBytes()),
		"stamp table":   edit(func(b []byte) { b[stab+8] ^= 0xff }),
		"header table":  edit(func(b []byte) { b[tab+8] ^= 0xff }),
		"no table":      edit(func(b []byte) { le.PutUint32(b[root:], 0) }),
		"short of root": good[:root+4],
		"bare root":     edit(func(b []byte) { le.PutUint32(b[20:], 0); le.PutUint32(b[root:], 0) }),
	}
	for name, data := range cases {
		fresh := new(impl.Payload)
		_, ferr := impl.ReadInto(fresh, header, data)
		p := new(impl.Payload)
		if _, err := impl.ReadInto(p, header, good); err != nil {
			t.Fatal(err)
		}
		if impl.TableCache(p) == impl.TableCache(fresh) {
			t.Fatalf("%s: the good payload leaves the cache a read of these bytes leaves: the case tests nothing", name)
		}
		_, err := impl.ReadInto(p, header, data)
		if (err == nil) != (ferr == nil) {
			t.Fatalf("%s: error %v after a read, %v fresh", name, err, ferr)
		}
		if got, want := impl.TableCache(p), impl.TableCache(fresh); got != want {
			t.Errorf("%s: cache %x after a read of a Header, want a fresh read's %x", name, got, want)
		}
	}
}

// stampOffsets are the offsets in a format 3 Header payload of its root,
// the root's table, the stamp and the stamp's table.
type stampOffsets struct{ root, tab, stamp, stampTable uint32 }

// stampedHeader returns a new format 3 Header payload whose stamp has
// nanos 9, with Header's stamp field, Timestamp's nanos field and the
// payload's offsets.
func stampedHeader(t *testing.T) (header *impl.Type, stamp, nanos *impl.FieldInfo, good []byte, o stampOffsets) {
	t.Helper()
	header, _, _ = testTypes(t)
	stamp = field(header, "stamp")
	nanos = field(stamp.Type, "nanos")
	m := impl.New(header)
	m.MutableMessage(stamp.Field, stamp.Type).Set32(nanos.Field, 9)
	good = bytes.Clone(m.PayloadBytes())
	le := binary.LittleEndian
	o.root = le.Uint32(good[4:])
	o.tab = le.Uint32(good[o.root:])
	o.stamp = le.Uint32(good[o.root+stamp.Offset:])
	o.stampTable = le.Uint32(good[o.stamp:])
	return header, stamp, nanos, good, o
}
