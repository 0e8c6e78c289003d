package goldens

import (
	"bytes"
	"fmt"
	"math"
	"sort"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/dynamicpb"
)

// MarshalCanonical encodes m the way libprotobuf's deterministic serializer
// does, which is how every NAME.pbref.bin was written: populated fields in
// field-number order at every nesting level (proto.Marshal of a dynamic
// message puts oneof fields last instead), map entries sorted by key with
// both key and value always written, unknown fields last. When r is not nil
// the payload of each google.protobuf.Any whose type URL r resolves is
// re-encoded the same way (protoc writes Any payloads from text format in
// field-number order); otherwise Any payloads are copied as they are.
func MarshalCanonical(m proto.Message, r protoregistry.MessageTypeResolver) ([]byte, error) {
	return appendMessage(nil, m.ProtoReflect(), r, 0)
}

const maxCanonicalDepth = 10000

type fieldValue struct {
	fd protoreflect.FieldDescriptor
	v  protoreflect.Value
}

func appendMessage(b []byte, m protoreflect.Message, r protoregistry.MessageTypeResolver, depth int) ([]byte, error) {
	if depth > maxCanonicalDepth {
		return nil, fmt.Errorf("goldens: message nesting exceeds %d", maxCanonicalDepth)
	}
	var fields []fieldValue
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		fields = append(fields, fieldValue{fd, v})
		return true
	})
	sort.Slice(fields, func(i, j int) bool { return fields[i].fd.Number() < fields[j].fd.Number() })
	isAny := m.Descriptor().FullName() == "google.protobuf.Any"
	var err error
	for _, f := range fields {
		if isAny && r != nil && f.fd.Number() == 2 && f.fd.Kind() == protoreflect.BytesKind {
			url := m.Get(m.Descriptor().Fields().ByNumber(1)).String()
			if payload, ok := reencodeAny(url, f.v.Bytes(), r, depth); ok {
				b = protowire.AppendTag(b, 2, protowire.BytesType)
				b = protowire.AppendBytes(b, payload)
				continue
			}
		}
		b, err = appendField(b, f.fd, f.v, r, depth)
		if err != nil {
			return nil, err
		}
	}
	return append(b, m.GetUnknown()...), nil
}

// reencodeAny decodes an Any payload with the type named by url and encodes
// it canonically; ok is false when that is not possible.
func reencodeAny(url string, payload []byte, r protoregistry.MessageTypeResolver, depth int) ([]byte, bool) {
	mt, err := r.FindMessageByURL(url)
	if err != nil {
		return nil, false
	}
	inner := mt.New()
	if err := (proto.UnmarshalOptions{Resolver: resolverOf(r)}).Unmarshal(payload, inner.Interface()); err != nil {
		return nil, false
	}
	out, err := appendMessage(nil, inner, r, depth+1)
	if err != nil {
		return nil, false
	}
	return out, true
}

// resolverOf returns r as an extension resolver when it is one.
func resolverOf(r protoregistry.MessageTypeResolver) interface {
	protoregistry.ExtensionTypeResolver
	protoregistry.MessageTypeResolver
} {
	if full, ok := r.(*dynamicpb.Types); ok {
		return full
	}
	if full, ok := r.(*protoregistry.Types); ok {
		return full
	}
	return protoregistry.GlobalTypes
}

func appendField(b []byte, fd protoreflect.FieldDescriptor, v protoreflect.Value, r protoregistry.MessageTypeResolver, depth int) ([]byte, error) {
	num := fd.Number()
	var err error
	switch {
	case fd.IsMap():
		mp := v.Map()
		keys := make([]protoreflect.MapKey, 0, mp.Len())
		mp.Range(func(k protoreflect.MapKey, _ protoreflect.Value) bool {
			keys = append(keys, k)
			return true
		})
		sort.Slice(keys, func(i, j int) bool { return mapKeyLess(keys[i], keys[j]) })
		for _, k := range keys {
			var entry []byte
			entry, err = appendSingular(entry, fd.MapKey(), k.Value(), r, depth)
			if err != nil {
				return nil, err
			}
			entry, err = appendSingular(entry, fd.MapValue(), mp.Get(k), r, depth)
			if err != nil {
				return nil, err
			}
			b = protowire.AppendTag(b, num, protowire.BytesType)
			b = protowire.AppendBytes(b, entry)
		}
	case fd.IsList():
		l := v.List()
		if fd.IsPacked() {
			var packed []byte
			for i := 0; i < l.Len(); i++ {
				packed = appendScalar(packed, fd.Kind(), l.Get(i))
			}
			b = protowire.AppendTag(b, num, protowire.BytesType)
			b = protowire.AppendBytes(b, packed)
			return b, nil
		}
		for i := 0; i < l.Len(); i++ {
			b, err = appendSingular(b, fd, l.Get(i), r, depth)
			if err != nil {
				return nil, err
			}
		}
	default:
		return appendSingular(b, fd, v, r, depth)
	}
	return b, nil
}

// appendSingular appends one tagged value of fd.
func appendSingular(b []byte, fd protoreflect.FieldDescriptor, v protoreflect.Value, r protoregistry.MessageTypeResolver, depth int) ([]byte, error) {
	num := fd.Number()
	switch fd.Kind() {
	case protoreflect.MessageKind:
		inner, err := appendMessage(nil, v.Message(), r, depth+1)
		if err != nil {
			return nil, err
		}
		b = protowire.AppendTag(b, num, protowire.BytesType)
		return protowire.AppendBytes(b, inner), nil
	case protoreflect.GroupKind:
		b = protowire.AppendTag(b, num, protowire.StartGroupType)
		b, err := appendMessage(b, v.Message(), r, depth+1)
		if err != nil {
			return nil, err
		}
		return protowire.AppendTag(b, num, protowire.EndGroupType), nil
	case protoreflect.StringKind, protoreflect.BytesKind:
		b = protowire.AppendTag(b, num, protowire.BytesType)
	case protoreflect.Fixed32Kind, protoreflect.Sfixed32Kind, protoreflect.FloatKind:
		b = protowire.AppendTag(b, num, protowire.Fixed32Type)
	case protoreflect.Fixed64Kind, protoreflect.Sfixed64Kind, protoreflect.DoubleKind:
		b = protowire.AppendTag(b, num, protowire.Fixed64Type)
	default:
		b = protowire.AppendTag(b, num, protowire.VarintType)
	}
	return appendScalar(b, fd.Kind(), v), nil
}

// appendScalar appends the untagged encoding of a non-message value.
func appendScalar(b []byte, k protoreflect.Kind, v protoreflect.Value) []byte {
	switch k {
	case protoreflect.BoolKind:
		return protowire.AppendVarint(b, protowire.EncodeBool(v.Bool()))
	case protoreflect.EnumKind:
		return protowire.AppendVarint(b, uint64(int64(v.Enum())))
	case protoreflect.Int32Kind, protoreflect.Int64Kind:
		return protowire.AppendVarint(b, uint64(v.Int()))
	case protoreflect.Sint32Kind, protoreflect.Sint64Kind:
		return protowire.AppendVarint(b, protowire.EncodeZigZag(v.Int()))
	case protoreflect.Uint32Kind, protoreflect.Uint64Kind:
		return protowire.AppendVarint(b, v.Uint())
	case protoreflect.Fixed32Kind:
		return protowire.AppendFixed32(b, uint32(v.Uint()))
	case protoreflect.Sfixed32Kind:
		return protowire.AppendFixed32(b, uint32(int32(v.Int())))
	case protoreflect.FloatKind:
		return protowire.AppendFixed32(b, math.Float32bits(float32(v.Float())))
	case protoreflect.Fixed64Kind:
		return protowire.AppendFixed64(b, v.Uint())
	case protoreflect.Sfixed64Kind:
		return protowire.AppendFixed64(b, uint64(v.Int()))
	case protoreflect.DoubleKind:
		return protowire.AppendFixed64(b, math.Float64bits(v.Float()))
	case protoreflect.StringKind:
		return protowire.AppendString(b, v.String())
	case protoreflect.BytesKind:
		return protowire.AppendBytes(b, v.Bytes())
	}
	return b
}

// mapKeyLess orders map keys as libprotobuf's deterministic serializer does.
func mapKeyLess(x, y protoreflect.MapKey) bool {
	switch xv := x.Interface().(type) {
	case bool:
		return !xv && y.Bool()
	case int32, int64:
		return x.Int() < y.Int()
	case uint32, uint64:
		return x.Uint() < y.Uint()
	case string:
		return xv < y.String()
	}
	return bytes.Compare([]byte(x.String()), []byte(y.String())) < 0
}
