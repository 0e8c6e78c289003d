package runtime

import (
	"fmt"
	"math"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"
)

// The dynamic view: fields read and written by descriptor, for tools and
// bridges that know a message only by name (the C++ PhaserBank).

// Value returns the value of singular field f as a protoreflect.Value and
// whether it is present. Message fields return the nested handle's
// dynamicpb copy; use MessageOf to keep a handle instead.
func (m Msg) Value(f *FieldInfo) (protoreflect.Value, bool) {
	if f.Repeated {
		return protoreflect.Value{}, m.LenOf(f) > 0
	}
	if f.Union != nil && !m.HasMember(f.Field) {
		return f.Desc.Default(), false
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

// scalarBitsOf converts a protoreflect value to stored bits.
func scalarBitsOf(f *FieldInfo, v protoreflect.Value) uint64 {
	switch f.Kind {
	case Bool:
		if v.Bool() {
			return 1
		}
		return 0
	case Int32, Int64:
		return uint64(v.Int())
	case Uint32, Uint64:
		return v.Uint()
	case Float:
		return uint64(math.Float32bits(float32(v.Float())))
	case Double:
		return math.Float64bits(v.Float())
	case Enum:
		return uint64(int64(v.Enum()))
	}
	return 0
}

// maxDepth bounds message nesting when converting received payloads, which
// can contain cycles.
const maxDepth = 100

// ToProto copies the message m of type t into a new dynamicpb message with
// the same content (field values, presence as Phaser records it). Any values
// are converted through the registry of Types.
func (m Msg) ToProto(t *Type) (proto.Message, error) {
	out := dynamicpb.NewMessage(t.desc)
	w := &walk{budget: 1 << 30}
	if m.p != nil && m.p.buf == nil {
		// A message takes at least 4 bytes, and so does every element or
		// field that refers to one: a received payload cannot hold more
		// distinct values than this. More visits mean shared or cyclic
		// offsets, which would make the copy explode.
		w.budget = len(m.p.mem)/4 + 64
	}
	if err := m.toProto(t, out, w); err != nil {
		return nil, err
	}
	return out, nil
}

// walk bounds the work of a conversion of a received payload.
type walk struct {
	depth  int
	budget int
}

// visit charges one visited value; it fails once the budget is spent.
func (w *walk) visit(t *Type) error {
	w.budget--
	if w.budget < 0 {
		return fmt.Errorf("phaser: %s: payload refers to more values than it can hold (shared or cyclic offsets)", t.name)
	}
	return nil
}

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
		if f.Kind == Message {
			if err := w.visit(f.Type); err != nil {
				return err
			}
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
