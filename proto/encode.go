package proto

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/phaser-go/phaser/internal/impl"
	"github.com/phaser-go/phaser/runtime"
)

// maxDepth bounds message nesting, as protobuf-go does.
const maxDepth = 100

// ErrFailed reports a payload whose fixed buffer filled up: its content is
// incomplete and is not serialized.
var ErrFailed = errors.New("phaser: payload buffer failed; not serialized")

// Marshal returns the protobuf encoding of message m.
func Marshal(m runtime.Msg) ([]byte, error) {
	n, err := Size(m)
	if err != nil {
		return nil, err
	}
	return Append(make([]byte, 0, n), m)
}

// Append appends the protobuf encoding of m to dst. It allocates nothing
// when dst has room.
func Append(dst []byte, m runtime.Msg) ([]byte, error) {
	d := impl.Dynamic(m)
	if d.Type() == nil {
		return dst, nil
	}
	return appendMsg(dst, d.Msg(), d.Type())
}

// Size returns the length of m's protobuf encoding.
func Size(m runtime.Msg) (int, error) {
	d := impl.Dynamic(m)
	if d.Type() == nil {
		return 0, nil
	}
	return sizeMsg(d.Msg(), d.Type())
}

// appendMsg is Append for the engine's handle m of type t.
func appendMsg(dst []byte, m impl.Msg, t *impl.Type) ([]byte, error) {
	if m.Failed() {
		return dst, ErrFailed
	}
	return appendMessage(dst, m, planOf(t), 0)
}

// sizeMsg is Size for the engine's handle m of type t.
func sizeMsg(m impl.Msg, t *impl.Type) (int, error) {
	if m.Failed() {
		return 0, ErrFailed
	}
	return sizeMessage(m, planOf(t), 0)
}

func appendMessage(b []byte, m impl.Msg, p *plan, depth int) ([]byte, error) {
	if depth > maxDepth {
		return b, fmt.Errorf("phaser: %s: messages nested deeper than %d", p.t.Name(), maxDepth)
	}
	if !m.IsPresent() {
		return b, nil
	}
	if p.t.IsAny() {
		return appendAny(b, m, depth)
	}
	// Scalars through the view when the message has its compiled layout
	// (inlined reads), else through m.
	view, fast := m.View(p.t)
	var err error
	for _, fp := range p.fields {
		f := fp.f.Field
		switch fp.op {
		case opFixed32:
			v := view.Get32(f)
			if !fast {
				v = m.Get32(f)
			}
			if v != 0 {
				b = binary.LittleEndian.AppendUint32(fp.appendTag(b), v)
			}
		case opFixed64:
			v := view.Get64(f)
			if !fast {
				v = m.Get64(f)
			}
			if v != 0 {
				b = binary.LittleEndian.AppendUint64(fp.appendTag(b), v)
			}
		case opInt32:
			v := view.Get32(f)
			if !fast {
				v = m.Get32(f)
			}
			if v != 0 {
				b = appendVarint(fp.appendTag(b), uint64(int64(int32(v))))
			}
		case opUint32:
			v := view.Get32(f)
			if !fast {
				v = m.Get32(f)
			}
			if v != 0 {
				b = appendVarint(fp.appendTag(b), uint64(v))
			}
		case opVarint64:
			v := view.Get64(f)
			if !fast {
				v = m.Get64(f)
			}
			if v != 0 {
				b = appendVarint(fp.appendTag(b), v)
			}
		case opBool:
			v := view.Get8(f)
			if !fast {
				v = m.Get8(f)
			}
			if v != 0 {
				b = append(fp.appendTag(b), 1)
			}
		case opString:
			if s := m.StringBytes(f); len(s) > 0 {
				b = appendVarint(fp.appendTag(b), uint64(len(s)))
				b = append(b, s...)
			}
		case opMessage:
			// Message gives an absent handle exactly when HasMessage is
			// false.
			if sub := m.Message(f, fp.f.Type); sub.IsPresent() {
				if b, err = appendSub(b, fp, sub, depth); err != nil {
					return b, err
				}
			}
		default:
			if b, err = appendField(b, m, fp, depth); err != nil {
				return b, err
			}
		}
	}
	return b, nil
}

// appendTag appends fp's tag.
func (fp *fieldPlan) appendTag(b []byte) []byte {
	if fp.tagLen == 1 {
		return append(b, fp.tag[0])
	}
	return append(b, fp.tag[:fp.tagLen]...)
}

// appendVarint is protowire.AppendVarint with the one-byte case inline.
func appendVarint(b []byte, v uint64) []byte {
	if v < 0x80 {
		return append(b, byte(v))
	}
	return protowire.AppendVarint(b, v)
}

func sizeMessage(m impl.Msg, p *plan, depth int) (int, error) {
	if depth > maxDepth {
		return 0, fmt.Errorf("phaser: %s: messages nested deeper than %d", p.t.Name(), maxDepth)
	}
	if !m.IsPresent() {
		return 0, nil
	}
	if p.t.IsAny() {
		return sizeAny(m, depth)
	}
	n := 0
	for _, fp := range p.fields {
		f := fp.f.Field
		switch fp.op { // as appendMessage
		case opFixed32:
			if m.Get32(f) != 0 {
				n += fp.tagLen + 4
			}
		case opFixed64:
			if m.Get64(f) != 0 {
				n += fp.tagLen + 8
			}
		case opInt32:
			if v := m.Get32(f); v != 0 {
				n += fp.tagLen + protowire.SizeVarint(uint64(int64(int32(v))))
			}
		case opUint32:
			if v := m.Get32(f); v != 0 {
				n += fp.tagLen + protowire.SizeVarint(uint64(v))
			}
		case opVarint64:
			if v := m.Get64(f); v != 0 {
				n += fp.tagLen + protowire.SizeVarint(v)
			}
		case opBool:
			if m.Get8(f) != 0 {
				n += fp.tagLen + 1
			}
		case opString:
			if s := m.StringBytes(f); len(s) > 0 {
				n += fp.tagLen + protowire.SizeBytes(len(s))
			}
		case opMessage:
			if sub := m.Message(f, fp.f.Type); sub.IsPresent() {
				s, err := sizeMessage(sub, fp.subPlan(), depth+1)
				if err != nil {
					return 0, err
				}
				n += fp.tagLen + protowire.SizeBytes(s)
			}
		default:
			s, err := sizeField(m, fp, depth)
			if err != nil {
				return 0, err
			}
			n += s
		}
	}
	return n, nil
}

// bits returns the stored bits of singular scalar field fp and whether it
// is written.
func bits(m impl.Msg, fp *fieldPlan) (uint64, bool) {
	f := fp.f
	var v uint64
	if f.Union != nil {
		if !m.HasMember(f.Field) {
			return 0, false
		}
		switch fp.size {
		case 1:
			v = uint64(m.Member8(f.Field))
		case 4:
			v = uint64(m.Member32(f.Field))
		default:
			v = m.Member64(f.Field)
		}
		return v, true
	}
	switch fp.size {
	case 1:
		v = uint64(m.Get8(f.Field))
	case 4:
		v = uint64(m.Get32(f.Field))
	default:
		v = m.Get64(f.Field)
	}
	if fp.presence {
		return v, m.Has(f.Field)
	}
	return v, v != 0
}

func appendScalar(b []byte, fp *fieldPlan, v uint64) []byte { return AppendValue(b, fp.kind, v) }

func sizeScalar(fp *fieldPlan, v uint64) int { return SizeValue(fp.kind, v) }

// stringOf returns string or bytes field fp and whether it is written.
func stringOf(m impl.Msg, fp *fieldPlan) ([]byte, bool) {
	f := fp.f
	if f.Union != nil {
		return m.MemberString(f.Field), m.HasMember(f.Field)
	}
	s := m.StringBytes(f.Field)
	if fp.presence {
		return s, m.HasString(f.Field)
	}
	return s, len(s) > 0
}

// messageOf returns message field fp and whether it is written.
func messageOf(m impl.Msg, fp *fieldPlan) (impl.Msg, bool) {
	f := fp.f
	if f.Union != nil {
		return m.MemberMessage(f.Field, f.Type), m.HasMember(f.Field)
	}
	n := m.Message(f.Field, f.Type)
	return n, n.IsPresent()
}

func appendField(b []byte, m impl.Msg, fp *fieldPlan, depth int) ([]byte, error) {
	if fp.f.Repeated {
		return appendRepeated(b, m, fp, depth)
	}
	switch fp.wire {
	case protowire.BytesType:
		if fp.kind == protoreflect.MessageKind {
			sub, ok := messageOf(m, fp)
			if !ok {
				return b, nil
			}
			return appendSub(b, fp, sub, depth)
		}
		s, ok := stringOf(m, fp)
		if !ok {
			return b, nil
		}
		b = protowire.AppendTag(b, fp.num, protowire.BytesType)
		return protowire.AppendBytes(b, s), nil
	}
	v, ok := bits(m, fp)
	if !ok {
		return b, nil
	}
	b = protowire.AppendTag(b, fp.num, fp.wire)
	return appendScalar(b, fp, v), nil
}

func sizeField(m impl.Msg, fp *fieldPlan, depth int) (int, error) {
	if fp.f.Repeated {
		return sizeRepeated(m, fp, depth)
	}
	switch fp.wire {
	case protowire.BytesType:
		if fp.kind == protoreflect.MessageKind {
			sub, ok := messageOf(m, fp)
			if !ok {
				return 0, nil
			}
			n, err := sizeMessage(sub, fp.subPlan(), depth+1)
			return protowire.SizeTag(fp.num) + protowire.SizeBytes(n), err
		}
		s, ok := stringOf(m, fp)
		if !ok {
			return 0, nil
		}
		return protowire.SizeTag(fp.num) + protowire.SizeBytes(len(s)), nil
	}
	v, ok := bits(m, fp)
	if !ok {
		return 0, nil
	}
	return protowire.SizeTag(fp.num) + sizeScalar(fp, v), nil
}

// appendSub appends message field fp holding sub as a length-delimited
// record.
func appendSub(b []byte, fp *fieldPlan, sub impl.Msg, depth int) ([]byte, error) {
	return appendMessageField(b, fp, sub, fp.subPlan(), depth)
}

// appendMessageField appends message field fp holding sub, of plan p, as a
// length-delimited record.
//
// The length is not computed by a separate pass: one byte is reserved,
// the message is written, and the length is patched in, the message moving
// up when its length needs more than one byte.
func appendMessageField(b []byte, fp *fieldPlan, sub impl.Msg, p *plan, depth int) ([]byte, error) {
	b = fp.appendTag(b)
	at := len(b)
	b = append(b, 0)
	b, err := appendMessage(b, sub, p, depth+1)
	if err != nil {
		return b, err
	}
	return PatchLength(b, at), nil
}

// PatchLength writes the length of b[at+1:] as a varint at b[at], where a
// writer reserved one byte before appending a length-delimited value, and
// moves the value up when the varint needs more bytes. It lets a writer
// append a nested message without a separate pass to size it.
func PatchLength(b []byte, at int) []byte {
	size := len(b) - at - 1
	if size < 0x80 { // the reserved byte holds it
		b[at] = byte(size)
		return b
	}
	k := protowire.SizeVarint(uint64(size))
	if k > 1 {
		b = append(b, zeros[:k-1]...)
		copy(b[at+k:], b[at+1:at+1+size])
	}
	protowire.AppendVarint(b[:at], uint64(size))
	return b
}

var zeros [10]byte

// elemBits returns element i of a repeated scalar field.
func elemBits(m impl.Msg, fp *fieldPlan, i int) uint64 {
	switch fp.size {
	case 1:
		return uint64(m.Elem8(fp.f.Field, i))
	case 4:
		return uint64(m.Elem32(fp.f.Field, i))
	}
	return m.Elem64(fp.f.Field, i)
}

func appendRepeated(b []byte, m impl.Msg, fp *fieldPlan, depth int) ([]byte, error) {
	f := fp.f
	n := m.LenOf(f)
	if n == 0 {
		return b, nil
	}
	switch {
	case fp.isMap:
		return appendMap(b, m, fp, depth)
	case fp.kind == protoreflect.MessageKind:
		sub := fp.subPlan()
		var err error
		for _, e := range m.MessagesOf(f) {
			if b, err = appendMessageField(b, fp, e, sub, depth); err != nil {
				return b, err
			}
		}
	case fp.wire == protowire.BytesType:
		for i := range n {
			b = protowire.AppendTag(b, fp.num, protowire.BytesType)
			b = protowire.AppendBytes(b, m.ElemString(f.Field, i))
		}
	case fp.packed && fixedWidth(fp):
		// Stored little-endian at their wire width: the bytes are the
		// packed record's payload as they are.
		b = protowire.AppendTag(b, fp.num, protowire.BytesType)
		b = protowire.AppendBytes(b, m.Span(f.Field, fp.size))
	case fp.packed:
		size := 0
		for i := range n {
			size += sizeScalar(fp, elemBits(m, fp, i))
		}
		b = protowire.AppendTag(b, fp.num, protowire.BytesType)
		b = protowire.AppendVarint(b, uint64(size))
		for i := range n {
			b = appendScalar(b, fp, elemBits(m, fp, i))
		}
	default:
		for i := range n {
			b = protowire.AppendTag(b, fp.num, fp.wire)
			b = appendScalar(b, fp, elemBits(m, fp, i))
		}
	}
	return b, nil
}

func sizeRepeated(m impl.Msg, fp *fieldPlan, depth int) (int, error) {
	f := fp.f
	n := m.LenOf(f)
	if n == 0 {
		return 0, nil
	}
	total := 0
	switch {
	case fp.isMap:
		return sizeMap(m, fp, depth)
	case fp.kind == protoreflect.MessageKind:
		sub := fp.subPlan()
		for _, e := range m.MessagesOf(f) {
			s, err := sizeMessage(e, sub, depth+1)
			if err != nil {
				return 0, err
			}
			total += protowire.SizeTag(fp.num) + protowire.SizeBytes(s)
		}
	case fp.wire == protowire.BytesType:
		for i := range n {
			total += protowire.SizeTag(fp.num) + protowire.SizeBytes(len(m.ElemString(f.Field, i)))
		}
	case fp.packed && fixedWidth(fp):
		total = protowire.SizeTag(fp.num) + protowire.SizeBytes(n*fp.size)
	case fp.packed:
		for i := range n {
			total += sizeScalar(fp, elemBits(m, fp, i))
		}
		total = protowire.SizeTag(fp.num) + protowire.SizeBytes(total)
	default:
		for i := range n {
			total += protowire.SizeTag(fp.num) + sizeScalar(fp, elemBits(m, fp, i))
		}
	}
	return total, nil
}

// fixedWidth reports whether the elements of fp are stored exactly as the
// wire writes them: fixed32/sfixed32/float in 4 bytes, fixed64/sfixed64/
// double in 8, little-endian both.
func fixedWidth(fp *fieldPlan) bool {
	return fp.wire == protowire.Fixed32Type && fp.size == 4 || fp.wire == protowire.Fixed64Type && fp.size == 8
}

// Maps: entries in key order, the last of duplicate keys winning, each
// entry with both its key and its value.

// mapEntry is a map entry with its key, both resolved once for sorting.
type mapEntry struct {
	msg  impl.Msg
	key  []byte // a string key
	bits uint64 // a scalar key's stored bits
}

// mapEntries is how many entries mapOrder sorts in its caller's scratch
// space: larger maps allocate.
const mapEntries = 32

// mapOrder returns the entries to write, sorted by key.
func mapOrder(m impl.Msg, fp *fieldPlan, scratch []mapEntry) []mapEntry {
	f, kf := fp.f, fp.key
	entries := scratch[:0]
	for _, msg := range m.MessagesOf(f) {
		e := mapEntry{msg: msg}
		if kf.kind == protoreflect.StringKind {
			e.key = e.msg.StringBytes(kf.f.Field)
		} else {
			e.bits, _ = bits(e.msg, kf)
		}
		entries = append(entries, e)
	}
	cmp := func(a, b mapEntry) int { return compareKeys(a, b, kf) }
	// Stable, so that among equal keys the last entry comes last.
	slices.SortStableFunc(entries, cmp)
	out := entries[:0]
	for i, e := range entries {
		if i+1 < len(entries) && cmp(e, entries[i+1]) == 0 {
			continue // a later entry has the same key
		}
		out = append(out, e)
	}
	return out
}

func compareKeys(a, b mapEntry, kf *fieldPlan) int {
	if kf.kind == protoreflect.StringKind {
		return bytes.Compare(a.key, b.key)
	}
	x, y := a.bits, b.bits
	switch kf.kind {
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		return cmpOrdered(int32(x), int32(y))
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		return cmpOrdered(int64(x), int64(y))
	case protoreflect.BoolKind:
		return cmpOrdered(x&0xFF, y&0xFF)
	}
	return cmpOrdered(x, y)
}

func cmpOrdered[T int32 | int64 | uint64](x, y T) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// entrySize returns the encoded size of a map entry's body.
func entrySize(e impl.Msg, fp *fieldPlan, depth int) (int, error) {
	n := 0
	for _, kv := range []*fieldPlan{fp.key, fp.val} {
		s, err := sizeEntryField(e, kv, depth)
		if err != nil {
			return 0, err
		}
		n += s
	}
	return n, nil
}

func sizeEntryField(e impl.Msg, kv *fieldPlan, depth int) (int, error) {
	tag := protowire.SizeTag(kv.num)
	switch {
	case kv.kind == protoreflect.MessageKind:
		s, err := sizeMessage(e.Message(kv.f.Field, kv.f.Type), kv.subPlan(), depth+2)
		return tag + protowire.SizeBytes(s), err
	case kv.wire == protowire.BytesType:
		return tag + protowire.SizeBytes(len(e.StringBytes(kv.f.Field))), nil
	}
	v, _ := bits(e, kv)
	return tag + sizeScalar(kv, v), nil
}

func appendEntryField(b []byte, e impl.Msg, kv *fieldPlan, depth int) ([]byte, error) {
	switch {
	case kv.kind == protoreflect.MessageKind:
		return appendSub(b, kv, e.Message(kv.f.Field, kv.f.Type), depth+1)
	case kv.wire == protowire.BytesType:
		b = protowire.AppendTag(b, kv.num, protowire.BytesType)
		return protowire.AppendBytes(b, e.StringBytes(kv.f.Field)), nil
	}
	v, _ := bits(e, kv)
	b = protowire.AppendTag(b, kv.num, kv.wire)
	return appendScalar(b, kv, v), nil
}

// appendMap writes the entries of map field fp, each as appendMessageField
// writes a message: its length patched in after it.
func appendMap(b []byte, m impl.Msg, fp *fieldPlan, depth int) ([]byte, error) {
	var scratch [mapEntries]mapEntry
	var err error
	for _, e := range mapOrder(m, fp, scratch[:]) {
		b = fp.appendTag(b)
		at := len(b)
		b = append(b, 0)
		for _, kv := range []*fieldPlan{fp.key, fp.val} {
			if b, err = appendEntryField(b, e.msg, kv, depth); err != nil {
				return b, err
			}
		}
		b = PatchLength(b, at)
	}
	return b, nil
}

func sizeMap(m impl.Msg, fp *fieldPlan, depth int) (int, error) {
	var scratch [mapEntries]mapEntry
	total := 0
	for _, e := range mapOrder(m, fp, scratch[:]) {
		size, err := entrySize(e.msg, fp, depth)
		if err != nil {
			return 0, err
		}
		total += protowire.SizeTag(fp.num) + protowire.SizeBytes(size)
	}
	return total, nil
}

// Any: type_url (1) and value (2), the value being the protobuf encoding of
// the embedded Phaser message.

var (
	anyURL   = impl.Field{Number: 1, Offset: 4}
	anyValue = impl.Field{Number: 2, Offset: 8}
)

func anyContent(m impl.Msg) (url []byte, t *impl.Type, err error) {
	url = m.StringBytes(anyURL)
	if !m.HasString(anyValue) {
		return url, nil, nil
	}
	name := url[bytes.LastIndexByte(url, '/')+1:] // converted on the stack, unlike AnyTypeName's
	t = impl.FindType(protoreflect.FullName(name))
	if t == nil {
		return url, nil, fmt.Errorf("phaser: google.protobuf.Any holds %q, which is not registered", name)
	}
	return url, t, nil
}

func appendAny(b []byte, m impl.Msg, depth int) ([]byte, error) {
	url, t, err := anyContent(m)
	if err != nil {
		return b, err
	}
	if len(url) > 0 {
		b = protowire.AppendTag(b, 1, protowire.BytesType)
		b = protowire.AppendBytes(b, url)
	}
	if t == nil {
		return b, nil
	}
	// The value as appendMessageField writes a message, but not written
	// when empty.
	start := len(b)
	b = protowire.AppendTag(b, 2, protowire.BytesType)
	at := len(b)
	b = append(b, 0)
	if b, err = appendMessage(b, m.AnyValue(t), planOf(t), depth+1); err != nil {
		return b, err
	}
	if len(b) == at+1 {
		return b[:start], nil
	}
	return PatchLength(b, at), nil
}

func sizeAny(m impl.Msg, depth int) (int, error) {
	url, t, err := anyContent(m)
	if err != nil {
		return 0, err
	}
	total := 0
	if len(url) > 0 {
		total += protowire.SizeTag(1) + protowire.SizeBytes(len(url))
	}
	if t == nil {
		return total, nil
	}
	n, err := sizeMessage(m.AnyValue(t), planOf(t), depth+1)
	if err != nil || n == 0 {
		return total, err
	}
	return total + protowire.SizeTag(2) + protowire.SizeBytes(n), nil
}
