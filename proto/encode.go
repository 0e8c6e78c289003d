package proto

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"slices"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/phaser-go/phaser/internal/impl"
	"github.com/phaser-go/phaser/runtime"
)

// ErrFailed reports a payload whose fixed buffer filled up: its content is
// incomplete and is not serialized.
var ErrFailed = impl.ErrFailedPayload

// ErrRequired is wrapped by the error of a proto2 required field that is
// not set: Marshal and Unmarshal report it as protobuf-go does ("required
// field phasertest.Legacy.id not set") unless AllowPartial is set.
var ErrRequired = impl.ErrRequired

// ErrBudget is wrapped by the error of Marshal, Append and Size on a
// payload that refers to more data than it holds: its offsets are shared
// or cyclic (only a hostile or corrupt payload has them). Every encoder
// charges what it writes against the payload's length, so that its work
// and output stay proportional to the payload.
var ErrBudget = impl.ErrBudget

// ErrInvalidUTF8 is wrapped by the error of Marshal on a proto3 string
// field that holds invalid UTF-8, which protobuf-go refuses too.
var ErrInvalidUTF8 = impl.ErrInvalidUTF8

// MarshalOptions configure Marshal, Append and Size, as protobuf-go's of
// the same name. The zero value is the default of the package functions.
type MarshalOptions struct {
	// AllowPartial writes a message whose proto2 required fields are not
	// all set, instead of failing with ErrRequired.
	AllowPartial bool
}

// Marshal returns the protobuf encoding of message m.
func Marshal(m runtime.Msg) ([]byte, error) { return MarshalOptions{}.Marshal(m) }

// Append appends the protobuf encoding of m to dst. It allocates nothing
// when dst has room.
func Append(dst []byte, m runtime.Msg) ([]byte, error) { return MarshalOptions{}.Append(dst, m) }

// Size returns the length of m's protobuf encoding.
func Size(m runtime.Msg) (int, error) { return MarshalOptions{}.Size(m) }

// Marshal returns the protobuf encoding of message m.
func (o MarshalOptions) Marshal(m runtime.Msg) ([]byte, error) {
	n, err := o.Size(m)
	if err != nil {
		return nil, err
	}
	return o.Append(make([]byte, 0, n), m)
}

// Append appends the protobuf encoding of m to dst. It allocates nothing
// when dst has room.
func (o MarshalOptions) Append(dst []byte, m runtime.Msg) ([]byte, error) {
	d := impl.Dynamic(m)
	if d.Type() == nil {
		return dst, nil
	}
	w, err := impl.Encoder(d.Msg())
	if err != nil {
		return dst, err
	}
	w.AllowPartial = o.AllowPartial
	return appendMessage(dst, d.Msg(), planOf(d.Type()), &w)
}

// Size returns the length of m's protobuf encoding. The required fields
// are not checked.
func (o MarshalOptions) Size(m runtime.Msg) (int, error) {
	d := impl.Dynamic(m)
	if d.Type() == nil {
		return 0, nil
	}
	w, err := impl.Encoder(d.Msg())
	if err != nil {
		return 0, err
	}
	return sizeMessage(d.Msg(), planOf(d.Type()), &w)
}

// The entry points of the generated codecs into this interpreter, for the
// messages and fields they do not handle themselves.
func init() {
	impl.SetProtoGeneral(&impl.ProtoGeneral{
		Append: func(b []byte, m impl.Msg, t *impl.Type, w impl.Wire) ([]byte, impl.Wire, error) {
			b, err := appendMessage(b, m, planOf(t), &w)
			return b, w, err
		},
		Size: func(m impl.Msg, t *impl.Type, w impl.Wire) (int, impl.Wire, error) {
			n, err := sizeMessage(m, planOf(t), &w)
			return n, w, err
		},
		AppendField: func(b []byte, m impl.Msg, t *impl.Type, num uint32, w impl.Wire) ([]byte, impl.Wire, error) {
			b, err := appendField(b, m, planOf(t).byNum[protowire.Number(num)], &w)
			return b, w, err
		},
		SizeField: func(m impl.Msg, t *impl.Type, num uint32, w impl.Wire) (int, impl.Wire, error) {
			n, err := sizeField(m, planOf(t).byNum[protowire.Number(num)], &w)
			return n, w, err
		},
		Unmarshal: func(b []byte, m impl.Msg, t *impl.Type, w impl.Wire) (impl.Wire, error) {
			err := decodeMessage(b, m, planOf(t), &w)
			return w, err
		},
		UnmarshalField: func(b []byte, tag uint64, m impl.Msg, t *impl.Type, w impl.Wire) (int, impl.Wire, error) {
			n, err := decodeOneField(b, tag, m, t, &w)
			return n, w, err
		},
		CheckInitialized: func(m impl.Msg, t *impl.Type, w impl.Wire) (impl.Wire, error) {
			err := checkInit(m, planOf(t), &w)
			return w, err
		},
	})
}

// appendMessage appends the fields of m, a message of plan p, charging it
// against w.
func appendMessage(b []byte, m impl.Msg, p *plan, w *impl.Wire) ([]byte, error) {
	if !m.IsPresent() {
		return b, nil
	}
	if !w.Enter(m.Charge(p.t)) {
		w.Leave()
		return b, w.Err(p.t.Name())
	}
	b, err := appendFields(b, m, p, w)
	w.Leave()
	return b, err
}

func appendFields(b []byte, m impl.Msg, p *plan, w *impl.Wire) ([]byte, error) {
	if p.t.IsAny() {
		return appendAny(b, m, w)
	}
	if !w.AllowPartial && len(p.required) > 0 {
		if err := checkRequired(m, p); err != nil {
			return b, err
		}
	}
	var unknown []byte
	exts := false
	if w.HasUnknown() {
		if unknown = w.Unknown(m); !w.Charge(len(unknown)) {
			return b, w.Err(p.t.Name())
		}
		if p.extensible && len(unknown) > 0 {
			b, exts = impl.AppendExtensions(b, unknown, p.t)
		}
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
				if !w.Charge(len(s)) {
					return b, w.Err(p.t.Name())
				}
				if fp.utf8 && !utf8.Valid(s) {
					return b, impl.UTF8Error(string(fp.f.Desc.FullName()))
				}
				b = appendVarint(fp.appendTag(b), uint64(len(s)))
				b = append(b, s...)
			}
		case opMessage:
			// Message gives an absent handle exactly when HasMessage is
			// false.
			if sub := m.Message(f, fp.f.Type); sub.IsPresent() {
				if b, err = appendSub(b, fp, sub, w); err != nil {
					return b, err
				}
			}
		default:
			if b, err = appendField(b, m, fp, w); err != nil {
				return b, err
			}
		}
	}
	if exts {
		return impl.AppendNonExtensions(b, unknown, p.t), nil
	}
	return append(b, unknown...), nil
}

// checkRequired reports the first required field of m (of plan p) that is
// not set.
func checkRequired(m impl.Msg, p *plan) error {
	for _, fp := range p.required {
		f := fp.f
		var set bool
		switch {
		case f.Kind == impl.Message:
			set = m.HasMessage(f.Field)
		case f.Kind == impl.String || f.Kind == impl.Bytes:
			set = m.HasString(f.Field)
		default:
			set = m.Has(f.Field)
		}
		if !set {
			return impl.RequiredError(string(f.Desc.FullName()))
		}
	}
	return nil
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

func sizeMessage(m impl.Msg, p *plan, w *impl.Wire) (int, error) {
	if !m.IsPresent() {
		return 0, nil
	}
	if !w.Enter(m.Charge(p.t)) {
		w.Leave()
		return 0, w.Err(p.t.Name())
	}
	n, err := sizeFields(m, p, w)
	w.Leave()
	return n, err
}

func sizeFields(m impl.Msg, p *plan, w *impl.Wire) (int, error) {
	if p.t.IsAny() {
		return sizeAny(m, w)
	}
	n := 0
	if w.HasUnknown() {
		u := w.Unknown(m)
		if !w.Charge(len(u)) {
			return 0, w.Err(p.t.Name())
		}
		n += len(u)
	}
	for _, fp := range p.fields {
		f := fp.f.Field
		switch fp.op { // as appendFields
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
				if !w.Charge(len(s)) {
					return 0, w.Err(p.t.Name())
				}
				n += fp.tagLen + protowire.SizeBytes(len(s))
			}
		case opMessage:
			if sub := m.Message(f, fp.f.Type); sub.IsPresent() {
				s, err := sizeMessage(sub, fp.subPlan(), w)
				if err != nil {
					return 0, err
				}
				n += fp.tagLen + protowire.SizeBytes(s)
			}
		default:
			s, err := sizeField(m, fp, w)
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

func appendField(b []byte, m impl.Msg, fp *fieldPlan, w *impl.Wire) ([]byte, error) {
	if fp == nil {
		return b, nil
	}
	if fp.f.Repeated {
		return appendRepeated(b, m, fp, w)
	}
	switch fp.wire {
	case protowire.BytesType:
		if fp.kind == protoreflect.MessageKind {
			sub, ok := messageOf(m, fp)
			if !ok {
				return b, nil
			}
			return appendSub(b, fp, sub, w)
		}
		s, ok := stringOf(m, fp)
		if !ok {
			return b, nil
		}
		if err := checkString(s, fp, w); err != nil {
			return b, err
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

// checkString charges string s of field fp and checks its UTF-8.
func checkString(s []byte, fp *fieldPlan, w *impl.Wire) error {
	if !w.Charge(len(s)) {
		return w.Err(string(fp.f.Desc.FullName()))
	}
	if fp.utf8 && !utf8.Valid(s) {
		return impl.UTF8Error(string(fp.f.Desc.FullName()))
	}
	return nil
}

func sizeField(m impl.Msg, fp *fieldPlan, w *impl.Wire) (int, error) {
	if fp == nil {
		return 0, nil
	}
	if fp.f.Repeated {
		return sizeRepeated(m, fp, w)
	}
	switch fp.wire {
	case protowire.BytesType:
		if fp.kind == protoreflect.MessageKind {
			sub, ok := messageOf(m, fp)
			if !ok {
				return 0, nil
			}
			n, err := sizeMessage(sub, fp.subPlan(), w)
			return protowire.SizeTag(fp.num) + protowire.SizeBytes(n), err
		}
		s, ok := stringOf(m, fp)
		if !ok {
			return 0, nil
		}
		if !w.Charge(len(s)) {
			return 0, w.Err(string(fp.f.Desc.FullName()))
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
func appendSub(b []byte, fp *fieldPlan, sub impl.Msg, w *impl.Wire) ([]byte, error) {
	return appendMessageField(b, fp, sub, fp.subPlan(), w)
}

// appendMessageField appends message field fp holding sub, of plan p, as a
// length-delimited record.
//
// The length is not computed by a separate pass: one byte is reserved,
// the message is written, and the length is patched in, the message moving
// up when its length needs more than one byte.
func appendMessageField(b []byte, fp *fieldPlan, sub impl.Msg, p *plan, w *impl.Wire) ([]byte, error) {
	b = fp.appendTag(b)
	at := len(b)
	b = append(b, 0)
	b, err := appendMessage(b, sub, p, w)
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

func appendRepeated(b []byte, m impl.Msg, fp *fieldPlan, w *impl.Wire) ([]byte, error) {
	f := fp.f
	n := m.LenOf(f)
	if n == 0 {
		return b, nil
	}
	switch {
	case fp.isMap:
		return appendMap(b, m, fp, w)
	case fp.kind == protoreflect.MessageKind:
		sub := fp.subPlan()
		var err error
		for _, e := range m.MessagesOf(f) {
			if b, err = appendMessageField(b, fp, e, sub, w); err != nil {
				return b, err
			}
		}
	case fp.wire == protowire.BytesType:
		for i := range n {
			s := m.ElemString(f.Field, i)
			if err := checkString(s, fp, w); err != nil {
				return b, err
			}
			b = protowire.AppendTag(b, fp.num, protowire.BytesType)
			b = protowire.AppendBytes(b, s)
		}
	default:
		if !w.Charge(n * fp.size) {
			return b, w.Err(string(fp.f.Desc.FullName()))
		}
		switch {
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
	}
	return b, nil
}

func sizeRepeated(m impl.Msg, fp *fieldPlan, w *impl.Wire) (int, error) {
	f := fp.f
	n := m.LenOf(f)
	if n == 0 {
		return 0, nil
	}
	total := 0
	switch {
	case fp.isMap:
		return sizeMap(m, fp, w)
	case fp.kind == protoreflect.MessageKind:
		sub := fp.subPlan()
		for _, e := range m.MessagesOf(f) {
			s, err := sizeMessage(e, sub, w)
			if err != nil {
				return 0, err
			}
			total += protowire.SizeTag(fp.num) + protowire.SizeBytes(s)
		}
	case fp.wire == protowire.BytesType:
		for i := range n {
			s := m.ElemString(f.Field, i)
			if !w.Charge(len(s)) {
				return 0, w.Err(string(fp.f.Desc.FullName()))
			}
			total += protowire.SizeTag(fp.num) + protowire.SizeBytes(len(s))
		}
	default:
		if !w.Charge(n * fp.size) {
			return 0, w.Err(string(fp.f.Desc.FullName()))
		}
		switch {
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

// mapOrder returns the entries to write, sorted by key. Every entry is
// charged against w (as a message of the entry type), the ones a later
// entry replaces too.
func mapOrder(m impl.Msg, fp *fieldPlan, scratch []mapEntry, w *impl.Wire) ([]mapEntry, error) {
	f, kf := fp.f, fp.key
	entries := scratch[:0]
	for _, msg := range m.MessagesOf(f) {
		if !w.Charge(int(msg.Charge(f.Type))) {
			return nil, w.Err(string(f.Desc.FullName()))
		}
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
	return out, nil
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
func entrySize(e impl.Msg, fp *fieldPlan, w *impl.Wire) (int, error) {
	n := 0
	for _, kv := range []*fieldPlan{fp.key, fp.val} {
		s, err := sizeEntryField(e, kv, w)
		if err != nil {
			return 0, err
		}
		n += s
	}
	return n, nil
}

func sizeEntryField(e impl.Msg, kv *fieldPlan, w *impl.Wire) (int, error) {
	tag := protowire.SizeTag(kv.num)
	switch {
	case kv.kind == protoreflect.MessageKind:
		s, err := sizeMessage(e.Message(kv.f.Field, kv.f.Type), kv.subPlan(), w)
		return tag + protowire.SizeBytes(s), err
	case kv.wire == protowire.BytesType:
		s := e.StringBytes(kv.f.Field)
		if !w.Charge(len(s)) {
			return 0, w.Err(string(kv.f.Desc.FullName()))
		}
		return tag + protowire.SizeBytes(len(s)), nil
	}
	v, _ := bits(e, kv)
	return tag + sizeScalar(kv, v), nil
}

func appendEntryField(b []byte, e impl.Msg, kv *fieldPlan, w *impl.Wire) ([]byte, error) {
	switch {
	case kv.kind == protoreflect.MessageKind:
		return appendSub(b, kv, e.Message(kv.f.Field, kv.f.Type), w)
	case kv.wire == protowire.BytesType:
		s := e.StringBytes(kv.f.Field)
		if err := checkString(s, kv, w); err != nil {
			return b, err
		}
		b = protowire.AppendTag(b, kv.num, protowire.BytesType)
		return protowire.AppendBytes(b, s), nil
	}
	v, _ := bits(e, kv)
	b = protowire.AppendTag(b, kv.num, kv.wire)
	return appendScalar(b, kv, v), nil
}

// appendMap writes the entries of map field fp, each as appendMessageField
// writes a message: its length patched in after it.
func appendMap(b []byte, m impl.Msg, fp *fieldPlan, w *impl.Wire) ([]byte, error) {
	var scratch [mapEntries]mapEntry
	entries, err := mapOrder(m, fp, scratch[:], w)
	if err != nil {
		return b, err
	}
	for _, e := range entries {
		b = fp.appendTag(b)
		at := len(b)
		b = append(b, 0)
		for _, kv := range []*fieldPlan{fp.key, fp.val} {
			if b, err = appendEntryField(b, e.msg, kv, w); err != nil {
				return b, err
			}
		}
		b = PatchLength(b, at)
	}
	return b, nil
}

func sizeMap(m impl.Msg, fp *fieldPlan, w *impl.Wire) (int, error) {
	var scratch [mapEntries]mapEntry
	entries, err := mapOrder(m, fp, scratch[:], w)
	if err != nil {
		return 0, err
	}
	total := 0
	for _, e := range entries {
		size, err := entrySize(e.msg, fp, w)
		if err != nil {
			return 0, err
		}
		total += protowire.SizeTag(fp.num) + protowire.SizeBytes(size)
	}
	return total, nil
}

// Any: type_url (1) and value (2), the value being the protobuf encoding of
// the embedded Phaser message, then the Any's unknown fields. An Any whose
// type this program does not know holds no embedded message: Unmarshal
// keeps its value record, as received, with the Any's unknown fields.

var (
	anyURL   = impl.Field{Number: 1, Offset: 4}
	anyValue = impl.Field{Number: 2, Offset: 8}
)

// anyContent returns the type URL of the Any m and the type of its
// embedded message (nil if it holds none). An embedded message of a type
// this program does not know cannot be encoded (it is a Phaser message,
// not protobuf bytes) and is an error.
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

func appendAny(b []byte, m impl.Msg, w *impl.Wire) ([]byte, error) {
	url, t, err := anyContent(m)
	if err != nil {
		return b, err
	}
	var unknown []byte
	if w.HasUnknown() {
		if unknown = w.Unknown(m); !w.Charge(len(unknown)) {
			return b, w.Err("google.protobuf.Any")
		}
	}
	if len(url) > 0 {
		if !w.Charge(len(url)) {
			return b, w.Err("google.protobuf.Any")
		}
		b = protowire.AppendTag(b, 1, protowire.BytesType)
		b = protowire.AppendBytes(b, url)
	}
	if t == nil {
		return append(b, unknown...), nil
	}
	// The value as appendMessageField writes a message, but not written
	// when empty. protobuf-go does not look into an Any's value bytes for
	// required fields, nor does this.
	start := len(b)
	b = protowire.AppendTag(b, 2, protowire.BytesType)
	at := len(b)
	b = append(b, 0)
	partial := w.AllowPartial
	w.AllowPartial = true
	b, err = appendMessage(b, m.AnyValue(t), planOf(t), w)
	w.AllowPartial = partial
	if err != nil {
		return b, err
	}
	if len(b) == at+1 {
		return append(b[:start], unknown...), nil
	}
	return append(PatchLength(b, at), unknown...), nil
}

func sizeAny(m impl.Msg, w *impl.Wire) (int, error) {
	url, t, err := anyContent(m)
	if err != nil {
		return 0, err
	}
	total := 0
	if w.HasUnknown() {
		u := w.Unknown(m)
		if !w.Charge(len(u)) {
			return 0, w.Err("google.protobuf.Any")
		}
		total += len(u)
	}
	if len(url) > 0 {
		if !w.Charge(len(url)) {
			return 0, w.Err("google.protobuf.Any")
		}
		total += protowire.SizeTag(1) + protowire.SizeBytes(len(url))
	}
	if t == nil {
		return total, nil
	}
	n, err := sizeMessage(m.AnyValue(t), planOf(t), w)
	if err != nil || n == 0 {
		return total, err
	}
	return total + protowire.SizeTag(2) + protowire.SizeBytes(n), nil
}
