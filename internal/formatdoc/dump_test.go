package formatdoc

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/phaser-go/phaser/internal/layout"
)

// The annotator reads a payload as an independent reader of the format
// would (from docs/format.md, with internal/layout for the compiled
// layouts), labels every byte up to the high-water mark and renders the
// result as rows of at most 8 bytes:
//
//	OFFS  xx xx xx xx xx xx xx xx  label
//
// Every heap block starts with its length-word row, titled with what the
// block holds. The annotator fails (panics) on bytes it cannot explain, so
// an example cannot silently leave part of a payload undescribed.

var le = binary.LittleEndian

// span labels the n bytes at off.
type span struct {
	off, n uint32
	label  string
}

type annotator struct {
	mem   []byte // the payload: buffer bytes up to the high-water mark
	v3    bool
	small bool
	hdr   uint32

	spans  []span
	titles map[uint32]string          // data offset of a block or slot: what it holds
	done   map[string]bool            // structures annotated, by kind and offset
	names  map[uint64]string          // FNV-1a of a type name: the name
	known  map[string]*layout.Message // the layouts of the payload's types
	runs   map[uint32]bool            // v2 bitmap runs (data offsets)
}

// newBytes returns an annotator of bytes that are not a payload.
func newBytes(mem []byte) *annotator {
	return &annotator{
		mem:    mem,
		titles: map[uint32]string{},
		done:   map[string]bool{},
		names:  map[uint64]string{},
		known:  map[string]*layout.Message{},
		runs:   map[uint32]bool{},
	}
}

// newAnnotator returns an annotator of payload mem whose messages have the
// layouts types and the types reachable from them.
func newAnnotator(mem []byte, types ...*layout.Message) *annotator {
	a := newBytes(mem)
	a.v3 = mem[0] == 'P' && mem[1] == 'H'
	movable := false
	if a.v3 {
		a.small = mem[2]&1 != 0
		movable = mem[2]&2 != 0
	} else {
		m := le.Uint32(mem)
		a.small = m&1 != 0
		movable = m&^1 == 0xC5F6F1C4
	}
	a.hdr = 40
	if movable {
		a.hdr = 48
	}
	for _, t := range types {
		for _, r := range t.Reachable() {
			a.names[fnv1a(r.FullName)] = r.FullName
			a.known[r.FullName] = r
		}
	}
	return a
}

func fnv1a(s string) uint64 {
	h := uint64(0xcbf29ce484222325)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 0x100000001b3
	}
	return h
}

func (a *annotator) u32(off uint32) uint32 { return le.Uint32(a.mem[off:]) }
func (a *annotator) u64(off uint32) uint64 { return le.Uint64(a.mem[off:]) }

// add labels [off, off+n), clipped to the payload.
func (a *annotator) add(off, n uint32, format string, args ...any) {
	if off >= uint32(len(a.mem)) || n == 0 {
		return
	}
	n = min(n, uint32(len(a.mem))-off)
	a.spans = append(a.spans, span{off, n, fmt.Sprintf(format, args...)})
}

// title says what the block (or v2 slot) whose data starts at data holds.
// The first title given wins.
func (a *annotator) title(data uint32, format string, args ...any) {
	if _, ok := a.titles[data]; !ok {
		a.titles[data] = fmt.Sprintf(format, args...)
	}
}

// once reports whether the structure kind at off is seen for the first time.
func (a *annotator) once(kind string, off uint32) bool {
	k := kind + "@" + strconv.FormatUint(uint64(off), 10)
	if a.done[k] {
		return false
	}
	a.done[k] = true
	return true
}

func hex(off uint32) string { return fmt.Sprintf("0x%04x", off) }

// ptr describes an offset slot's value.
func ptr(off uint32) string {
	if off == 0 {
		return "0 (absent)"
	}
	return "→ " + hex(off)
}

// header labels the buffer header.
func (a *annotator) header() {
	if a.v3 {
		flags := a.mem[2]
		var fs []string
		if flags&1 != 0 {
			fs = append(fs, "small blocks")
		}
		if flags&2 != 0 {
			fs = append(fs, "movable")
		}
		if flags&4 != 0 {
			fs = append(fs, "allocation failed")
		}
		if len(fs) == 0 {
			fs = append(fs, "none")
		}
		a.add(0, 4, "magic 'P' 'H', flags %#02x (%s), format 3", flags, strings.Join(fs, ", "))
	} else {
		m := a.u32(0)
		kind := "fixed"
		if m&^1 == 0xC5F6F1C4 {
			kind = "movable"
		}
		small := "bitmap allocator off"
		if m&1 != 0 {
			small = "bitmap allocator on"
		}
		a.add(0, 4, "magic %#08x: format 2, %s, %s", m, kind, small)
	}
	a.add(4, 4, "message: root %s", ptr(a.u32(4)))
	a.add(8, 4, "hwm = %d (%s)", a.u32(8), hex(a.u32(8)))
	a.add(12, 4, "full_size = %d", a.u32(12))
	a.add(16, 4, "free_list %s", ptr(a.u32(16)))
	md := a.u32(20)
	if md == 0 {
		a.add(20, 4, "metadata: 0 (no control block)")
	} else {
		a.add(20, 4, "metadata: control block %s", ptr(md))
	}
	for c, size := range []uint32{16, 32, 64, 128} {
		o := 24 + 4*uint32(c)
		if a.v3 {
			a.add(o, 4, "class %d free list %s", size, ptr(a.u32(o)))
		} else {
			a.add(o, 4, "class %d run vector %s", size, ptr(a.u32(o)))
		}
	}
	if a.hdr == 48 {
		a.add(40, 8, "resizer slot (C++ process pointer; zero from Go)")
	}
	if a.v3 && a.small {
		a.classLists()
	}
	if !a.v3 && a.small {
		a.bitmapRuns()
	}
}

// classLists labels the free blocks of the v3 size-class lists.
func (a *annotator) classLists() {
	for c, size := range []uint32{16, 32, 64, 128} {
		for p := a.u32(24 + 4*uint32(c)); p != 0; p = a.u32(p) {
			a.title(p, "free class-%d block", size)
			a.add(p, 4, "next free class-%d block %s", size, ptr(a.u32(p)))
			a.add(p+4, size-4, "free")
		}
	}
}

// bitmapRuns labels the v2 small-block allocator's run vectors and runs.
func (a *annotator) bitmapRuns() {
	counts := []uint32{20, 10, 6, 2}
	for c, size := range []uint32{16, 32, 64, 128} {
		vec := a.u32(24 + 4*uint32(c))
		if vec == 0 {
			continue
		}
		num, data := a.u32(vec), a.u32(vec+4)
		a.title(vec, "class-%d run vector header", size)
		a.add(vec, 4, "runs: %d", num)
		a.add(vec+4, 4, "run offsets %s", ptr(data))
		a.title(data, "class-%d run offsets", size)
		for i := range num {
			run := a.u32(data + 4*i)
			a.add(data+4*i, 4, "run %d %s", i, ptr(run))
			a.runs[run] = true
			bits := a.u32(run)
			a.title(run, "class-%d run %d (%d slots of 8+%d bytes)", size, i, counts[c], size)
			a.add(run, 4, "bits %#08x (slots in use)", bits)
			a.add(run+4, 1, "size %d", a.mem[run+4])
			a.add(run+5, 1, "num %d", a.mem[run+5])
			a.add(run+6, 1, "free %d", a.mem[run+6])
			a.add(run+7, 1, "padding (never written)")
			for s := range counts[c] {
				w := run + 8 + s*(size+8)
				if bits&(1<<s) == 0 {
					a.add(w, size+8, "slot %d: free", s)
				}
			}
		}
	}
}

// control labels the runtime control block at cb.
func (a *annotator) control(cb uint32) {
	if cb == 0 || !a.once("control", cb) {
		return
	}
	version := a.u32(cb + 4)
	count, capacity := a.u32(cb+12), a.u32(cb+16)
	a.title(cb, "control block, version %d", version)
	a.add(cb, 4, "magic \"PHTR\"")
	a.add(cb+4, 4, "version %d", version)
	a.add(cb+8, 4, "user_metadata %d", a.u32(cb+8))
	a.add(cb+12, 4, "count %d", count)
	a.add(cb+16, 4, "capacity %d", capacity)
	if version == 2 {
		a.add(cb+20, 4, "padding")
		var tables []uint32
		for i := range capacity {
			e := cb + 24 + 16*i
			if i >= count {
				a.add(e, 16, "entry %d: unused", i)
				continue
			}
			h, table := a.u64(e), a.u32(e+8)
			name := a.names[h]
			a.add(e, 8, "entry %d: FNV-1a(%q)", i, name)
			a.add(e+8, 4, "  table %s", ptr(table))
			a.add(e+12, 4, "  0")
			tables = append(tables, table)
		}
		// The tables of a new v3 payload share one block (eager metadata):
		// those that follow the first back to back.
		names := []string{short(a.names[a.u64(cb+24)])}
		for i := 1; i < len(tables); i++ {
			if tables[i] != tables[i-1]+tableSize(a.mem[tables[i-1]:]) {
				break
			}
			names = append(names, short(a.names[a.u64(cb+24+16*uint32(i))]))
		}
		if len(names) > 1 {
			a.title(tables[0], "metadata block: the tables of %s", strings.Join(names, ", "))
		}
		for i, t := range tables {
			a.table(t, a.names[a.u64(cb+24+16*uint32(i))])
		}
		return
	}
	for i := range capacity {
		e := cb + 20 + 12*i
		if i >= count {
			a.add(e, 12, "entry %d: unused", i)
			continue
		}
		name, table, size := a.u32(e), a.u32(e+4), a.u32(e+8)
		n := string(a.mem[name : name+size])
		a.add(e, 4, "entry %d: name %s", i, ptr(name))
		a.add(e+4, 4, "  table %s", ptr(table))
		a.add(e+8, 4, "  name size %d", size)
		a.title(name, "type name")
		a.add(name, size, "%q", n)
		a.table(table, n)
	}
}

// tableSize returns the size of the table at b[0].
func tableSize(b []byte) uint32 {
	n, ok := layout.TableSize(b)
	if !ok {
		panic("bad table")
	}
	return uint32(n)
}

// short returns the last element of a full name.
func short(name string) string { return name[strings.LastIndexByte(name, '.')+1:] }

// table labels the field table at t (of type name).
func (a *annotator) table(t uint32, name string) {
	if t != 0 {
		a.tableAt(t, name)
	}
}

// tableAt labels the field table at t, which may be 0 in bytes that are
// only a table.
func (a *annotator) tableAt(t uint32, name string) {
	if !a.once("table", t) {
		return
	}
	a.title(t, "field table of %s", name)
	if a.u32(t) != layout.HybridMagic {
		n := a.u32(t)
		a.add(t, 4, "legacy table of %s: %d entries", short(name), n)
		for i := range n {
			e := t + 4 + 8*i
			a.add(e, 8, "field %d: %s", a.u32(e), entry(a.u32(e+4)))
		}
		return
	}
	base, span, count := a.u32(t+4), a.u32(t+8), a.u32(t+12)
	a.add(t, 4, "hybrid table of %s: magic 0x50484431", short(name))
	a.add(t+4, 4, "dense_base %d", base)
	a.add(t+8, 4, "dense_span %d", span)
	a.add(t+12, 4, "sparse_count %d", count)
	for k := range span {
		v := a.u32(t + 16 + 4*k)
		if v == 0 {
			a.add(t+16+4*k, 4, "field %d: none", base+k)
		} else {
			a.add(t+16+4*k, 4, "field %d: %s", base+k, entry(v))
		}
	}
	for i := range count {
		e := t + 16 + 4*span + 8*i
		a.add(e, 8, "field %d: %s", a.u32(e), entry(a.u32(e+4)))
	}
}

// entry describes a packed table value offset | id<<24.
func entry(v uint32) string {
	off, id := v&layout.MaxOffset, v>>24
	if id == uint32(layout.InlineID) {
		return fmt.Sprintf("+%d, id 0xff (inline message)", off)
	}
	return fmt.Sprintf("+%d, id %d", off, id)
}

// message labels the message of layout lm at off, every byte of its
// BinarySize; what names it in the labels.
func (a *annotator) message(off uint32, lm *layout.Message, what string) {
	a.nested(off, lm, what, "")
}

// nested labels a message as message does, each label starting with
// prefix (a message inside another block: an inline message, an element
// of a message vector).
func (a *annotator) nested(off uint32, lm *layout.Message, what, prefix string) {
	if off == 0 || !a.once("message", off) {
		return
	}
	size := lm.BinarySize
	a.title(off, "%s (%s, %d bytes)", what, short(lm.FullName), size)
	table := a.u32(off)
	a.add(off, 4, "%s+0 table %s", prefix, ptr(table))
	a.table(table, lm.FullName)
	if lm.IsAny {
		a.any(off, what)
		return
	}
	type region struct {
		off, n uint32
		label  string
		nested bool // an inline message, labelled on its own
	}
	var regions []region // field slots, relative to off
	for i := uint32(0); i < lm.MaskSize/4; i++ {
		w := a.u32(off + 4 + 4*i)
		var set []string
		for _, f := range lm.Fields {
			if f.HasPresenceBit() && uint32(f.ID)>>5 == i && w&(1<<(f.ID&31)) != 0 {
				set = append(set, f.Name)
			}
		}
		label := fmt.Sprintf("%s+%d presence word %d: %#08x", prefix, 4+4*i, i, w)
		if len(set) > 0 {
			label += " (" + strings.Join(set, ", ") + ")"
		}
		regions = append(regions, region{4 + 4*i, 4, label, false})
	}
	for _, f := range lm.Fields {
		if f.Union != nil {
			continue
		}
		o := off + f.Offset
		name := what + "." + f.Name
		switch {
		case f.Inline:
			regions = append(regions, region{f.Offset, f.SlotSize, "", true})
			if a.u32(o) == 0 {
				a.add(o, f.SlotSize, "%s+%d %s: inline, absent (word 0 is 0)", prefix, f.Offset, f.Name)
			} else {
				a.nested(o, f.Message, name+" (inline)", f.Name+" ")
			}
		case f.Repeated:
			num, data := a.u32(o), a.u32(o+4)
			regions = append(regions, region{f.Offset, 8, fmt.Sprintf("%s+%d %s: %s, data %s", prefix, f.Offset, f.Name, elements(num), ptr(data)), false})
			a.vector(data, num, f, name)
		case f.Kind == layout.StringKind || f.Kind == layout.BytesKind:
			s := a.u32(o)
			regions = append(regions, region{f.Offset, 4, fmt.Sprintf("%s+%d %s: string %s", prefix, f.Offset, f.Name, ptr(s)), false})
			a.str(s, name)
		case f.Kind == layout.MessageKind:
			s := a.u32(o)
			regions = append(regions, region{f.Offset, 4, fmt.Sprintf("%s+%d %s: message %s", prefix, f.Offset, f.Name, ptr(s)), false})
			a.message(s, f.Message, name)
		default:
			present := a.u32(off+4+4*uint32(f.ID>>5))&(1<<(f.ID&31)) != 0
			val := scalar(a.mem[o:], f)
			if !present {
				val = "absent"
			}
			regions = append(regions, region{f.Offset, f.SlotSize, fmt.Sprintf("%s+%d %s (id %d) = %s", prefix, f.Offset, f.Name, f.ID, val), false})
		}
	}
	for _, u := range lm.Unions {
		o := off + u.Offset
		disc := a.u32(o)
		var active *layout.Field
		for _, f := range u.Members {
			if uint32(f.Number) == disc {
				active = f
			}
		}
		label := fmt.Sprintf("%s+%d oneof %s: case 0 (none)", prefix, u.Offset, u.Desc.Name())
		if active != nil {
			label = fmt.Sprintf("%s+%d oneof %s: case %d (%s)", prefix, u.Offset, u.Desc.Name(), disc, active.Name)
		}
		regions = append(regions, region{u.Offset, 4, label, false})
		vs := u.Size - 4
		switch {
		case active == nil:
			regions = append(regions, region{u.Offset + 4, vs, fmt.Sprintf("%s+%d value (none)", prefix, u.Offset+4), false})
		case active.Kind == layout.StringKind || active.Kind == layout.BytesKind:
			s := a.u32(o + 4)
			regions = append(regions, region{u.Offset + 4, vs, fmt.Sprintf("%s+%d %s: string %s", prefix, u.Offset+4, active.Name, ptr(s)), false})
			a.str(s, what+"."+active.Name)
		case active.Kind == layout.MessageKind:
			s := a.u32(o + 4)
			regions = append(regions, region{u.Offset + 4, vs, fmt.Sprintf("%s+%d %s: message %s", prefix, u.Offset+4, active.Name, ptr(s)), false})
			a.message(s, active.Message, what+"."+active.Name)
		default:
			regions = append(regions, region{u.Offset + 4, vs, fmt.Sprintf("%s+%d %s = %s", prefix, u.Offset+4, active.Name, scalar(a.mem[o+4:], active)), false})
		}
	}
	if lm.BinarySize > lm.FixedSize {
		regions = append(regions, region{lm.FixedSize, lm.BinarySize - lm.FixedSize,
			fmt.Sprintf("%s+%d spare: format 2 counts the %d-byte header twice", prefix, lm.FixedSize, lm.HeaderSize), false})
	}
	// Padding between the slots, to BinarySize.
	slices.SortFunc(regions, func(x, y region) int { return int(x.off) - int(y.off) })
	at := uint32(4)
	for _, r := range regions {
		if r.off > at {
			a.add(off+at, r.off-at, "%s+%d padding", prefix, at)
		}
		if !r.nested {
			a.add(off+r.off, r.n, "%s", r.label)
		}
		at = max(at, r.off+r.n)
	}
	if at < size {
		a.add(off+at, size-at, "%s+%d padding", prefix, at)
	}
}

// elements counts n elements in words.
func elements(n uint32) string {
	if n == 1 {
		return "1 element"
	}
	return fmt.Sprintf("%d elements", n)
}

// scalar formats a stored scalar value of field f.
func scalar(b []byte, f *layout.Field) string {
	switch f.Kind {
	case layout.BoolKind:
		return strconv.FormatBool(b[0] != 0)
	case layout.Int32Kind:
		return strconv.Itoa(int(int32(le.Uint32(b))))
	case layout.Uint32Kind:
		return strconv.FormatUint(uint64(le.Uint32(b)), 10)
	case layout.Int64Kind:
		return strconv.FormatInt(int64(le.Uint64(b)), 10)
	case layout.Uint64Kind:
		return strconv.FormatUint(le.Uint64(b), 10)
	case layout.FloatKind:
		return strconv.FormatFloat(float64(math.Float32frombits(le.Uint32(b))), 'g', -1, 32)
	case layout.DoubleKind:
		return strconv.FormatFloat(math.Float64frombits(le.Uint64(b)), 'g', -1, 64)
	case layout.EnumKind:
		n := int32(le.Uint32(b))
		if ev := f.Desc.Enum().Values().ByNumber(protoreflect.EnumNumber(n)); ev != nil {
			return fmt.Sprintf("%d (%s)", n, ev.Name())
		}
		return strconv.Itoa(int(n))
	}
	return "?"
}

// str labels the string block at s.
func (a *annotator) str(s uint32, what string) {
	if s == 0 || !a.once("string", s) {
		return
	}
	n := a.u32(s)
	a.title(s, "string block of %s", what)
	a.add(s, 4, "length %d", n)
	a.add(s+4, n, "%s", quote(a.mem[s+4:s+4+n]))
}

// quote prints text as a Go string and other bytes as hex.
func quote(b []byte) string {
	for _, c := range b {
		if c < 0x20 || c >= 0x7f {
			return fmt.Sprintf("bytes % x", b)
		}
	}
	return strconv.Quote(string(b))
}

// vector labels the element block of repeated field f.
func (a *annotator) vector(data, num uint32, f *layout.Field, what string) {
	if data == 0 || !a.once("vector", data) {
		return
	}
	switch {
	case f.Kind == layout.MessageKind && a.v3:
		a.messageVector(data, num, f, what)
	case f.Kind == layout.MessageKind:
		a.title(data, "%s: element offsets", what)
		for i := range num {
			e := a.u32(data + 4*i)
			a.add(data+4*i, 4, "[%d] %s", i, ptr(e))
			a.message(e, f.Message, fmt.Sprintf("%s[%d]", what, i))
		}
	case f.Kind == layout.StringKind || f.Kind == layout.BytesKind:
		a.title(data, "%s: element offsets", what)
		for i := range num {
			h := a.u32(data + 4*i)
			a.add(data+4*i, 4, "[%d] string header %s", i, ptr(h))
			if h != 0 {
				a.title(h, "%s[%d]: string header", what, i)
				s := a.u32(h)
				a.add(h, 4, "string %s", ptr(s))
				a.str(s, fmt.Sprintf("%s[%d]", what, i))
			}
		}
	default:
		size := f.Kind.Size()
		a.title(data, "%s: elements (%s)", what, f.Kind)
		for i := range num {
			a.add(data+i*size, size, "[%d] = %s", i, scalar(a.mem[data+i*size:], f))
		}
	}
}

// messageVector labels a v3 MessageVectorBlock and its chunks.
func (a *annotator) messageVector(data, num uint32, f *layout.Field, what string) {
	stride, c, meta, chunks := a.u32(data), a.u32(data+4), a.u32(data+8), a.u32(data+12)
	a.title(data, "%s: message vector block", what)
	a.add(data, 4, "stride %d", stride)
	a.add(data+4, 4, "first chunk capacity %d", c)
	a.add(data+8, 4, "element table %s", ptr(meta))
	a.table(meta, f.Message.FullName)
	a.add(data+12, 4, "chunks in use %d", chunks)
	for k := uint32(0); k < 32; k++ {
		ch := a.u32(data + 16 + 4*k)
		if k >= chunks {
			a.add(data+16+4*k, 4*(32-k), "chunk[%d..31] = 0", k)
			break
		}
		a.add(data+16+4*k, 4, "chunk[%d] %s (%d elements)", k, ptr(ch), c<<k)
	}
	i := uint32(0)
	for k := uint32(0); k < chunks; k++ {
		ch := a.u32(data + 16 + 4*k)
		if k > 0 {
			a.title(ch, "%s: chunk %d", what, k)
		}
		for j := uint32(0); j < c<<k; j, i = j+1, i+1 {
			e := ch + j*stride
			if i < num {
				a.nested(e, f.Message, fmt.Sprintf("%s[%d]", what, i), fmt.Sprintf("[%d] ", i))
				if stride > f.Message.BinarySize {
					a.add(e+f.Message.BinarySize, stride-f.Message.BinarySize, "%s[%d] stride padding", what, i)
				}
			} else {
				a.add(e, stride, "room for %s[%d]", what, i)
			}
		}
	}
}

// any labels the AnyMessage at off (its table word is labelled).
func (a *annotator) any(off uint32, what string) {
	url, val := a.u32(off+4), a.u32(off+8)
	a.add(off+4, 4, "+4 type_url: string %s", ptr(url))
	a.str(url, what+".type_url")
	a.add(off+8, 4, "+8 value: string %s", ptr(val))
	if val == 0 {
		return
	}
	n := a.u32(val)
	name := string(a.mem[url+4 : url+4+a.u32(url)])
	name = name[strings.LastIndexByte(name, '/')+1:]
	a.title(val, "string block of %s.value", what)
	a.add(val, 4, "length %d (the embedded message's BinarySize)", n)
	if lm := a.known[name]; lm != nil {
		a.message(val+4, lm, what+" value")
		return
	}
	a.add(val+4, n, "embedded %s", name)
}

// renderer turns spans into rows.
type renderer struct {
	a       *annotator
	rows    []string
	next    int  // the next span of a.spans (sorted)
	aligned bool // rows start at multiples of 8 (payloads), else at spans
}

func (a *annotator) renderer() *renderer {
	sort.SliceStable(a.spans, func(i, j int) bool { return a.spans[i].off < a.spans[j].off })
	return &renderer{a: a}
}

func (r *renderer) row(off uint32, b []byte, label string) {
	r.rows = append(r.rows, strings.TrimRight(fmt.Sprintf("%04x  %-23s  %s", off, fmt.Sprintf("% x", b), label), " "))
}

// emit renders one span: rows of 8 bytes, the label on the first, or one
// row for a long run of zeros.
func (r *renderer) emit(s span) {
	b := r.a.mem[s.off : s.off+s.n]
	if s.n >= 24 && allZero(b) {
		r.row(s.off, nil, "")
		r.rows[len(r.rows)-1] = strings.TrimRight(fmt.Sprintf("%04x  %-23s  %s", s.off, fmt.Sprintf("(%d zero bytes)", s.n), s.label), " ")
		return
	}
	for i := uint32(0); i < s.n; {
		n := min(8, s.n-i)
		if r.aligned {
			n = min(8-(s.off+i)%8, s.n-i)
		}
		label := ""
		if i == 0 {
			label = s.label
		}
		r.row(s.off+i, b[i:i+n], label)
		i += n
	}
}

// take renders the spans in [from, to), filling gaps with spans labelled
// fill. Spans must not overlap or cross to.
func (r *renderer) take(from, to uint32, fill string) {
	at := from
	spans := r.a.spans
	for r.next < len(spans) && spans[r.next].off < to {
		s := spans[r.next]
		if s.off < at {
			panic(fmt.Sprintf("span %q at %s overlaps what ends at %s", s.label, hex(s.off), hex(at)))
		}
		if s.off+s.n > to {
			panic(fmt.Sprintf("span %q at %s runs past %s", s.label, hex(s.off), hex(to)))
		}
		if s.off > at {
			r.emit(span{at, s.off - at, fill})
		}
		r.emit(s)
		at = s.off + s.n
		r.next++
	}
	if at < to {
		r.emit(span{at, to - at, fill})
	}
}

func (r *renderer) done() string {
	if r.next != len(r.a.spans) {
		s := r.a.spans[r.next]
		panic(fmt.Sprintf("span %q at %s outside what was rendered", s.label, hex(s.off)))
	}
	return strings.Join(r.rows, "\n") + "\n"
}

// rows renders the labelled bytes [from, to) of a.mem, which need not be a
// payload (a table, wire bytes).
func (a *annotator) rows(from, to uint32) string {
	r := a.renderer()
	r.take(from, to, "")
	return r.done()
}

// render returns the annotated rows of the whole payload, block by block.
func (a *annotator) render() string {
	r := a.renderer()
	r.aligned = true
	end := uint32(len(a.mem))
	r.take(0, a.hdr, "")
	free := map[uint32]bool{}
	for f := a.u32(16); f != 0 && f < end; f = a.u32(f + 4) {
		free[f] = true
	}
	for x := a.hdr; x < end; {
		if free[x] {
			length, nx := a.u32(x), a.u32(x+4)
			r.rows = append(r.rows, "")
			r.emit(span{x, min(8, end-x), fmt.Sprintf("free block: length %d, next %s", length, ptr(nx))})
			if x+8 < end {
				r.take(x+8, min(x+length, end), "free")
			}
			x += length
			continue
		}
		if x+8 > end {
			panic(fmt.Sprintf("block at %s past the payload end %s", hex(x), hex(end)))
		}
		n := a.u32(x)
		if !a.v3 && n&(1<<31) != 0 {
			panic(fmt.Sprintf("encoded word at %s outside a run", hex(x)))
		}
		data := x + 8
		title, ok := a.titles[data]
		if !ok {
			panic(fmt.Sprintf("block at %s (%d bytes) holds nothing the annotator knows", hex(data), n))
		}
		r.rows = append(r.rows, "")
		r.emit(span{x, 8, fmt.Sprintf("length %d: %s", n, title)})
		blockEnd := min(data+n, end)
		if a.runs[data] {
			a.renderRun(r, data, blockEnd)
		} else {
			r.take(data, blockEnd, "unused")
		}
		x = data + n
	}
	return r.done()
}

// renderRun renders a v2 bitmap run: its header, then each slot's encoded
// word (titled with what the slot holds) and data.
func (a *annotator) renderRun(r *renderer, run, end uint32) {
	size := uint32(a.mem[run+4])
	num := uint32(a.mem[run+5])
	r.take(run, run+8, "")
	for s := range num {
		w := run + 8 + s*(size+8)
		if a.u32(run)&(1<<s) == 0 {
			r.take(w, min(w+size+8, end), "")
			continue
		}
		low := a.u32(w)
		title, ok := a.titles[w+8]
		if !ok {
			panic(fmt.Sprintf("slot %d of run %s holds nothing the annotator knows", s, hex(run)))
		}
		r.emit(span{w, 8, fmt.Sprintf("slot %d: word %#08x (slot %d, run %d, size %d): %s",
			s, low, low>>26&31, low>>8&0x3ffff, low&0xff, title)})
		r.take(w+8, min(w+8+size, end), "unused")
	}
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}
