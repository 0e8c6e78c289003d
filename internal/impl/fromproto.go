package impl

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"
)

// Values of every kind for the dynamic view: a message, list or map field
// read as a protoreflect.Value (a copy), and written from one
// (protoreflect.Message.Set's values: a message, a list, a map), by
// copying protobuf reflection values into the payload. The inverse of
// ToProto.

// FromProto replaces the content of m, a message of type t, with that of
// src, a protobuf message of the same full name (a protobuf-go generated
// message, a dynamicpb message, any protoreflect.Message). Fields are
// written in declaration order, then the oneofs (as CopyFrom), map entries
// in key order, so that one content gives one payload. An Any's value is
// decoded into the registered Type of its type URL. It fails for a field
// of src that t does not have, an Any of an unregistered type, and a write
// the payload does not store (Err).
func (m Msg) FromProto(t *Type, src protoreflect.Message) error {
	if name := src.Descriptor().FullName(); string(name) != t.name {
		return fmt.Errorf("phaser: copy a %s into a %s", name, t.name)
	}
	if !m.writable() {
		return m.Err()
	}
	m.Clear(t)
	if err := m.fromProto(t, src, 0); err != nil {
		return err
	}
	if m.Failed() {
		return fmt.Errorf("phaser: copy into %s: %w", t.name, m.Err())
	}
	return nil
}

func (m Msg) fromProto(t *Type, src protoreflect.Message, depth int) error {
	if depth > maxDepth {
		return fmt.Errorf("phaser: %s: messages nested deeper than %d", t.name, maxDepth)
	}
	if t.isAny {
		return m.anyFromProto(src, depth)
	}
	var unknown error
	src.Range(func(fd protoreflect.FieldDescriptor, _ protoreflect.Value) bool {
		if f := t.FieldOf(fd); f == nil {
			unknown = fmt.Errorf("phaser: copy into %s: field %s has no Phaser storage", t.name, fd.FullName())
			return false
		}
		return true
	})
	if unknown != nil {
		return unknown
	}
	fds := src.Descriptor().Fields()
	for pass := range 2 { // the fields outside oneofs, then the oneofs' members
		for _, f := range t.fields {
			if (f.Union != nil) != (pass == 1) {
				continue
			}
			fd := fds.ByNumber(protoreflect.FieldNumber(f.Number))
			if fd == nil || !src.Has(fd) {
				continue
			}
			if err := m.setFromProto(f, src.Get(fd), depth); err != nil {
				return err
			}
		}
	}
	return nil
}

// setFromProto stores v, the value of field f in a protobuf message.
func (m Msg) setFromProto(f *FieldInfo, v protoreflect.Value, depth int) error {
	switch {
	case f.Desc.IsMap():
		return m.mapFromProto(f, v.Map(), depth)
	case f.Repeated:
		l := v.List()
		for i := range l.Len() {
			if err := m.appendFromProto(f, l.Get(i), depth); err != nil {
				return err
			}
		}
		return nil
	case f.Kind == Message:
		return m.MutableField(f).fromProto(f.Type, v.Message(), depth+1)
	}
	if !m.SetValue(f, v) {
		return fmt.Errorf("phaser: field %s (%v): a %T", f.Desc.FullName(), f.Desc.Kind(), v.Interface())
	}
	return nil
}

// appendFromProto appends v, an element of repeated field f.
func (m Msg) appendFromProto(f *FieldInfo, v protoreflect.Value, depth int) error {
	if f.Kind == Message {
		e := m.AddMessage(f.Field, f.Type)
		if !e.IsPresent() {
			return fmt.Errorf("phaser: field %s: %w", f.Desc.FullName(), m.Err())
		}
		return e.fromProto(f.Type, v.Message(), depth+1)
	}
	if !m.AppendValue(f, v) {
		return fmt.Errorf("phaser: field %s (%v): a %T element", f.Desc.FullName(), f.Desc.Kind(), v.Interface())
	}
	return nil
}

// mapFromProto appends the entries of mp to map field f in key order.
func (m Msg) mapFromProto(f *FieldInfo, mp protoreflect.Map, depth int) error {
	keys := make([]protoreflect.MapKey, 0, mp.Len())
	mp.Range(func(k protoreflect.MapKey, _ protoreflect.Value) bool {
		keys = append(keys, k)
		return true
	})
	slices.SortFunc(keys, compareKeys)
	kf, vf := f.Type.FieldByNumber(1), f.Type.FieldByNumber(2)
	for _, k := range keys {
		e := m.AddMessage(f.Field, f.Type)
		if !e.IsPresent() {
			return fmt.Errorf("phaser: field %s: %w", f.Desc.FullName(), m.Err())
		}
		if err := e.setFromProto(kf, k.Value(), depth+1); err != nil {
			return err
		}
		if err := e.setFromProto(vf, mp.Get(k), depth+1); err != nil {
			return err
		}
	}
	return nil
}

// compareKeys orders map keys as deterministic protobuf marshaling does.
func compareKeys(a, b protoreflect.MapKey) int {
	switch x := a.Interface().(type) {
	case bool:
		if x == b.Bool() {
			return 0
		}
		if !x {
			return -1
		}
		return 1
	case int32, int64:
		return cmp.Compare(a.Int(), b.Int())
	case uint32, uint64:
		return cmp.Compare(a.Uint(), b.Uint())
	}
	return cmp.Compare(a.String(), b.String())
}

// anyFromProto stores src, a google.protobuf.Any: its value is decoded as
// the registered Type its type URL names.
func (m Msg) anyFromProto(src protoreflect.Message, depth int) error {
	fields := src.Descriptor().Fields()
	url := src.Get(fields.ByNumber(1)).String()
	value := src.Get(fields.ByNumber(2)).Bytes()
	if !src.Has(fields.ByNumber(2)) {
		if url != "" {
			m.SetString(anyTypeURL, url)
		}
		return nil
	}
	name := url[strings.LastIndexByte(url, '/')+1:]
	t := FindType(protoreflect.FullName(name))
	if t == nil {
		return fmt.Errorf("phaser: Any holds unknown type %q", name)
	}
	inner := dynamicpb.NewMessage(t.desc)
	if err := (proto.UnmarshalOptions{AllowPartial: true}).Unmarshal(value, inner); err != nil {
		return fmt.Errorf("phaser: Any value %s: %w", name, err)
	}
	a := m.MutableAny(t)
	if !a.IsPresent() {
		return fmt.Errorf("phaser: Any value %s: %w", name, m.Err())
	}
	if err := a.fromProto(t, inner, depth+1); err != nil {
		return err
	}
	if url != AnyURLPrefix+name { // the URL as it was, not as MutableAny writes it
		m.SetString(anyTypeURL, url)
	}
	return nil
}

// FieldValue returns the value of field f as protoreflect.Message.Get
// gives it: a scalar, enum, string or bytes value (its default if absent),
// or, for a message, list or map field, a copy of its content (dynamicpb;
// an empty message, list or map if absent) that reading the payload does
// not change. The copy is built for descriptor fd, the caller's
// descriptor of f (it may be another descriptor object of the same field:
// dynamicpb accepts a list or map only for the very descriptor it was
// made for). It fails when the copy does (a payload whose offsets repeat
// or cycle, an Any of an unregistered type).
func (m Msg) FieldValue(f *FieldInfo, fd protoreflect.FieldDescriptor) (protoreflect.Value, error) {
	if !f.Repeated && f.Kind != Message {
		v, _ := m.Value(f)
		return v, nil
	}
	if !f.Repeated {
		out := dynamicpb.NewMessage(fd.Message())
		if m.HasField(f) {
			if err := m.MessageField(f).toProto(f.Type, out, newWalk(m)); err != nil {
				return protoreflect.Value{}, err
			}
		}
		return protoreflect.ValueOfMessage(out), nil
	}
	holder := dynamicpb.NewMessage(fd.ContainingMessage())
	if err := m.repeatedToProto(f, fd, holder, newWalk(m)); err != nil {
		return protoreflect.Value{}, err
	}
	return holder.Get(fd), nil
}

// SetFieldValue stores v in field f, whatever its kind, as
// protoreflect.Message.Set does: a scalar, enum, string or bytes value, a
// message (its content is copied, as FromProto), a list or a map (which
// replace the field's elements). It reports false, writing nothing, for a
// value of another kind. What the payload does not store is reported by
// Failed and Err, as for any write: FromProto's errors too.
func (m Msg) SetFieldValue(f *FieldInfo, v protoreflect.Value) bool {
	if !f.Repeated && f.Kind != Message {
		return m.SetValue(f, v)
	}
	var err error
	switch x := v.Interface().(type) {
	case protoreflect.Message:
		if f.Repeated || x.Descriptor().FullName() != f.Type.desc.FullName() {
			return false
		}
		if sub := m.MutableField(f); sub.IsPresent() {
			err = sub.FromProto(f.Type, x)
		}
	case protoreflect.List:
		if !f.Repeated || f.Desc.IsMap() {
			return false
		}
		if m.writable() {
			m.ClearRepeated(f)
			err = m.setFromProto(f, v, 0)
		}
	case protoreflect.Map:
		if !f.Desc.IsMap() {
			return false
		}
		if m.writable() {
			m.ClearRepeated(f)
			err = m.mapFromProto(f, x, 0)
		}
	default:
		return false
	}
	if err != nil && m.p != nil && m.p.err == nil {
		m.p.drop(err)
	}
	return true
}

// SetElemValue stores v as element i of repeated scalar, enum, string or
// bytes field f (0 <= i < its length). It reports false, writing nothing,
// for another field or value kind, or an index out of range.
func (m Msg) SetElemValue(f *FieldInfo, i int, v protoreflect.Value) bool {
	if !f.Repeated || f.Kind == Message || i < 0 || i >= m.LenOf(f) {
		return false
	}
	switch f.Kind {
	case String, Bytes:
		switch x := v.Interface().(type) {
		case string:
			m.SetElemString(f.Field, i, x)
		case []byte:
			m.SetElemBytes(f.Field, i, x)
		default:
			return false
		}
		return true
	}
	bits, ok := valueBits(f, v)
	if ok {
		m.setElemBits(f, i, bits)
	}
	return ok
}

// setElemBits stores bits (as valueBits gives them) as element i of
// repeated scalar or enum field f.
func (m Msg) setElemBits(f *FieldInfo, i int, bits uint64) {
	switch elemSize(f.Kind) {
	case 1:
		m.SetElem8(f.Field, i, uint8(bits))
	case 4:
		m.SetElem32(f.Field, i, uint32(bits))
	default:
		m.SetElem64(f.Field, i, bits)
	}
}
