package proto

import (
	"encoding/binary"
	"errors"
	"fmt"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/phaser-go/phaser/internal/impl"
	"github.com/phaser-go/phaser/runtime"
)

// ErrInvalid is wrapped by every error about malformed protobuf input.
var ErrInvalid = errors.New("invalid protobuf wire data")

// UnmarshalOptions configure Unmarshal, as protobuf-go's of the same name.
// The zero value is the default of the package function.
type UnmarshalOptions struct {
	// DiscardUnknown drops the fields the message's type does not declare
	// (and known fields that arrive with another wire type) instead of
	// keeping them in the payload for Marshal to write back.
	DiscardUnknown bool
	// AllowPartial accepts a message whose proto2 required fields are not
	// all set, instead of failing with ErrRequired.
	AllowPartial bool
}

// Unmarshal replaces the content of message m with the protobuf encoding in
// data, writing straight into m's payload. Both packed and unpacked
// encodings of repeated scalars are accepted. Fields m's type does not
// declare are kept in the payload (docs/format.md, unknown fields) and
// written back by Marshal after the known ones, as protobuf-go does;
// UnmarshalOptions.DiscardUnknown drops them. A fixed buffer that fills up
// fails with runtime.ErrFull; an owned one grows. On error m holds the
// fields parsed before it.
func Unmarshal(data []byte, m runtime.Msg) error { return UnmarshalOptions{}.Unmarshal(data, m) }

// Unmarshal replaces the content of message m with the protobuf encoding in
// data (see the package function Unmarshal).
func (o UnmarshalOptions) Unmarshal(data []byte, m runtime.Msg) error {
	d := impl.Dynamic(m)
	if d.Type() == nil {
		return fmt.Errorf("phaser: unmarshal: no message")
	}
	return o.unmarshal(data, d.Msg(), d.Type())
}

// unmarshal is Unmarshal for the engine's handle m of type t.
func (o UnmarshalOptions) unmarshal(data []byte, m impl.Msg, t *impl.Type) error {
	if !m.IsPresent() {
		return fmt.Errorf("phaser: unmarshal %s: no message", t.Name())
	}
	m.Clear(t)
	if err := m.Err(); err != nil {
		return fmt.Errorf("phaser: unmarshal %s: %w", t.Name(), err)
	}
	w := impl.Decoder(m)
	w.DiscardUnknown, w.AllowPartial = o.DiscardUnknown, o.AllowPartial
	err := decodeMessage(data, m, planOf(t), &w)
	w.Release()
	if err != nil {
		return err
	}
	if err := m.Err(); err != nil {
		return fmt.Errorf("phaser: unmarshal %s: %w", t.Name(), err)
	}
	if !o.AllowPartial {
		return CheckInitialized(runtime.Msg(impl.DynamicOf(m, t)))
	}
	return nil
}

func wireErr(p *plan, fp *fieldPlan, num protowire.Number, format string, args ...any) error {
	name := fmt.Sprintf("field %d", num)
	if fp != nil {
		name = string(fp.f.Desc.FullName())
	}
	return fmt.Errorf("phaser: unmarshal %s: %s: %s: %w", p.t.Name(), name, fmt.Sprintf(format, args...), ErrInvalid)
}

// decodeMessage merges the encoding b into m, a message of plan p.
func decodeMessage(b []byte, m impl.Msg, p *plan, w *impl.Wire) error {
	if !w.EnterDecode() {
		w.Leave()
		return fmt.Errorf("phaser: unmarshal %s: messages nested deeper than %d: %w", p.t.Name(), impl.MaxWireDepth, ErrInvalid)
	}
	err := decodeFields(b, m, p, w)
	w.Leave()
	return err
}

func decodeFields(b []byte, m impl.Msg, p *plan, w *impl.Wire) error {
	if p.t.IsAny() {
		return decodeAny(b, m, p, w)
	}
	mark := w.Mark()
	var app appender // the repeated message field last appended to
	// Scalars through a Setter when m has its compiled layout (inlined
	// stores, which cannot fail), else through m.
	s, direct := m.Setter(p.t)
	for len(b) > 0 {
		rec := b
		num, typ, n := consumeTag(b)
		if n < 0 {
			return wireErr(p, nil, 0, "bad tag: %v", protowire.ParseError(n))
		}
		b = b[n:]
		fp := p.field(num)
		switch {
		case fp == nil || !fp.accepts(typ):
			// A field the type does not declare, or a known field with
			// another wire type: kept as an unknown field, as protobuf-go
			// keeps it.
			k := protowire.ConsumeFieldValue(num, typ, b)
			if k < 0 {
				return wireErr(p, fp, num, "unknown field: %v", protowire.ParseError(k))
			}
			if !w.DiscardUnknown && !p.mapEntry {
				w.Keep(rec[:n+k])
			}
			b = b[k:]
			continue
		case typ == fp.wire && fp.op.scalar():
			if n = decodeScalar(b, m, s, direct, fp); n < 0 {
				return wireErr(p, fp, fp.num, "%v", protowire.ParseError(n))
			}
			if direct {
				b = b[n:]
				continue
			}
		default:
			var err error
			if n, err = decodeField(b, typ, m, p, fp, &app, w); err != nil {
				return err
			}
		}
		b = b[n:]
		if m.Failed() {
			return fmt.Errorf("phaser: unmarshal %s: %w", p.t.Name(), notStored(m))
		}
	}
	if w.Kept(mark) {
		if err := w.KeepUnknownOf(m, mark, p.t); err != nil {
			return fmt.Errorf("phaser: unmarshal %s: unknown fields: %w", p.t.Name(), err)
		}
	}
	return nil
}

// accepts reports whether a value of field fp may arrive with wire type
// typ: its own, or a packed record for a repeated scalar.
func (fp *fieldPlan) accepts(typ protowire.Type) bool {
	return typ == fp.wire || fp.packable && typ == protowire.BytesType
}

// decodeOneField is the general codec's UnmarshalField: one value of the
// field of tag (a number and wire type the field accepts) of m.
func decodeOneField(b []byte, tag uint64, m impl.Msg, t *impl.Type, w *impl.Wire) (int, error) {
	p := planOf(t)
	num, typ := protowire.DecodeTag(tag)
	fp := p.field(num)
	if fp == nil || !fp.accepts(typ) {
		return 0, wireErr(p, fp, num, "wire type %d not accepted", typ)
	}
	var app appender
	n, err := decodeField(b, typ, m, p, fp, &app, w)
	if err == nil && m.Failed() {
		err = fmt.Errorf("phaser: unmarshal %s: %w", p.t.Name(), impl.ErrFull)
	}
	return n, err
}

// decodeScalar parses a value of singular scalar field fp, of fp's wire
// type, stores it (through s when direct, else through m) and returns its
// length (negative on error, as protowire reports it).
func decodeScalar(b []byte, m impl.Msg, s impl.Setter, direct bool, fp *fieldPlan) int {
	f := fp.f.Field
	var v uint64
	var n int
	switch fp.op {
	case opFixed32:
		var v32 uint32
		v32, n = protowire.ConsumeFixed32(b)
		v = uint64(v32)
	case opFixed64:
		v, n = protowire.ConsumeFixed64(b)
	default:
		v, n = protowire.ConsumeVarint(b)
	}
	if n < 0 {
		return n
	}
	switch fp.op {
	case opFixed32, opInt32, opUint32:
		if direct {
			s.Set32(f, uint32(v))
		} else {
			m.Set32(f, uint32(v))
		}
	case opFixed64, opVarint64:
		if direct {
			s.Set64(f, v)
		} else {
			m.Set64(f, v)
		}
	default: // opBool
		if direct {
			s.Set8(f, impl.BoolByte(v != 0))
		} else {
			m.Set8(f, impl.BoolByte(v != 0))
		}
	}
	return n
}

// appender appends the elements of one repeated message field of a
// message being decoded: consecutive elements of the field (the common
// case) skip re-resolving and re-validating its vector.
type appender struct {
	fp *fieldPlan
	a  impl.MessageAppender
}

// add appends an element to repeated message field fp of m, as AddMessage
// does.
func (ap *appender) add(m impl.Msg, fp *fieldPlan) impl.Msg {
	if ap.fp != fp {
		ap.fp, ap.a = fp, impl.NewMessageList(m, fp.f.Field, fp.f.Type).Appender()
	}
	return ap.a.Append()
}

// decodeField parses one value of field fp from b, whose wire type is typ
// (one fp accepts), and returns the bytes consumed. Elements of repeated
// message fields are appended through app.
func decodeField(b []byte, typ protowire.Type, m impl.Msg, p *plan, fp *fieldPlan, app *appender, w *impl.Wire) (int, error) {
	f := fp.f
	if fp.packable && typ == protowire.BytesType {
		v, n := protowire.ConsumeBytes(b)
		if n < 0 {
			return 0, wireErr(p, fp, fp.num, "packed: %v", protowire.ParseError(n))
		}
		return n, decodePacked(v, m, p, fp)
	}
	if fp.wire != protowire.BytesType {
		bits, n := consumeScalar(b, fp)
		if n < 0 {
			return 0, wireErr(p, fp, fp.num, "%v", protowire.ParseError(n))
		}
		switch {
		case f.Repeated:
			push(m, fp, bits)
		case f.Union != nil:
			setMember(m, fp, bits)
		default:
			set(m, fp, bits)
		}
		return n, nil
	}
	v, n := protowire.ConsumeBytes(b)
	if n < 0 {
		return 0, wireErr(p, fp, fp.num, "length: %v", protowire.ParseError(n))
	}
	switch {
	case fp.kind == protoreflect.MessageKind:
		var sub impl.Msg
		switch {
		case f.Repeated:
			sub = app.add(m, fp)
		case f.Union != nil:
			sub = m.MutableMember(f.Union, f.Field, f.Type)
		default:
			sub = m.MutableMessage(f.Field, f.Type)
		}
		if !sub.IsPresent() {
			return 0, fmt.Errorf("phaser: unmarshal %s: %s: %w", p.t.Name(), f.Desc.FullName(), notStored(m))
		}
		if err := decodeMessage(v, sub, fp.subPlan(), w); err != nil {
			return 0, err
		}
	default:
		if fp.utf8 && !utf8.Valid(v) {
			return 0, wireErr(p, fp, fp.num, "string is not valid UTF-8")
		}
		switch {
		case f.Repeated:
			m.PushBytes(f.Field, v)
		case f.Union != nil:
			m.SetMemberBytes(f.Union, f.Field, v)
		default:
			m.SetBytes(f.Field, v)
		}
	}
	return n, nil
}

// decodePacked appends the elements of packed record v to repeated scalar
// field fp: checked first, then stored into room made for all of them at
// once, so that an error leaves the field as it was.
func decodePacked(v []byte, m impl.Msg, p *plan, fp *fieldPlan) error {
	count := 0
	if fixedWidth(fp) {
		// Little-endian at their stored width on the wire as in the
		// payload: the record's bytes are the elements.
		if len(v)%fp.size != 0 {
			_, k := consumeScalar(v[len(v)/fp.size*fp.size:], fp)
			return wireErr(p, fp, fp.num, "packed element: %v", protowire.ParseError(k))
		}
		count = len(v) / fp.size
	} else {
		for rest := v; len(rest) > 0; count++ {
			_, k := consumeScalar(rest, fp)
			if k < 0 {
				return wireErr(p, fp, fp.num, "packed element: %v", protowire.ParseError(k))
			}
			rest = rest[k:]
		}
	}
	if count == 0 || m.AppendElems(fp.f.Field, count, fp.size) == 0 {
		return nil // nothing to add, or the buffer is full (the caller checks)
	}
	elems := m.MutableSpan(fp.f.Field, fp.size)
	if len(elems) < count*fp.size {
		return fmt.Errorf("phaser: unmarshal %s: %s: elements not stored", p.t.Name(), fp.f.Desc.FullName())
	}
	elems = elems[len(elems)-count*fp.size:]
	if fixedWidth(fp) {
		copy(elems, v)
		return nil
	}
	// Parsed again, each element checked again: the input can change
	// between the passes (shared memory), and must not make this one
	// index past the count the first found.
	for i := 0; i < count && len(v) > 0; i++ {
		bits, k := consumeScalar(v, fp)
		if k < 0 {
			return wireErr(p, fp, fp.num, "packed element: %v", protowire.ParseError(k))
		}
		switch fp.size {
		case 1:
			elems[i] = uint8(bits)
		case 4:
			binary.LittleEndian.PutUint32(elems[4*i:], uint32(bits))
		default:
			binary.LittleEndian.PutUint64(elems[8*i:], bits)
		}
		v = v[k:]
	}
	return nil
}

// consumeScalar parses one scalar of field fp and returns its stored bits.
func consumeScalar(b []byte, fp *fieldPlan) (uint64, int) { return ConsumeValue(fp.kind, b) }

func set(m impl.Msg, fp *fieldPlan, v uint64) {
	switch fp.size {
	case 1:
		m.Set8(fp.f.Field, uint8(v))
	case 4:
		m.Set32(fp.f.Field, uint32(v))
	default:
		m.Set64(fp.f.Field, v)
	}
}

func setMember(m impl.Msg, fp *fieldPlan, v uint64) {
	switch fp.size {
	case 1:
		m.SetMember8(fp.f.Union, fp.f.Field, uint8(v))
	case 4:
		m.SetMember32(fp.f.Union, fp.f.Field, uint32(v))
	default:
		m.SetMember64(fp.f.Union, fp.f.Field, v)
	}
}

func push(m impl.Msg, fp *fieldPlan, v uint64) {
	switch fp.size {
	case 1:
		m.Push8(fp.f.Field, uint8(v))
	case 4:
		m.Push32(fp.f.Field, uint32(v))
	default:
		m.Push64(fp.f.Field, v)
	}
}

// decodeAny parses a google.protobuf.Any. The value is parsed into a
// Phaser message of the type its URL names when that type is registered;
// otherwise, or when the value does not parse as that type (protobuf-go
// does not look into an Any's value), the Any keeps its type URL and its
// value record as received, with its unknown fields, and Marshal writes
// them back.
func decodeAny(b []byte, m impl.Msg, p *plan, w *impl.Wire) error {
	var url, value []byte
	var haveURL, haveValue bool
	mark := w.Mark()
	for len(b) > 0 {
		rec := b
		num, typ, n := consumeTag(b)
		if n < 0 {
			return wireErr(p, nil, 0, "bad tag: %v", protowire.ParseError(n))
		}
		b = b[n:]
		if (num == 1 || num == 2) && typ == protowire.BytesType {
			v, k := protowire.ConsumeBytes(b)
			if k < 0 {
				return wireErr(p, p.byNum[num], num, "length: %v", protowire.ParseError(k))
			}
			if num == 1 {
				// Every record is checked, as protobuf-go does, not only
				// the last one, which wins.
				if !utf8.Valid(v) {
					return wireErr(p, p.byNum[1], 1, "type URL is not valid UTF-8")
				}
				url, haveURL = v, true
			} else {
				value, haveValue = v, true
			}
			b = b[k:]
			continue
		}
		k := protowire.ConsumeFieldValue(num, typ, b)
		if k < 0 {
			return wireErr(p, nil, num, "unknown field: %v", protowire.ParseError(k))
		}
		if !w.DiscardUnknown {
			w.Keep(rec[:n+k])
		}
		b = b[k:]
	}
	if haveValue {
		// An Any that arrives in parts merges, and the last value wins: a
		// value an earlier part left among the unknown fields goes.
		if u := m.UnknownFields(); len(u) > 0 {
			if rest, found := withoutBytesField(u, 2); found && !m.SetUnknownFields(rest) {
				return fmt.Errorf("phaser: unmarshal google.protobuf.Any: %w", notStored(m))
			}
		}
		if err := decodeAnyValue(m, url, value, w); err != nil {
			if !errors.Is(err, ErrInvalid) {
				return err
			}
			// Not a message of that type: kept as received, first of the
			// unknown fields; an empty value is protobuf's default, which
			// protobuf-go does not write back.
			if w.DiscardUnknown {
				return err
			}
			// An earlier part's value that parsed as its type goes too.
			if m.HasString(anyValue) {
				if t := impl.FindType(protoreflect.FullName(m.AnyTypeName())); t != nil {
					m.ClearAnyValue(t)
				} else {
					m.ClearString(anyValue)
				}
			}
			// As protobuf-go writes the field again (shortest tag and
			// length; an empty value, the default, not at all), before the
			// unknown fields. An Any that arrives in parts merges: the last
			// value wins, and the unknown fields of the earlier parts stay.
			var rec []byte
			if len(value) > 0 {
				rec = protowire.AppendBytes(protowire.AppendTag(nil, 2, protowire.BytesType), value)
			}
			if u := m.UnknownFields(); len(u) > 0 {
				if !m.SetUnknownFields(append(rec, u...)) {
					return fmt.Errorf("phaser: unmarshal google.protobuf.Any: %w", notStored(m))
				}
			} else if rec != nil {
				w.KeepFirst(mark, rec)
			}
			haveValue = false
		}
	}
	if !haveValue && haveURL {
		m.SetBytes(anyURL, url)
	}
	if w.Kept(mark) {
		if err := w.KeepUnknown(m, mark); err != nil {
			return fmt.Errorf("phaser: unmarshal google.protobuf.Any: unknown fields: %w", err)
		}
	}
	return nil
}

// decodeAnyValue parses the value of an Any into an embedded message of the
// type url names. It fails with an error wrapping ErrInvalid, having
// written nothing that stays, when the type is not registered or the value
// does not parse as it.
func decodeAnyValue(m impl.Msg, url, value []byte, w *impl.Wire) error {
	name := string(url)
	for i := len(name) - 1; i >= 0; i-- {
		if name[i] == '/' {
			name = name[i+1:]
			break
		}
	}
	t := impl.FindType(protoreflect.FullName(name))
	if t == nil {
		return fmt.Errorf("phaser: unmarshal google.protobuf.Any: type %q is not registered: %w", url, ErrInvalid)
	}
	sub := m.MutableAny(t)
	if !sub.IsPresent() {
		return fmt.Errorf("phaser: unmarshal google.protobuf.Any: %w", notStored(m))
	}
	if string(url) != impl.AnyURLPrefix+t.Name() {
		m.SetBytes(anyURL, url) // keep the sender's URL prefix
	}
	inner := w.Mark()
	err := decodeMessage(value, sub, planOf(t), w)
	if err != nil && errors.Is(err, ErrInvalid) {
		w.Truncate(inner)
		m.ClearAnyValue(t)
	}
	return err
}

// withoutBytesField returns the records of unknown other than those of
// field num with the bytes wire type, and whether there were any.
func withoutBytesField(unknown []byte, num protowire.Number) ([]byte, bool) {
	var rest []byte
	found := false
	for b := unknown; len(b) > 0; {
		n, typ, k := protowire.ConsumeTag(b)
		if k < 0 {
			return append(rest, b...), found
		}
		v := protowire.ConsumeFieldValue(n, typ, b[k:])
		if v < 0 {
			return append(rest, b...), found
		}
		if n == num && typ == protowire.BytesType {
			found = true
		} else {
			rest = append(rest, b[:k+v]...)
		}
		b = b[k+v:]
	}
	return rest, found
}

// consumeTag parses a record's tag as protobuf-go's decoder does: a field
// number above protowire.MaxValidNumber, which protowire.ConsumeTag lets
// through, is invalid.
func consumeTag(b []byte) (protowire.Number, protowire.Type, int) {
	num, typ, n := protowire.ConsumeTag(b)
	if n >= 0 && num > protowire.MaxValidNumber {
		// protowire.ConsumeTag's answer for field number 0, which
		// ParseError reports as an invalid field number.
		_, _, n = protowire.ConsumeTag([]byte{0})
		return 0, 0, n
	}
	return num, typ, n
}

// notStored returns why a write into m was not stored: the error m
// records (ErrFull, ErrArraySize, ...), ErrFull if it records none.
func notStored(m impl.Msg) error {
	if err := m.Err(); err != nil {
		return err
	}
	return impl.ErrFull
}
