package ros

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"sync"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/phaser-go/phaser/internal/impl"
	phaserproto "github.com/phaser-go/phaser/proto"
	"github.com/phaser-go/phaser/runtime"
)

// Direct converters between wire formats, with no intermediate message.

// PhaserToROS appends the ROS1 serialization of the message of type t in a
// received Phaser payload.
func PhaserToROS(dst, payload []byte, rt *runtime.Type) ([]byte, error) {
	t := phaserimplType(rt)
	if len(payload) == 0 {
		return dst, fmt.Errorf("ros: empty Phaser payload: %w", ErrInvalid)
	}
	p := payloads.Get().(*impl.Payload)
	defer func() {
		p.Release()
		payloads.Put(p)
	}()
	m, err := impl.ReadInto(p, t, payload)
	if err != nil {
		return dst, err
	}
	return appendMsg(dst, m, t)
}

// payloads are reused read-only payload views.
var payloads = sync.Pool{New: func() any { return new(impl.Payload) }}

// Format is the wire format of a message's bytes.
type Format uint8

// Formats InferFormat tells apart.
const (
	FormatUnknown  Format = iota
	FormatProtobuf        // protobuf wire bytes
	FormatPhaser          // a Phaser payload (format v2 or v3)
)

// String returns the format's name.
func (f Format) String() string {
	switch f {
	case FormatProtobuf:
		return "protobuf"
	case FormatPhaser:
		return "phaser"
	}
	return "unknown"
}

// InferFormat tells a Phaser payload from protobuf bytes. A payload must
// have a valid header (spec 7.6 for format v2; for v3 "PH", flags and
// version 3 with the same header checks); bytes that are not a payload are
// protobuf when they scan as protobuf. The empty input is protobuf (an empty
// message).
func InferFormat(b []byte) Format {
	if len(b) == 0 {
		return FormatProtobuf
	}
	if structurallyPhaser(b) {
		return FormatPhaser
	}
	if structurallyProtobuf(b, 0) {
		return FormatProtobuf
	}
	return FormatUnknown
}

// structurallyPhaser applies the header checks of spec 7.6.
func structurallyPhaser(b []byte) bool {
	if len(b) < 40 {
		return false
	}
	le := binary.LittleEndian
	min := uint32(40)
	switch {
	case b[0] == 'P' && b[1] == 'H' && b[3] == 3:
		if b[2]&(1<<1) != 0 {
			min = 48
		}
	case le.Uint32(b)&^1 == 0xE5F6F1C4:
	case le.Uint32(b)&^1 == 0xC5F6F1C4:
		min = 48
	default:
		return false
	}
	msg, hwm, full := le.Uint32(b[4:]), le.Uint32(b[8:]), le.Uint32(b[12:])
	free, meta := le.Uint32(b[16:]), le.Uint32(b[20:])
	if full < min || hwm < min || hwm > full || uint64(hwm) > uint64(len(b)) {
		return false
	}
	if msg < min || msg%8 != 0 || uint64(msg)+4 > uint64(hwm) {
		return false
	}
	if free != 0 && (free < min || uint64(free)+8 > uint64(full)) {
		return false
	}
	if meta != 0 && (meta < min || meta >= hwm) {
		return false
	}
	for i := range 4 {
		if v := le.Uint32(b[24+4*i:]); v != 0 && (v < min || v >= hwm) {
			return false
		}
	}
	return true
}

// structurallyProtobuf scans b as protobuf wire data (spec 7.6).
func structurallyProtobuf(b []byte, depth int) bool {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 || num < 1 {
			return false
		}
		b = b[n:]
		n = protowire.ConsumeFieldValue(num, typ, b)
		if n < 0 || depth > 100 {
			return false
		}
		b = b[n:]
	}
	return true
}

// ConvertToROS appends the ROS1 serialization of a message of type t given
// as a Phaser payload or as protobuf bytes, telling them apart with
// InferFormat.
func ConvertToROS(dst, in []byte, t *runtime.Type) ([]byte, error) {
	switch InferFormat(in) {
	case FormatPhaser:
		return PhaserToROS(dst, in, t)
	case FormatProtobuf:
		return ProtoToROS(dst, in, t)
	}
	return dst, fmt.Errorf("ros: input is neither a Phaser payload nor protobuf: %w", ErrInvalid)
}

// ProtoToROS appends the ROS1 serialization of the protobuf bytes pb of a
// message of type t. Singular fields take their last occurrence (a nested
// message its last occurrence, not a merge); repeated scalars may be packed
// or not. On error dst is returned unchanged.
func ProtoToROS(dst, pb []byte, t *runtime.Type) ([]byte, error) {
	p, err := planOf(phaserimplType(t))
	if err != nil {
		return dst, err
	}
	// Protobuf bytes are a tree: nothing is shared, and the work is
	// bounded by the input without a budget.
	w := encoder{Writer: Writer{Buf: dst}, left: math.MaxInt}
	var scratch [scratchRecords]records
	if err := protoToROS(&w, pb, p, 0, scratch[:]); err != nil {
		return dst, fmt.Errorf("ros: protobuf to ROS1 %s: %w", t.Name(), err)
	}
	return w.Buf, nil
}

// records is where the records of one item are in a message's protobuf
// bytes, found by one pass over them.
type records struct {
	first, end int            // from the first record's tag to the end of the last record
	val        int            // where the last record's value starts
	typ        protowire.Type // the last record's wire type
	member     int            // for a oneof, the index of the last record's member
	found      bool
}

// scratchRecords is how many items' records ProtoToROS keeps on the stack:
// a message takes one per item, its nested messages the ones after. Deeper
// or wider schemas allocate the rest.
const scratchRecords = 64

// last finds the last occurrence of field num in pb.
func last(pb []byte, num protowire.Number) (typ protowire.Type, val []byte, found bool, err error) {
	for len(pb) > 0 {
		n, t, l := protowire.ConsumeTag(pb)
		if l < 0 {
			return 0, nil, false, fmt.Errorf("bad tag: %v: %w", protowire.ParseError(l), ErrInvalid)
		}
		pb = pb[l:]
		l = protowire.ConsumeFieldValue(n, t, pb)
		if l < 0 {
			return 0, nil, false, fmt.Errorf("field %d: %v: %w", n, protowire.ParseError(l), ErrInvalid)
		}
		if n == num {
			typ, val, found = t, pb[:l], true
		}
		pb = pb[l:]
	}
	return typ, val, found, nil
}

// each calls fn for every occurrence of field num in pb.
func each(pb []byte, num protowire.Number, fn func(protowire.Type, []byte) error) error {
	for len(pb) > 0 {
		n, t, l := protowire.ConsumeTag(pb)
		if l < 0 {
			return fmt.Errorf("bad tag: %v: %w", protowire.ParseError(l), ErrInvalid)
		}
		pb = pb[l:]
		l = protowire.ConsumeFieldValue(n, t, pb)
		if l < 0 {
			return fmt.Errorf("field %d: %v: %w", n, protowire.ParseError(l), ErrInvalid)
		}
		if n == num {
			if err := fn(t, pb[:l]); err != nil {
				return err
			}
		}
		pb = pb[l:]
	}
	return nil
}

// scalarOf decodes one scalar value of item it from a value of wire type
// typ and returns its stored bits.
func scalarOf(it *item, typ protowire.Type, v []byte) (uint64, int, error) {
	if typ != it.wire {
		return 0, 0, fmt.Errorf("field %s: wire type %d, want %d: %w", it.f.Desc.FullName(), typ, it.wire, ErrInvalid)
	}
	x, n := phaserproto.ConsumeValue(it.kind, v)
	return x, n, checkN(it.f, n)
}

func checkN(f *impl.FieldInfo, n int) error {
	if n < 0 {
		return fmt.Errorf("field %s: %v: %w", f.Desc.FullName(), protowire.ParseError(n), ErrInvalid)
	}
	return nil
}

// protoToROS writes message pb of plan p: one pass over its records finds
// each item's, then the items are written in ROS order.
func protoToROS(w *encoder, pb []byte, p *plan, depth int, scratch []records) error {
	if depth > maxDepth {
		return fmt.Errorf("messages nested deeper than %d: %w", maxDepth, ErrInvalid)
	}
	var recs []records
	if n := len(p.items); n <= len(scratch) {
		recs, scratch = scratch[:n:n], scratch[n:]
		clear(recs)
	} else {
		recs = make([]records, n)
	}
	for off := 0; off < len(pb); {
		num, typ, l := protowire.ConsumeTag(pb[off:])
		if l < 0 {
			return fmt.Errorf("bad tag: %v: %w", protowire.ParseError(l), ErrInvalid)
		}
		start := off
		off += l
		l = protowire.ConsumeFieldValue(num, typ, pb[off:])
		if l < 0 {
			return fmt.Errorf("field %d: %v: %w", num, protowire.ParseError(l), ErrInvalid)
		}
		if i, member := p.itemOf(num); i >= 0 {
			r := &recs[i]
			if !r.found {
				r.first, r.found = start, true
			}
			r.val, r.end, r.typ, r.member = off, off+l, typ, member
		}
		off += l
	}
	for i, it := range p.items {
		if err := itemToROS(w, pb, it, &recs[i], depth, scratch); err != nil {
			return err
		}
	}
	return nil
}

// itemToROS writes item it, whose records in message pb are r.
func itemToROS(w *encoder, pb []byte, it *item, r *records, depth int, scratch []records) error {
	switch {
	case it.union != nil:
		if !r.found {
			w.Uint32(0)
			return nil
		}
		// The last member seen wins.
		mi := it.members[r.member]
		w.Uint32(mi.f.Number)
		return valueToROS(w, mi, r.typ, pb[r.val:r.end], depth, scratch)
	case it.f.Repeated:
		return repeatedToROS(w, pb[r.first:r.end], it, depth, scratch)
	case !r.found:
		return writeDefault(w, it)
	}
	return valueToROS(w, it, r.typ, pb[r.val:r.end], depth, scratch)
}

// valueToROS writes one protobuf value (of wire type typ) of item it.
func valueToROS(w *encoder, it *item, typ protowire.Type, val []byte, depth int, scratch []records) error {
	switch it.rt {
	case String, Message, Time, Duration:
		if typ != protowire.BytesType {
			return fmt.Errorf("field %s: wire type %d, want 2: %w", it.f.Desc.FullName(), typ, ErrInvalid)
		}
		b, n := protowire.ConsumeBytes(val)
		if n < 0 {
			return fmt.Errorf("field %s: %v: %w", it.f.Desc.FullName(), protowire.ParseError(n), ErrInvalid)
		}
		switch it.rt {
		case String:
			return w.String(b)
		case Time, Duration:
			return timeToROS(w, b, it)
		}
		if it.isAny {
			if len(b) > 0 {
				return fmt.Errorf("field %s: a populated google.protobuf.Any has no ROS1 form: %w", it.f.Desc.FullName(), ErrInvalid)
			}
			w.Uint32(0)
			w.Uint32(0)
			return nil
		}
		return protoToROS(w, b, it.sub, depth+1, scratch)
	}
	if typ == it.wire { // float, fixed32 and sfixed32 (64: double...) at their ROS width
		switch {
		case it.op == opCopy32 && typ == protowire.Fixed32Type && len(val) >= 4:
			w.Buf = append(w.Buf, val[:4]...)
			return nil
		case it.op == opCopy64 && typ == protowire.Fixed64Type && len(val) >= 8:
			w.Buf = append(w.Buf, val[:8]...)
			return nil
		}
	}
	v, _, err := scalarOf(it, typ, val)
	if err != nil {
		return err
	}
	return writeScalar(&w.Writer, it, v)
}

// writeDefault writes the ROS form of an absent singular value.
func writeDefault(w *encoder, it *item) error {
	switch it.rt {
	case String:
		w.Uint32(0)
		return nil
	case Message:
		return writeSub(w, impl.Msg{}, it)
	case Time, Duration:
		w.Uint64(0)
		return nil
	}
	return writeScalar(&w.Writer, it, 0)
}

func timeToROS(w *encoder, b []byte, it *item) error {
	var sec, nsec uint64
	for _, num := range []protowire.Number{1, 2} {
		typ, val, found, err := last(b, num)
		if err != nil {
			return err
		}
		if !found {
			continue
		}
		if typ != protowire.VarintType {
			return fmt.Errorf("time field %d: wire type %d: %w", num, typ, ErrInvalid)
		}
		v, n := protowire.ConsumeVarint(val)
		if n < 0 {
			return fmt.Errorf("time field %d: %v: %w", num, protowire.ParseError(n), ErrInvalid)
		}
		if num == 1 {
			sec = v
		} else {
			nsec = v
		}
	}
	s, n, ok := rosWords(it.rt, int64(sec), int32(nsec))
	if !ok {
		return timeError(string(it.f.Desc.FullName()), it.rt, int64(sec), int32(nsec))
	}
	w.Uint32(s)
	w.Uint32(n)
	return nil
}

// repeatedToROS writes repeated item it from pb, the part of its message
// from the item's first record to its last.
func repeatedToROS(w *encoder, pb []byte, it *item, depth int, scratch []records) error {
	f := it.f
	num := protowire.Number(f.Number)
	scalar := it.rt != String && it.rt != Message && it.rt != Time && it.rt != Duration
	// A packed record of fixed-width values at their ROS width holds the
	// ROS bytes of its elements.
	width := 0
	if it.raw && (it.wire == protowire.Fixed32Type || it.wire == protowire.Fixed64Type) {
		width = it.size
	}
	count := 0
	err := each(pb, num, func(typ protowire.Type, val []byte) error {
		if scalar && typ == protowire.BytesType {
			b, n := protowire.ConsumeBytes(val)
			if n < 0 {
				return fmt.Errorf("field %s: %w", f.Desc.FullName(), ErrInvalid)
			}
			if width > 0 {
				count += len(b) / width
				b = b[len(b)/width*width:] // a partial element: an error below
			}
			for len(b) > 0 {
				_, k, err := scalarOf(it, it.wire, b)
				if err != nil {
					return err
				}
				b = b[k:]
				count++
			}
			return nil
		}
		count++
		return nil
	})
	if err != nil {
		return err
	}
	pad := 0
	if it.array > 0 {
		if count > it.array {
			return fmt.Errorf("field %s: %d elements in a fixed array of %d: %w", f.Desc.FullName(), count, it.array, ErrInvalid)
		}
		pad = it.array - count
	} else {
		w.Uint32(uint32(count))
	}
	err = each(pb, num, func(typ protowire.Type, val []byte) error {
		if scalar && typ == protowire.BytesType {
			b, _ := protowire.ConsumeBytes(val)
			if width > 0 {
				w.Buf = append(w.Buf, b...)
				return nil
			}
			for len(b) > 0 {
				v, k, err := scalarOf(it, it.wire, b)
				if err != nil {
					return err
				}
				if err := writeScalar(&w.Writer, it, v); err != nil {
					return err
				}
				b = b[k:]
			}
			return nil
		}
		return valueToROS(w, it, typ, val, depth, scratch)
	})
	if err != nil {
		return err
	}
	for range pad {
		if err := writeDefault(w, it); err != nil {
			return err
		}
	}
	return nil
}

// ROSToProto appends the canonical protobuf encoding of the ROS1 bytes ros
// of a message of type t: the bytes Unmarshal then proto.Marshal would give
// (every ROS field is present: nested messages are always written, proto3
// scalars when not zero). The input must be consumed exactly. A ROS1
// string that is not UTF-8 in a proto3 string field is refused with an
// error wrapping proto.ErrInvalidUTF8, as Marshal of the payload is.
func ROSToProto(dst, ros []byte, t *runtime.Type) ([]byte, error) {
	p, err := planOf(phaserimplType(t))
	if err != nil {
		return dst, err
	}
	c := converter{}
	n, err := c.message(nil, ros, p, 0, true)
	if err != nil {
		return dst, fmt.Errorf("ros: ROS1 to protobuf %s: %w", t.Name(), err)
	}
	if n != len(ros) {
		return dst, fmt.Errorf("ros: ROS1 to protobuf %s: %d trailing bytes: %w", t.Name(), len(ros)-n, ErrInvalid)
	}
	out, _, err := c.emit(dst, ros, p, 0)
	if err != nil {
		return dst, fmt.Errorf("ros: ROS1 to protobuf %s: %w", t.Name(), err)
	}
	return out, nil
}

// converter writes protobuf from ROS bytes. Each message is read twice: once
// to find where each item's bytes are (and, nested, to size it), once to
// write its fields in field-number order.
type converter struct{}

// span is where one item's ROS bytes are: [start, end) of the message's
// bytes, and for a oneof the active member.
type span struct {
	start, end int
	member     *item
	count      int // a repeated field's element count, as the scan checked it
}

// message scans one message's ROS bytes, returning how many it takes. With
// check it validates everything (the first pass over the whole input).
func (c converter) message(spans []span, ros []byte, p *plan, depth int, check bool) (int, error) {
	if depth > maxDepth {
		return 0, fmt.Errorf("messages nested deeper than %d: %w", maxDepth, ErrInvalid)
	}
	r := NewReader(ros)
	for i, it := range p.items {
		start := r.off
		member, count, err := c.skipItem(r, it, depth)
		if err != nil {
			return 0, err
		}
		if spans != nil {
			spans[i] = span{start, r.off, member, count}
		}
	}
	return r.off, nil
}

// skipItem advances r past one item, validating it, and returns a oneof's
// active member and a repeated field's element count.
func (c converter) skipItem(r *Reader, it *item, depth int) (*item, int, error) {
	if it.union != nil {
		disc, err := r.Uint32()
		if err != nil {
			return nil, 0, err
		}
		if disc == 0 {
			return nil, 0, nil
		}
		for _, mi := range it.members {
			if mi.f.Number == disc {
				return mi, 0, c.skipValue(r, mi, depth)
			}
		}
		return nil, 0, fmt.Errorf("oneof %s: unknown discriminator %d: %w", it.union.Name, disc, ErrInvalid)
	}
	if it.array > 0 || it.f.Repeated {
		_, min := it.elemSizes()
		n := it.array
		if n == 0 {
			var err error
			if n, err = r.Count(min); err != nil {
				return nil, 0, fieldErr(it.f, err)
			}
		}
		for range n {
			if err := c.skipValue(r, it, depth); err != nil {
				return nil, 0, err
			}
		}
		return nil, n, nil
	}
	return nil, 0, c.skipValue(r, it, depth)
}

func (c converter) skipValue(r *Reader, it *item, depth int) error {
	switch it.rt {
	case String:
		_, err := r.String()
		return fieldErr(it.f, err)
	case Message:
		if it.isAny {
			a, err := r.String()
			if err != nil {
				return fieldErr(it.f, err)
			}
			b, err := r.String()
			if err != nil {
				return fieldErr(it.f, err)
			}
			if len(a) > 0 || len(b) > 0 {
				return fmt.Errorf("field %s: a populated google.protobuf.Any has no ROS1 form: %w", it.f.Desc.FullName(), ErrInvalid)
			}
			return nil
		}
		n, err := c.message(nil, r.buf[r.off:], it.sub, depth+1, true)
		if err != nil {
			return err
		}
		r.off += n
		return nil
	}
	if it.rt == Time || it.rt == Duration {
		_, err := r.take(8)
		return fieldErr(it.f, err)
	}
	_, err := readScalar(r, it) // range checked: the second pass takes it as it is
	return fieldErr(it.f, err)
}

// protoOrder returns the fields of p in protobuf order, computed once.
func (p *plan) protoOrder() []orderedField {
	p.orderOnce.Do(func() { p.order = order(p) })
	return p.order
}

// order returns the fields of p in protobuf order, with their item.
func order(p *plan) []orderedField {
	var out []orderedField
	for i, it := range p.items {
		if it.union != nil {
			for _, mi := range it.members {
				out = append(out, orderedField{i, mi, it})
			}
			continue
		}
		out = append(out, orderedField{i, it, nil})
	}
	// protobuf-go's order (package proto): fields outside real oneofs by
	// number, then each oneof's fields by number.
	slices.SortStableFunc(out, func(a, b orderedField) int {
		ka, kb := oneofRank(a), oneofRank(b)
		if ka != kb {
			return ka - kb
		}
		return int(a.it.f.Number) - int(b.it.f.Number)
	})
	return out
}

// oneofRank is 0 for a field outside a real oneof, else 1 + the index of
// the oneof's item (items follow oneof declaration order).
func oneofRank(of orderedField) int {
	if of.union == nil {
		return 0
	}
	if od := of.it.f.Desc.ContainingOneof(); od != nil && od.IsSynthetic() {
		return 0
	}
	return 1 + of.index
}

type orderedField struct {
	index int   // the item's index in ROS order
	it    *item // the field (a oneof member for unions)
	union *item
}

// emit appends the protobuf encoding of one message whose ROS bytes start
// at ros, returning the ROS bytes it took.
func (c converter) emit(dst, ros []byte, p *plan, depth int) ([]byte, int, error) {
	var stack [16]span
	spans := stack[:0]
	if len(p.items) <= len(stack) {
		spans = stack[:len(p.items)]
	} else {
		spans = make([]span, len(p.items))
	}
	n, err := c.message(spans, ros, p, depth, false)
	if err != nil {
		return dst, 0, err
	}
	for _, of := range p.protoOrder() {
		sp := spans[of.index]
		if of.union != nil && sp.member != of.it {
			continue
		}
		b := ros[sp.start:sp.end]
		if of.union != nil {
			b = b[4:]
		}
		if dst, err = c.field(dst, b, of.it, of.union != nil, sp.count, depth); err != nil {
			return dst, 0, err
		}
	}
	return dst, n, nil
}

// field appends the protobuf encoding of one field from its ROS bytes.
func (c converter) field(dst, b []byte, it *item, member bool, count, depth int) ([]byte, error) {
	f := it.f
	num := protowire.Number(f.Number)
	r := NewReader(b)
	explicit := member || f.Desc.HasPresence()
	if it.array > 0 || f.Repeated {
		n := it.array
		if n == 0 {
			// The count the scan checked: the input can change between
			// the two passes (shared memory), and every element read
			// below is checked again.
			if _, err := r.Uint32(); err != nil {
				return dst, fieldErr(f, err)
			}
			n = count
		}
		if n == 0 {
			return dst, nil
		}
		if f.Desc.IsMap() {
			return c.mapField(dst, r, it, n, depth)
		}
		switch it.rt {
		case String, Message, Time, Duration:
			for range n {
				var err error
				if dst, err = c.single(dst, r, it, num, true, depth); err != nil {
					return dst, err
				}
			}
			return dst, nil
		}
		k := f.Desc.Kind()
		if f.Desc.IsPacked() {
			// One read of each element, the length patched in after.
			dst = protowire.AppendTag(dst, num, protowire.BytesType)
			at := len(dst)
			dst = append(dst, 0)
			for range n {
				v, err := readScalar(r, it)
				if err != nil {
					return dst, fieldErr(f, err)
				}
				dst = phaserproto.AppendValue(dst, k, v)
			}
			return phaserproto.PatchLength(dst, at), nil
		}
		for range n {
			v, err := readScalar(r, it)
			if err != nil {
				return dst, fieldErr(f, err)
			}
			dst = protowire.AppendTag(dst, num, phaserproto.WireType(k))
			dst = phaserproto.AppendValue(dst, k, v)
		}
		return dst, nil
	}
	return c.single(dst, r, it, num, explicit, depth)
}

// single appends one singular value read from r.
func (c converter) single(dst []byte, r *Reader, it *item, num protowire.Number, explicit bool, depth int) ([]byte, error) {
	switch it.rt {
	case String:
		s, err := r.String()
		if err != nil {
			return dst, err
		}
		if len(s) == 0 && !explicit {
			return dst, nil
		}
		// ROS1 strings are any bytes; a proto3 string must be UTF-8, as
		// protobuf-go and package proto's Marshal have it.
		if it.kind == protoreflect.StringKind && phaserproto.RequiresUTF8(it.f.Desc) && !utf8.Valid(s) {
			return dst, impl.UTF8Error(string(it.f.Desc.FullName()))
		}
		dst = protowire.AppendTag(dst, num, protowire.BytesType)
		return protowire.AppendBytes(dst, s), nil
	case Time, Duration:
		sec, _ := r.Uint32()
		nsec, _ := r.Uint32()
		seconds, nanos := rosPair(it.rt, sec, nsec)
		s, n := uint64(seconds), uint64(int64(nanos))
		size := 0
		if s != 0 {
			size += 1 + protowire.SizeVarint(s)
		}
		if n != 0 {
			size += 1 + protowire.SizeVarint(n)
		}
		dst = protowire.AppendTag(dst, num, protowire.BytesType)
		dst = protowire.AppendVarint(dst, uint64(size))
		if s != 0 {
			dst = protowire.AppendVarint(protowire.AppendTag(dst, 1, protowire.VarintType), s)
		}
		if n != 0 {
			dst = protowire.AppendVarint(protowire.AppendTag(dst, 2, protowire.VarintType), n)
		}
		return dst, nil
	case Message:
		if it.isAny {
			r.take(8)
			return protowire.AppendBytes(protowire.AppendTag(dst, num, protowire.BytesType), nil), nil
		}
		rest := r.buf[r.off:]
		dst = protowire.AppendTag(dst, num, protowire.BytesType)
		at := len(dst)
		dst = append(dst, 0) // the length, patched below
		dst, n, err := c.emit(dst, rest, it.sub, depth+1)
		if err != nil {
			return dst, err
		}
		r.off += n
		return phaserproto.PatchLength(dst, at), nil
	}
	v, err := readScalar(r, it)
	if err != nil {
		return dst, err
	}
	k := it.f.Desc.Kind()
	if !explicit && v == 0 {
		return dst, nil
	}
	dst = protowire.AppendTag(dst, num, phaserproto.WireType(k))
	return phaserproto.AppendValue(dst, k, v), nil
}

// mapField appends map entries in key order, the last duplicate winning.
func (c converter) mapField(dst []byte, r *Reader, it *item, n, depth int) ([]byte, error) {
	type entry struct {
		b   []byte
		key []byte
	}
	var stack [16]entry
	entries := stack[:0]
	if n > len(stack) {
		entries = make([]entry, 0, n)
	}
	kp := it.sub.items[0]
	for range n {
		start := r.off
		if err := c.skipValue(r, it, depth); err != nil {
			return dst, err
		}
		e := r.buf[start:r.off]
		kr := NewReader(e)
		ks := kr.off
		c.skipValue(kr, kp, depth)
		entries = append(entries, entry{e, e[ks:kr.off]})
	}
	cmp := func(a, b entry) int { return compareROSKeys(a.key, b.key, kp) }
	slices.SortStableFunc(entries, cmp)
	for i, e := range entries {
		if i+1 < len(entries) && cmp(e, entries[i+1]) == 0 {
			continue
		}
		dst = protowire.AppendTag(dst, protowire.Number(it.f.Number), protowire.BytesType)
		at := len(dst)
		dst = append(dst, 0)
		var err error
		if dst, _, err = c.emitEntry(dst, e.b, it.sub, depth+1); err != nil {
			return dst, err
		}
		dst = phaserproto.PatchLength(dst, at)
	}
	return dst, nil
}

// emitEntry writes a map entry with both key and value, as protobuf-go
// does.
func (c converter) emitEntry(out, ros []byte, p *plan, depth int) ([]byte, int, error) {
	r := &Reader{buf: ros}
	for _, it := range p.items {
		var err error
		if out, err = c.single(out, r, it, protowire.Number(it.f.Number), true, depth); err != nil {
			return nil, 0, err
		}
	}
	return out, r.off, nil
}

func compareROSKeys(a, b []byte, kp *item) int {
	if kp.rt == String {
		// Keys are the length word and the bytes; a key shorter than its
		// length word (input that changed since it was checked) sorts
		// first rather than being sliced out of range.
		if len(a) < 4 || len(b) < 4 {
			return len(a) - len(b)
		}
		return slices.Compare(a[4:], b[4:])
	}
	x, _ := readScalar(NewReader(a), kp)
	y, _ := readScalar(NewReader(b), kp)
	switch kp.f.Desc.Kind() {
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		return cmpInt(int64(int32(x)), int64(int32(y)))
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		return cmpInt(int64(x), int64(y))
	}
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

func cmpInt(x, y int64) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// phaserimplType returns the engine's Type of t.
func phaserimplType(t *runtime.Type) *impl.Type { return (*impl.Type)(t) }
