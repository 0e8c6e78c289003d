package impl_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/phaser-go/phaser/internal/goldens"
	"github.com/phaser-go/phaser/internal/impl"
	"github.com/phaser-go/phaser/internal/testpb"
	"github.com/phaser-go/phaser/payloadbuffer"
	"github.com/phaser-go/phaser/runtime/phaserimpl"
)

// Hostile input on the write path.
//
// FuzzOpenWrite continues writing arbitrary bytes with impl.Open, as a
// process does with a payload another process (or C++ Phaser) left in
// shared memory: such bytes are as hostile as a received payload. For each
// input it opens the bytes as the types whose compiled table the root's
// table is, and as two types picked by the input's last byte (type
// confusion must be as safe as a hostile table), and drives every write
// accessor over Type.Fields() (writeWalker): scalars, strings and bytes
// (short, ~100 bytes, allocated, aliasing the payload), nested messages,
// repeated scalars, strings and messages (append, insert, erase, reserve,
// resize, swap), oneofs, Any, CopyFrom, the Clear of every field and then of
// the root; then it reads the result back with FuzzRead's walker. It
// requires: no panic, the buffer's memory stays the caller's memory (a
// fixed payload never grows; a movable one grows only by what the writes
// justify), bounded work (a watchdog), and a readable result.
//
// Seeds: the golden payloads (added at run time, never committed) and the
// payloads committed under testdata/fuzz/FuzzOpenWrite, which
// TestWriteOpenWriteSeeds regenerates (PHASER_WRITE_FUZZ_SEEDS=1).

const (
	writeDepth  = 2  // nesting depth the write walker follows
	writeBudget = 48 // messages the write walker writes per type
	longLen     = 100
)

func FuzzOpenWrite(f *testing.F) {
	types := fuzzTypes(f)
	if dir := fuzzSetup.dir; dir != "" {
		cases, err := goldens.Manifest(dir)
		if err != nil {
			f.Fatal(err)
		}
		for _, c := range cases {
			data, err := c.Read(dir, ".phaser.bin")
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	} else {
		f.Logf("goldens not found: seeding with the committed corpus only")
	}
	bases := patchBases(f)
	for i := range min(len(bases), 8) {
		f.Add([]byte{patchMark, byte(i), 0, 0, 0x10, 0, 0, 0})
	}
	for _, p := range headerPatches(f, bases) {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		data = patched(bases, data)
		for _, typ := range openWriteTypes(types, data) {
			checkHostileWrite(t, typ, data)
		}
	})
}

// patchMark starts an input that is not a payload but patches to one of
// the valid payloads built by openSeeds: byte 1 picks the payload, then
// each 6 bytes are a uint16 word index and a uint32 value (reduced to a
// plausible offset when its top bit is clear). Patches of message contents
// keep the allocator's structures intact, so Open accepts them far more
// often than random mutations of raw bytes.
const patchMark = '!'

var patchBaseCache [][]byte

func patchBases(tb testing.TB) [][]byte {
	if patchBaseCache == nil {
		for _, s := range openSeeds(tb) {
			if s.typ == nil { // the valid payloads
				patchBaseCache = append(patchBaseCache, s.data)
			}
		}
	}
	return patchBaseCache
}

func patched(bases [][]byte, data []byte) []byte {
	if len(data) < 2 || data[0] != patchMark || len(bases) == 0 {
		return data
	}
	out := bytes.Clone(bases[int(data[1])%len(bases)])
	for p := data[2:]; len(p) >= 6; p = p[6:] {
		at := 4 * (int(binaryLE.Uint16(p)) % (len(out) / 4))
		v := binaryLE.Uint32(p[2:])
		if v&(1<<31) == 0 {
			v %= uint32(len(out) + 16)
		}
		binaryLE.PutUint32(out[at:], v)
	}
	return out
}

// headerPatches returns patch inputs (patchMark) that point each word of
// each base holding an offset into its heap into the buffer header, at the
// free list's head: a write that follows such an offset must be refused,
// not land on the allocator's state (writeWalker.inPlace,
// TestOpenHeaderElements).
func headerPatches(tb testing.TB, bases [][]byte) [][]byte {
	var out [][]byte
	for i, b := range bases[:min(len(bases), 256)] {
		buf, err := payloadbuffer.Open(bytes.Clone(b))
		if err != nil {
			tb.Fatalf("base %d: %v", i, err)
		}
		hdr := buf.HeaderSize()
		for k := hdr; k+4 <= uint32(len(b)) && k/4 <= 0xFFFF; k += 4 {
			if v := word32(b, k); v >= hdr && v < uint32(len(b)) && v%4 == 0 {
				p := []byte{patchMark, byte(i), 0, 0, 16, 0, 0, 0}
				binaryLE.PutUint16(p[2:], uint16(k/4))
				out = append(out, p)
			}
		}
	}
	return out
}

// openWriteTypes returns the types an input is written as: those whose
// compiled table is the root's table (the payload's own type), and two
// chosen by the last byte.
func openWriteTypes(types []*impl.Type, data []byte) []*impl.Type {
	var out []*impl.Type
	if len(data) >= 8 {
		if root := binaryLE.Uint32(data[4:]); uint64(root)+4 <= uint64(len(data)) {
			if tab := binaryLE.Uint32(data[root:]); tab != 0 && uint64(tab) < uint64(len(data)) {
				for _, t := range types {
					if bytes.HasPrefix(data[tab:], t.Table()) {
						out = append(out, t)
					}
				}
			}
		}
	}
	if len(data) > 0 && len(types) > 0 {
		sel := int(data[len(data)-1])
		out = append(out, types[sel%len(types)], types[(sel*37+11)%len(types)])
	}
	if len(out) > 4 {
		out = out[:4]
	}
	return out
}

// checkHostileWrite opens a copy of data as typ and, if Open accepts it,
// writes every field and reads the result back.
func checkHostileWrite(t *testing.T, typ *impl.Type, data []byte) {
	mem := bytes.Clone(data)
	m, err := impl.Open(typ, mem)
	if err != nil {
		return
	}
	w := &writeWalker{t: t, budget: writeBudget}
	watchdog("writes to "+typ.Name(), data, func() {
		w.msg(m, typ, 0)
		if src := smallMessage(typ); src.IsPresent() {
			m.CopyFrom(typ, src)
		}
		w.clearFields(m, typ)
		m.Clear(typ)
		// Writes after the Clear of the root.
		w.budget = 4
		w.msg(m, typ, writeDepth)
	})
	if len(mem) != len(data) {
		t.Fatalf("%s: the memory changed length", typ.Name())
	}
	buf := m.Payload().Buffer()
	got := buf.Memory()
	same := len(got) > 0 && unsafe.SliceData(got) == unsafe.SliceData(mem)
	// No write moves the root, and a fixed buffer's full size is its
	// memory's, whatever the writes found.
	if !bytes.Equal(got[4:8], data[4:8]) {
		t.Fatalf("%s: the root offset changed: % x -> % x", typ.Name(), data[4:8], got[4:8])
	}
	if buf.Fixed() && !bytes.Equal(got[12:16], data[12:16]) {
		t.Fatalf("%s: a fixed buffer's full size changed: % x -> % x", typ.Name(), data[12:16], got[12:16])
	}
	switch {
	case buf.Fixed() && (!same || len(got) > len(mem)):
		t.Fatalf("%s: a fixed payload of %d bytes left its memory (now %d bytes)", typ.Name(), len(mem), len(got))
	case !buf.Fixed() && len(got) > 4*len(mem)+1<<20:
		t.Fatalf("%s: a movable payload of %d bytes grew to %d bytes: the writes do not justify it",
			typ.Name(), len(mem), len(got))
	}
	// Read the result back (a received copy of the whole memory).
	r, err := impl.Read(typ, got)
	if err != nil {
		return // the writes can leave the root out of the payload only if it was
	}
	rw := &fuzzWalker{t: t, data: got, budget: walkBudget}
	watchdog("reading back "+typ.Name(), got, func() { rw.msg(r, typ, 0) })
}

// smallMessages caches, per type, a small message to CopyFrom.
var smallMessages = map[*impl.Type]impl.Msg{}

// smallMessage returns a small message of type t: its first scalar and
// string fields set (nil Msg for a type without such fields).
func smallMessage(t *impl.Type) impl.Msg {
	if m, ok := smallMessages[t]; ok {
		return m
	}
	m := impl.New(t, impl.Options{Version: payloadbuffer.V2})
	for _, f := range t.Fields() {
		if f.Union != nil || f.Repeated {
			continue
		}
		switch f.Kind {
		case impl.String, impl.Bytes:
			m.SetString(f.Field, "copied")
		case impl.Message:
		default:
			setScalar(m, f, 3)
		}
	}
	smallMessages[t] = m
	return m
}

func setScalar(m impl.Msg, f *impl.FieldInfo, v uint64) {
	switch fuzzElemSize(f.Kind) {
	case 1:
		m.Set8(f.Field, uint8(v))
	case 4:
		m.Set32(f.Field, uint32(v))
	default:
		m.Set64(f.Field, v)
	}
}

// writeWalker calls the write accessors of a message and its fields.
type writeWalker struct {
	t      *testing.T
	budget int
}

// inPlace runs write, a write that allocates nothing (a scalar field's or
// an element's store), and fails the test if it changed the buffer header
// of m's payload: whatever offsets the payload holds, such a write lands
// past the header, or is refused (a refusal that fails the buffer may
// empty its free lists and set its failed flag, and nothing else).
func (w *writeWalker) inPlace(m impl.Msg, what string, write func()) {
	p := m.Payload()
	if p == nil || p.Buffer() == nil {
		write()
		return
	}
	buf := p.Buffer()
	before := bytes.Clone(buf.Memory()[:buf.HeaderSize()])
	failed := buf.Failed()
	write()
	after := buf.Memory()
	if buf.Failed() != failed {
		for _, k := range []int{4, 8, 12, 20} { // root, hwm, full size, control block
			if !bytes.Equal(after[k:k+4], before[k:k+4]) {
				w.t.Fatalf("%s failed the buffer and changed header word %d: % x -> % x", what, k, before[k:k+4], after[k:k+4])
			}
		}
		return
	}
	if !bytes.Equal(after[:len(before)], before) {
		w.t.Fatalf("%s changed the buffer header: % x -> % x", what, before, after[:len(before)])
	}
}

var long = strings.Repeat("L", longLen)

func (w *writeWalker) msg(m impl.Msg, typ *impl.Type, depth int) {
	if depth > writeDepth || w.budget <= 0 {
		return
	}
	w.budget--
	if isAnyType(typ) {
		inner := typ
		if ts := impl.FindType("google.protobuf.Timestamp"); ts != nil {
			inner = ts
		}
		v := impl.AnyOf(m).Mutable(inner)
		w.msg(v, inner, depth+1)
	}
	for _, f := range typ.Fields() {
		if f.Union != nil {
			continue
		}
		w.field(m, f, depth)
	}
	for _, u := range typ.Unions() {
		for _, f := range u.Members {
			switch f.Kind {
			case impl.String, impl.Bytes:
				m.SetMemberString(u, f.Field, "member")
				m.SetMemberBytes(u, f.Field, []byte(long))
				if s := m.MemberString(f.Field); len(s) > 2 {
					m.SetMemberBytes(u, f.Field, s[1:]) // aliasing the payload
				}
			case impl.Message:
				w.msg(m.MutableMember(u, f.Field, f.Type), f.Type, depth+1)
			default:
				switch fuzzElemSize(f.Kind) {
				case 1:
					m.SetMember8(u, f.Field, 1)
				case 4:
					m.SetMember32(u, f.Field, 0xA5A5)
				default:
					m.SetMember64(u, f.Field, 0xA5A5A5A5A5)
				}
			}
		}
		_ = m.WhichOneof(u)
		if len(u.Members) > 0 {
			m.ClearOneof(u, u.Members[0].Field)
		}
	}
}

func (w *writeWalker) field(m impl.Msg, f *impl.FieldInfo, depth int) {
	if f.Repeated {
		w.repeated(m, f, depth)
		return
	}
	switch f.Kind {
	case impl.String, impl.Bytes:
		m.SetString(f.Field, "s")
		m.SetBytes(f.Field, []byte(long))
		if s := m.StringBytes(f.Field); len(s) > 2 {
			m.SetBytes(f.Field, s[2:]) // aliasing the string being replaced
		}
		if b := m.AllocateString(f.Field, 24); b != nil {
			copy(b, "allocated")
		}
		m.SetString(f.Field, "")
	case impl.Message:
		sub := m.MutableMessage(f.Field, f.Type)
		w.msg(sub, f.Type, depth+1)
		_ = m.HasMessage(f.Field)
	default:
		w.inPlace(m, "a scalar's store", func() { setScalar(m, f, 0x5A5A5A5A5A5A5A5A) })
		_ = m.Get64(f.Field)
	}
}

func (w *writeWalker) repeated(m impl.Msg, f *impl.FieldInfo, depth int) {
	switch f.Kind {
	case impl.String, impl.Bytes:
		l := phaserimpl.Strings(m, f.Field)
		l.Append("a")
		l.AppendBytes([]byte(long))
		if s := l.AtBytes(0); len(s) > 1 {
			l.AppendBytes(s[1:]) // aliasing the payload
		}
		n := l.Len()
		l.Set(0, "set")
		l.Set(n+1, "past the end")
		l.SetBytes(n-1, []byte(long))
		l.Insert(1, "x", "y")
		l.Erase(0, 1)
		l.AppendN(2, func(i int) string { return "n" })
		l.Reserve(l.Len() + 3)
		l.Resize(l.Len() + 1)
		m.FixedStrings(f.Field, l.Len()+2)
		l.Swap(l)
	case impl.Message:
		l := impl.NewMessageList(m, f.Field, f.Type)
		w.msg(l.Append(), f.Type, depth+1)
		w.msg(l.Mutable(0), f.Type, depth+1)
		l.Reserve(l.Len() + 2)
		w.msg(l.Insert(0), f.Type, depth+1)
		l.Erase(0, 1)
		l.AppendN(2, func(i int, e impl.Msg) {})
		l.Resize(l.Len() + 1)
		l.Resize(1)
		_ = l.Len()
		l.Swap(l)
		if f.Type != nil && !f.Desc.IsMap() {
			// A second field of another message: Allocate replaces the
			// field's content.
			l.Allocate(3)
			w.msg(l.At(2), f.Type, depth+1)
		}
	default:
		size := fuzzElemSize(f.Kind)
		for k := range 3 {
			switch size {
			case 1:
				m.Push8(f.Field, uint8(k))
			case 4:
				m.Push32(f.Field, uint32(k))
			default:
				m.Push64(f.Field, uint64(k))
			}
		}
		n := m.Len(f.Field, size)
		switch size {
		case 1:
			l := phaserimpl.List[bool](m, f.Field)
			w.inPlace(m, "an element's store", func() {
				m.SetElem8(f.Field, 0, 1)
				m.SetElem8(f.Field, n-1, 1)
				if f.Fixed == 0 { // (a fixed array's first element store allocates its N)
					l.Set(n/2, true)
				}
			})
			l.Insert(1, true, false)
			l.Erase(0, 2)
			l.AppendN(3, func(i int) bool { return i%2 == 0 })
		case 4:
			l := phaserimpl.List[uint32](m, f.Field)
			w.inPlace(m, "an element's store", func() {
				m.SetElem32(f.Field, 0, 1)
				m.SetElem32(f.Field, n-1, 1)
				if f.Fixed == 0 { // (a fixed array's first element store allocates its N)
					l.Set(n/2, 1)
				}
			})
			l.Insert(1, 7, 8)
			l.Erase(0, 2)
			l.AppendN(3, func(i int) uint32 { return uint32(i) })
			l.Swap(l)
		default:
			l := phaserimpl.List[uint64](m, f.Field)
			w.inPlace(m, "an element's store", func() {
				m.SetElem64(f.Field, 0, 1)
				m.SetElem64(f.Field, n-1, 1)
				if f.Fixed == 0 { // (a fixed array's first element store allocates its N)
					l.Set(n/2, 1)
				}
			})
			l.Insert(1, 7, 8)
			l.Erase(0, 2)
			l.AppendN(3, func(i int) uint64 { return uint64(i) })
		}
		// Assign in place (as many), longer and shorter.
		for _, k := range []int{m.Len(f.Field, size), m.Len(f.Field, size) + 3, 1} {
			m.AssignCopy(f.Field, make([]byte, k*size), size)
		}
		m.Reserve(f.Field, m.Len(f.Field, size)+4, size)
		m.Resize(f.Field, m.Len(f.Field, size)+2, size)
		m.Resize(f.Field, 1, size)
	}
}

// clearFields clears every field of m, one accessor each.
func (w *writeWalker) clearFields(m impl.Msg, typ *impl.Type) {
	for _, f := range typ.Fields() {
		switch {
		case f.Union != nil:
			m.ClearOneof(f.Union, f.Field)
		case f.Repeated:
			m.ClearRepeated(f)
		case f.Kind == impl.String || f.Kind == impl.Bytes:
			m.ClearString(f.Field)
		case f.Kind == impl.Message:
			m.ClearMessage(f.Field, f.Type)
		default:
			m.ClearScalar(f.Field)
		}
	}
}

// openSeeds builds the committed FuzzOpenWrite seeds: payloads written by
// the runtime in fixed and movable memory (v2 and v3, both frontends), and
// mutations aimed at what the write path follows.
func openSeeds(tb testing.TB) []hostileSeed {
	tb.Helper()
	fuzzTypes(tb)
	var seeds []hostileSeed
	add := func(name string, typ *impl.Type, data []byte) {
		seeds = append(seeds, hostileSeed{name, typ, bytes.Clone(data)})
	}
	// build writes pm into fixed memory of size bytes (movable: an owned
	// buffer, its whole memory).
	build := func(pm proto.Message, opts impl.Options, fe impl.Frontend, size int) ([]byte, impl.Msg, *impl.Type) {
		typ, err := impl.TypeFor(pm.ProtoReflect().Descriptor(), fe)
		if err != nil {
			tb.Fatal(err)
		}
		var m impl.Msg
		if size == 0 {
			m = impl.New(typ, opts)
		} else if m, err = impl.NewIn(typ, make([]byte, size), opts); err != nil {
			tb.Fatal(err)
		}
		fillMsg(m, typ, pm.ProtoReflect())
		if err := m.Err(); err != nil {
			tb.Fatalf("building %s: %v", typ.Name(), err)
		}
		return m.Payload().Buffer().Memory(), m, typ
	}
	st, err := structpb.NewStruct(map[string]any{
		"a": 1.5, "b": "text", "c": []any{true, nil, map[string]any{"d": -2.0}},
	})
	if err != nil {
		tb.Fatal(err)
	}
	ev := &testpb.Everything{
		Scalars: &testpb.Scalars{FInt32: -7, FString: "scalars", FDouble: 2.5},
		Inner:   &testpb.Inner{A: 3, S: "inner", Deep: &testpb.Inner_Deep{X: 9, Names: []string{"a", "b"}}},
		Deep:    &testpb.Inner_Deep{X: 11},
		Inners:  []*testpb.Inner{{A: 1}, {S: "two"}},
		Empty:   &testpb.Empty{},
		Node:    &testpb.Node{Value: 1, Next: &testpb.Node{Value: 2}},
	}
	rep := &testpb.Repeated{
		RDouble: []float64{1.5, -2}, RInt32: []int32{-1, 2, 3}, RUint64: []uint64{7},
		RBool: []bool{true, false}, RString: []string{"a", "bc"}, UInt32: []int32{4, 5},
	}
	dp := &descriptorpb.DescriptorProto{
		Name: proto.String("M"),
		Field: []*descriptorpb.FieldDescriptorProto{
			{Name: proto.String("a"), Number: proto.Int32(1), Type: descriptorpb.FieldDescriptorProto_TYPE_INT32.Enum()},
			{Name: proto.String("b"), Number: proto.Int32(2), Type: descriptorpb.FieldDescriptorProto_TYPE_STRING.Enum()},
		},
		NestedType:   []*descriptorpb.DescriptorProto{{Name: proto.String("N")}, {Name: proto.String("O")}},
		Options:      &descriptorpb.MessageOptions{Deprecated: proto.Bool(true)},
		ReservedName: []string{"x", "y"},
		ReservedRange: []*descriptorpb.DescriptorProto_ReservedRange{
			{Start: proto.Int32(1), End: proto.Int32(2)},
		},
	}
	v2 := impl.Options{Version: payloadbuffer.V2}
	v2s := impl.Options{Version: payloadbuffer.V2, Tuning: payloadbuffer.Size}
	v3 := impl.Options{Version: payloadbuffer.V3}
	v3s := impl.Options{Version: payloadbuffer.V3, Tuning: payloadbuffer.Size}
	for _, c := range []struct {
		name string
		pm   proto.Message
		opts impl.Options
		fe   impl.Frontend
		size int
	}{
		{"struct_v2", st, v2, impl.ProtobufFrontend, 4096},
		{"struct_v3", st, v3, impl.ProtobufFrontend, 4096},
		{"struct_v3_size_movable", st, v3s, impl.ProtobufFrontend, 0},
		{"ros_v3", ev, v3, impl.ROSFrontend, 4096},
		{"ros_v3_size", ev, v3s, impl.ROSFrontend, 8192},
		{"ros_v2", ev, v2, impl.ROSFrontend, 4096},
		{"pb_v3", ev, v3, impl.ProtobufFrontend, 4096},
		{"pb_v2_size_movable", ev, v2s, impl.ProtobufFrontend, 0},
		{"desc_v2", dp, v2s, impl.ProtobufFrontend, 4096},
		{"desc_v3", dp, v3s, impl.ProtobufFrontend, 4096},
		{"repeated_v2", rep, v2, impl.ProtobufFrontend, 4096},
		{"repeated_v3_movable", rep, v3, impl.ProtobufFrontend, 0},
	} {
		data, _, _ := build(c.pm, c.opts, c.fe, c.size)
		add(c.name, nil, data)
	}

	// Mutations of DescriptorProto payloads, v2 and v3, in fixed memory
	// and movable (an owned buffer, which Open makes owned and growable:
	// a count a write trusts can make it allocate).
	for _, c := range []struct {
		opts impl.Options
		size int
		pre  string
	}{
		{v2s, 4096, "desc_v2_"}, {v3s, 4096, "desc_v3_"},
		{v2s, 0, "desc_v2_movable_"}, {v3s, 0, "desc_v3_movable_"},
	} {
		opts, pre := c.opts, c.pre
		base, m, dt := build(dp, opts, impl.ProtobufFrontend, c.size)
		r := m.Offset()
		tab := word32(base, r)
		slot := func(name string) uint32 { return r + dt.FieldByName(name).Offset }
		n := uint32(len(base))
		hwm := word32(base, 12)
		add(pre+"table_huge", dt, withWord32(base, r, 0xFFFFFFF0))
		add(pre+"table_self", dt, withWord32(base, r, r))
		add(pre+"table_ids_huge", dt, withWord32(base, tab+16, 0xFF000000|(n-4)))
		add(pre+"table_offsets_end", dt, withWord32(withWord32(base, tab+16, n-r-2), tab+20, n-r-6))
		add(pre+"table_span_huge", dt, withWord32(base, tab+8, 0xFFFFFFFF))
		add(pre+"presence_all", dt, withWord32(withWord32(base, r+4, 0xFFFFFFFF), r+8, 0xFFFFFFFF))
		add(pre+"string_outside", dt, withWord32(base, slot("name"), 0xFFFFFFF0))
		add(pre+"string_at_end", dt, withWord32(base, slot("name"), n-4))
		add(pre+"string_hwm", dt, withWord32(base, slot("name"), hwm))
		add(pre+"string_len_huge", dt, withWord32(base, word32(base, slot("name")), 0xFFFFFFF0))
		add(pre+"string_root", dt, withWord32(base, slot("name"), r))
		add(pre+"vector_count_huge", dt, withWord32(base, slot("field"), 0x7FFFFFFF))
		add(pre+"vector_count_max", dt, withWord32(base, slot("reserved_name"), 0xFFFFFFFF))
		add(pre+"vector_strings_huge", dt, withWord32(base, slot("reserved_name"), 1000))
		add(pre+"vector_data_outside", dt, withWord32(base, slot("reserved_name")+4, n-4))
		add(pre+"vector_data_end", dt, withWord32(base, slot("field")+4, n-8))
		add(pre+"vector_data_root", dt, withWord32(base, slot("nested_type")+4, r))
		add(pre+"vector_data_self", dt, withWord32(base, slot("nested_type")+4, slot("nested_type")))
		add(pre+"vector_scalars_outside", dt, withWord32(base, slot("reserved_range")+4, n-4))
		add(pre+"options_root", dt, withWord32(base, slot("options"), r))
		add(pre+"options_outside", dt, withWord32(base, slot("options"), n-2))
		add(pre+"options_hwm", dt, withWord32(base, slot("options"), hwm))
		if opts.Version == payloadbuffer.V2 {
			f := dt.FieldByName("nested_type")
			add(pre+"nested_self", dt, withWord32(base, m.Elem(f.Field, 0, 4), r))
			add(pre+"nested_outside", dt, withWord32(base, m.Elem(f.Field, 1, 4), n-2))
		} else {
			// The message vector block (spec 8.8): {stride, first
			// capacity, element table, chunks in use, chunk[32]}.
			mvb := word32(base, slot("nested_type")+4)
			add(pre+"mvb_stride_zero", dt, withWord32(base, mvb, 0))
			add(pre+"mvb_stride_huge", dt, withWord32(base, mvb, 0xFFFFFFF8))
			add(pre+"mvb_stride_small", dt, withWord32(base, mvb, 4))
			add(pre+"mvb_cap_huge", dt, withWord32(base, mvb+4, 0x40000000))
			add(pre+"mvb_cap_zero", dt, withWord32(base, mvb+4, 0))
			add(pre+"mvb_table_huge", dt, withWord32(base, mvb+8, 0xFFFFFFF0))
			add(pre+"mvb_chunks_huge", dt, withWord32(base, mvb+12, 33))
			add(pre+"mvb_chunks_32", dt, withWord32(base, mvb+12, 32))
			add(pre+"mvb_chunk_outside", dt, withWord32(base, mvb+16, n-8))
			add(pre+"mvb_chunk_root", dt, withWord32(base, mvb+16, r))
			add(pre+"mvb_count_huge", dt, withWord32(base, slot("nested_type"), 0x10000))
			add(pre+"mvb_at_end", dt, withWord32(base, slot("nested_type")+4, n-16))
		}
	}

	// The v2 bitmap small-block allocator's own blocks (spec 2.7) under a
	// message, string or vector of a DescriptorProto payload in v2
	// Performance tuning: writes through them rewrite a run vector, its
	// run array or a run, which Open had checked. (Typed seeds only, so
	// that patchBases keeps its payloads.)
	{
		base, m, dt := build(dp, v2, impl.ProtobufFrontend, 4096)
		r := m.Offset()
		slot := func(name string) uint32 { return r + dt.FieldByName(name).Offset }
		add("desc_v2p", dt, base)
		for c, size := range []uint32{16, 32, 64, 128} {
			vec := word32(base, 24+4*uint32(c))
			if vec == 0 {
				continue
			}
			data := word32(base, vec+4)
			run := word32(base, data)
			pre := fmt.Sprintf("desc_v2p_c%d_", size)
			add(pre+"options_vec", dt, withWord32(base, slot("options"), vec))
			add(pre+"options_array", dt, withWord32(base, slot("options"), data))
			add(pre+"options_run", dt, withWord32(base, slot("options"), run))
			add(pre+"options_run_slots", dt, withWord32(base, slot("options"), run+4))
			add(pre+"name_vec", dt, withWord32(base, slot("name"), vec))
			add(pre+"name_run", dt, withWord32(base, slot("name"), run))
			add(pre+"strings_over_array", dt, withWord32(withWord32(base, slot("reserved_name"), 0), slot("reserved_name")+4, data))
			add(pre+"scalars_over_run", dt, withWord32(withWord32(base, slot("reserved_range"), 2), slot("reserved_range")+4, run))
			add(pre+"vector_is_vec", dt, withWord32(base, slot("field")+4, vec))
			f := dt.FieldByName("nested_type")
			add(pre+"nested_vec", dt, withWord32(base, m.Elem(f.Field, 0, 4), vec))
			add(pre+"nested_run", dt, withWord32(base, m.Elem(f.Field, 1, 4), run))
		}
		add("desc_v2p_options_header", dt, withWord32(base, slot("options"), 8))
		add("desc_v2p_options_slots", dt, withWord32(base, slot("options"), 20))
		add("desc_v2p_nested_header", dt, withWord32(base, m.Elem(dt.FieldByName("nested_type").Field, 0, 4), 16))
	}
	return seeds
}

// TestWriteOpenWriteSeeds regenerates testdata/fuzz/FuzzOpenWrite's
// constructed seeds when PHASER_WRITE_FUZZ_SEEDS=1.
func TestWriteOpenWriteSeeds(t *testing.T) {
	if os.Getenv("PHASER_WRITE_FUZZ_SEEDS") != "1" {
		t.Skip("set PHASER_WRITE_FUZZ_SEEDS=1 to regenerate testdata/fuzz/FuzzOpenWrite")
	}
	dir := filepath.Join("testdata", "fuzz", "FuzzOpenWrite")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, s := range openSeeds(t) {
		content := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", s.data)
		if err := os.WriteFile(filepath.Join(dir, "seed_"+s.name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestOpenWriteSeeds runs FuzzOpenWrite's checks on each constructed seed
// as the type it targets (and the types the fuzz target picks).
func TestOpenWriteSeeds(t *testing.T) {
	types := fuzzTypes(t)
	for _, s := range openSeeds(t) {
		t.Run(s.name, func(t *testing.T) {
			if s.typ != nil {
				checkHostileWrite(t, s.typ, s.data)
			}
			for _, typ := range openWriteTypes(types, s.data) {
				checkHostileWrite(t, typ, s.data)
			}
		})
	}
	bases := patchBases(t)
	patches := headerPatches(t, bases)
	if len(patches) == 0 {
		t.Fatal("no offsets into the heap to point into the header")
	}
	for _, p := range patches {
		t.Run(fmt.Sprintf("base%d_word%d_into_header", p[1], 4*int(binaryLE.Uint16(p[2:]))), func(t *testing.T) {
			data := patched(bases, p)
			for _, typ := range openWriteTypes(types, data) {
				checkHostileWrite(t, typ, data)
			}
		})
	}
}
