package impl

import (
	"fmt"
	"math"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/phaser-go/phaser/payloadbuffer"
)

// The dynamic view: fields read and written by descriptor, for tools and
// bridges that know a message only by name (the C++ PhaserBank).

// Value returns the value of singular scalar, enum, string or bytes field
// f as a protoreflect.Value and whether it is present; an absent field's
// value is its default (proto2 [default = ...], a proto2 enum's first
// value), as protoreflect gives it. For message and repeated fields it
// returns the invalid Value and whether the field is present (a message
// field's handle is MessageField's).
func (m Msg) Value(f *FieldInfo) (protoreflect.Value, bool) {
	if f.Repeated {
		return protoreflect.Value{}, m.LenOf(f) > 0
	}
	if f.Kind != Message && !m.HasField(f) {
		return defaultValue(f.Desc), false
	}
	switch f.Kind {
	case String, Bytes, Message:
		var present bool
		if f.Union != nil {
			present = true
		} else {
			present = m.HasMessage(f.Field)
		}
		switch f.Kind {
		case String:
			return protoreflect.ValueOfString(string(m.fieldString(f))), present
		case Bytes:
			return protoreflect.ValueOfBytes(append([]byte{}, m.fieldString(f)...)), present
		}
		return protoreflect.Value{}, present
	}
	present := f.Union != nil || m.Has(f.Field)
	return scalarValue(f, m.scalarBits(f)), present
}

// FieldOf returns the field of t that fd describes, or nil if fd is not a
// field of t's message.
func (t *Type) FieldOf(fd protoreflect.FieldDescriptor) *FieldInfo {
	f := t.byNumber[uint32(fd.Number())]
	if f == nil || f.Desc.FullName() != fd.FullName() {
		return nil
	}
	return f
}

// HasField reports whether field f is present: a scalar's presence bit, a
// string, bytes or message slot that is set, an active oneof member, a
// repeated field with elements.
func (m Msg) HasField(f *FieldInfo) bool {
	switch {
	case f.Repeated:
		return m.LenOf(f) > 0
	case f.Union != nil:
		return m.HasMember(f.Field)
	case f.Kind == Message:
		return m.HasMessage(f.Field)
	case f.Kind == String || f.Kind == Bytes:
		return m.HasString(f.Field)
	}
	return m.Has(f.Field)
}

// SetValue stores v in singular scalar, enum, string or bytes field f (a
// oneof member becomes active). It reports false, writing nothing, for a
// message or repeated field, or a value of another kind.
func (m Msg) SetValue(f *FieldInfo, v protoreflect.Value) bool {
	if f.Repeated || f.Kind == Message {
		return false
	}
	if f.Kind == String || f.Kind == Bytes {
		var s []byte
		switch x := v.Interface().(type) {
		case string:
			if f.Union != nil {
				m.SetMemberString(f.Union, f.Field, x)
			} else {
				m.SetString(f.Field, x)
			}
			return true
		case []byte:
			s = x
		default:
			return false
		}
		if f.Union != nil {
			m.SetMemberBytes(f.Union, f.Field, s)
		} else {
			m.SetBytes(f.Field, s)
		}
		return true
	}
	bits, ok := valueBits(f, v)
	if !ok {
		return false
	}
	switch size := elemSize(f.Kind); {
	case f.Union != nil && size == 1:
		m.SetMember8(f.Union, f.Field, uint8(bits))
	case f.Union != nil && size == 4:
		m.SetMember32(f.Union, f.Field, uint32(bits))
	case f.Union != nil:
		m.SetMember64(f.Union, f.Field, bits)
	case size == 1:
		m.Set8(f.Field, uint8(bits))
	case size == 4:
		m.Set32(f.Field, uint32(bits))
	default:
		m.Set64(f.Field, bits)
	}
	return true
}

// valueBits returns the stored bits of scalar value v of field f, and
// whether v is of f's kind.
func valueBits(f *FieldInfo, v protoreflect.Value) (uint64, bool) {
	switch x := v.Interface().(type) {
	case bool:
		if f.Kind == Bool {
			return uint64(BoolByte(x)), true
		}
	case int32:
		if f.Kind == Int32 {
			return uint64(uint32(x)), true
		}
	case uint32:
		if f.Kind == Uint32 {
			return uint64(x), true
		}
	case int64:
		if f.Kind == Int64 {
			return uint64(x), true
		}
	case uint64:
		if f.Kind == Uint64 {
			return x, true
		}
	case float32:
		if f.Kind == Float {
			return uint64(math.Float32bits(x)), true
		}
	case float64:
		if f.Kind == Double {
			return math.Float64bits(x), true
		}
	case protoreflect.EnumNumber:
		if f.Kind == Enum {
			return uint64(uint32(int32(x))), true
		}
	}
	return 0, false
}

// ClearField clears field f, whatever its kind (a oneof member only if it
// is active).
func (m Msg) ClearField(f *FieldInfo) {
	switch {
	case f.Repeated:
		m.ClearRepeated(f)
	case f.Union != nil:
		m.ClearOneof(f.Union, f.Field)
	case f.Kind == Message:
		m.ClearMessage(f.Field, f.Type)
	case f.Kind == String || f.Kind == Bytes:
		m.ClearString(f.Field)
	default:
		m.ClearScalar(f.Field)
	}
}

// MessageField returns singular message field f (a default message if
// absent, or if f is an inactive oneof member).
func (m Msg) MessageField(f *FieldInfo) Msg {
	if f.Union != nil {
		return m.MemberMessage(f.Field, f.Type)
	}
	return m.Message(f.Field, f.Type)
}

// MutableField returns singular message field f, creating it (and making
// it the active member of its oneof) if absent.
func (m Msg) MutableField(f *FieldInfo) Msg {
	if f.Union != nil {
		return m.MutableMember(f.Union, f.Field, f.Type)
	}
	return m.MutableMessage(f.Field, f.Type)
}

// ElemValue returns element i of repeated scalar, enum, string or bytes
// field f (the default value if i is out of range).
func (m Msg) ElemValue(f *FieldInfo, i int) protoreflect.Value {
	switch f.Kind {
	case String:
		return protoreflect.ValueOfString(string(m.ElemString(f.Field, i)))
	case Bytes:
		return protoreflect.ValueOfBytes(append([]byte{}, m.ElemString(f.Field, i)...))
	case Message:
		return protoreflect.Value{}
	}
	var bits uint64
	switch elemSize(f.Kind) {
	case 1:
		bits = uint64(m.Elem8(f.Field, i))
	case 4:
		bits = uint64(m.Elem32(f.Field, i))
	default:
		bits = m.Elem64(f.Field, i)
	}
	return scalarValue(f, bits)
}

// AppendValue appends v to repeated scalar, enum, string or bytes field f.
// It reports false, writing nothing, for a message field or a value of
// another kind.
func (m Msg) AppendValue(f *FieldInfo, v protoreflect.Value) bool {
	switch f.Kind {
	case Message:
		return false
	case String, Bytes:
		switch x := v.Interface().(type) {
		case string:
			m.PushString(f.Field, x)
		case []byte:
			m.PushBytes(f.Field, x)
		default:
			return false
		}
		return true
	}
	bits, ok := valueBits(f, v)
	if !ok {
		return false
	}
	switch elemSize(f.Kind) {
	case 1:
		m.Push8(f.Field, uint8(bits))
	case 4:
		m.Push32(f.Field, uint32(bits))
	default:
		m.Push64(f.Field, bits)
	}
	return true
}

func (m Msg) fieldString(f *FieldInfo) []byte {
	if f.Union != nil {
		return m.MemberString(f.Field)
	}
	return m.StringBytes(f.Field)
}

// scalarBits returns the raw bits of scalar field f.
func (m Msg) scalarBits(f *FieldInfo) uint64 {
	switch elemSize(f.Kind) {
	case 1:
		if f.Union != nil {
			return uint64(m.Member8(f.Field))
		}
		return uint64(m.Get8(f.Field))
	case 8:
		if f.Union != nil {
			return m.Member64(f.Field)
		}
		return m.Get64(f.Field)
	}
	if f.Union != nil {
		return uint64(m.Member32(f.Field))
	}
	return uint64(m.Get32(f.Field))
}

// ScalarValue converts the stored bits of scalar field f to its value.
func ScalarValue(f *FieldInfo, bits uint64) protoreflect.Value { return scalarValue(f, bits) }

// scalarValue converts stored bits to the field's protoreflect value.
func scalarValue(f *FieldInfo, bits uint64) protoreflect.Value {
	switch f.Kind {
	case Bool:
		return protoreflect.ValueOfBool(bits&0xFF != 0)
	case Int32:
		return protoreflect.ValueOfInt32(int32(bits))
	case Uint32:
		return protoreflect.ValueOfUint32(uint32(bits))
	case Int64:
		return protoreflect.ValueOfInt64(int64(bits))
	case Uint64:
		return protoreflect.ValueOfUint64(bits)
	case Float:
		return protoreflect.ValueOfFloat32(math.Float32frombits(uint32(bits)))
	case Double:
		return protoreflect.ValueOfFloat64(math.Float64frombits(bits))
	case Enum:
		return protoreflect.ValueOfEnum(protoreflect.EnumNumber(int32(bits)))
	}
	return protoreflect.Value{}
}

// maxDepth bounds message nesting when converting received payloads, which
// can contain cycles.
const maxDepth = 100

// ToProto copies the message m of type t into a new dynamicpb message with
// the same content (field values, presence as Phaser records it). Any values
// are converted through the registry of Types.
func (m Msg) ToProto(t *Type) (proto.Message, error) {
	out := dynamicpb.NewMessage(t.desc)
	w := newWalk(m)
	if err := m.toProto(t, out, w); err != nil {
		return nil, err
	}
	return out, nil
}

// walk bounds the work of a conversion or copy of a payload: every message
// visited, element read and string byte copied is charged against the
// payload's own length. A payload cannot hold more than that, so a payload
// whose offsets are shared or cyclic (possible only in hostile input) fails
// instead of exploding.
type walk struct {
	depth   int
	budget  int
	version payloadbuffer.Version
}

func newWalk(m Msg) *walk {
	w := &walk{budget: 1 << 62}
	if m.p != nil {
		w.budget, w.version = len(m.p.mem)+4096, m.p.version
	}
	return w
}

// charge spends n units of the budget; it fails once the budget is spent.
func (w *walk) charge(n int, what string) error {
	w.budget -= n
	if w.budget < 0 {
		return fmt.Errorf("phaser: %s: payload refers to more data than it holds (shared or cyclic offsets)", what)
	}
	return nil
}

// visit charges one message: the bytes a message of its type takes
// itself (Type.Charge).
func (w *walk) visit(t *Type) error { return w.charge(int(t.Charge(w.version)), t.name) }

func (m Msg) toProto(t *Type, out protoreflect.Message, w *walk) error {
	w.depth++
	defer func() { w.depth-- }()
	if w.depth > maxDepth {
		return fmt.Errorf("phaser: %s: messages nested deeper than %d", t.name, maxDepth)
	}
	if err := w.visit(t); err != nil {
		return err
	}
	if m.off == 0 {
		return nil
	}
	if t.isAny {
		return m.anyToProto(out, w)
	}
	for _, f := range t.fields {
		fd := out.Descriptor().Fields().ByNumber(protoreflect.FieldNumber(f.Number))
		if fd == nil {
			continue
		}
		if f.Repeated {
			if err := m.repeatedToProto(f, fd, out, w); err != nil {
				return err
			}
			continue
		}
		if f.Kind == Message {
			var sub Msg
			switch {
			case f.Union != nil:
				if !m.HasMember(f.Field) {
					continue
				}
				sub = m.MemberMessage(f.Field, f.Type)
			case m.HasMessage(f.Field):
				sub = m.Message(f.Field, f.Type)
			default:
				continue
			}
			nm := out.NewField(fd).Message()
			if err := sub.toProto(f.Type, nm, w); err != nil {
				return err
			}
			out.Set(fd, protoreflect.ValueOfMessage(nm))
			continue
		}
		if v, ok := m.Value(f); ok {
			if f.Kind == String || f.Kind == Bytes {
				if err := w.charge(len(m.fieldString(f)), string(fd.FullName())); err != nil {
					return err
				}
			}
			out.Set(fd, v)
		}
	}
	return nil
}

func (m Msg) repeatedToProto(f *FieldInfo, fd protoreflect.FieldDescriptor, out protoreflect.Message, w *walk) error {
	n := m.LenOf(f)
	if n == 0 {
		return nil
	}
	if fd.IsMap() {
		mp := out.Mutable(fd).Map()
		kd, vd := fd.MapKey(), fd.MapValue()
		for i := range n {
			e := m.ElemMessage(f.Field, i, f.Type)
			entry := dynamicpb.NewMessage(fd.Message())
			if err := e.toProto(f.Type, entry, w); err != nil {
				return err
			}
			v := entry.Get(vd)
			if vd.Message() != nil && !entry.Has(vd) {
				v = mp.NewValue()
			}
			mp.Set(entry.Get(kd).MapKey(), v)
		}
		return nil
	}
	l := out.Mutable(fd).List()
	for i := range n {
		cost := elemSize(f.Kind)
		if f.Kind == String || f.Kind == Bytes {
			cost += len(m.ElemString(f.Field, i))
		}
		if err := w.charge(cost, string(f.Desc.FullName())); err != nil {
			return err
		}
		switch f.Kind {
		case String:
			l.Append(protoreflect.ValueOfString(string(m.ElemString(f.Field, i))))
		case Bytes:
			l.Append(protoreflect.ValueOfBytes(append([]byte{}, m.ElemString(f.Field, i)...)))
		case Message:
			nm := l.NewElement().Message()
			if err := m.ElemMessage(f.Field, i, f.Type).toProto(f.Type, nm, w); err != nil {
				return err
			}
			l.Append(protoreflect.ValueOfMessage(nm))
		default:
			var bits uint64
			switch elemSize(f.Kind) {
			case 1:
				bits = uint64(m.Elem8(f.Field, i))
			case 4:
				bits = uint64(m.Elem32(f.Field, i))
			default:
				bits = m.Elem64(f.Field, i)
			}
			l.Append(scalarValue(f, bits))
		}
	}
	return nil
}

// anyToProto converts an AnyMessage: the embedded Phaser message becomes
// the protobuf encoding of its content.
func (m Msg) anyToProto(out protoreflect.Message, w *walk) error {
	url := m.StringBytes(anyTypeURL)
	fields := out.Descriptor().Fields()
	if m.HasString(anyTypeURL) {
		out.Set(fields.ByNumber(1), protoreflect.ValueOfString(string(url)))
	}
	if m.StringBytes(anyValue) == nil { // absent, or past the end of the payload
		return nil
	}
	name := m.AnyTypeName()
	t := FindType(protoreflect.FullName(name))
	if t == nil {
		return fmt.Errorf("phaser: Any holds unknown type %q", name)
	}
	inner := dynamicpb.NewMessage(t.desc)
	if err := m.AnyValue(t).toProto(t, inner, w); err != nil {
		return err
	}
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(inner)
	if err != nil {
		return fmt.Errorf("phaser: Any value %s: %w", name, err)
	}
	out.Set(fields.ByNumber(2), protoreflect.ValueOfBytes(b))
	return nil
}
