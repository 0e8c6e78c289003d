package impl

import (
	"slices"

	"google.golang.org/protobuf/encoding/protowire"
	gproto "google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/runtime/protoiface"
	"google.golang.org/protobuf/types/dynamicpb"
)

// Extensions through the reflection view. The C++ layout has no place for
// proto2 extensions: a payload keeps them with the message's unknown
// fields (unknown.go), and the encoders write the declared ones where
// protobuf-go does (extensions.go). The view shows a declared extension
// (Type.ExtensionDeclared) as protobuf-go shows it, as a field: Range,
// Has and Get decode its records, Set, Clear and Mutable rewrite them,
// and GetUnknown leaves them out. So protojson and prototext print them,
// proto.Equal and protocmp compare them, and proto.Merge, protojson and
// prototext write them. A record that does not decode as its extension
// stays an unknown field.

// extensionTypeOf returns the type of extension field fd.
func extensionTypeOf(fd protoreflect.FieldDescriptor) protoreflect.ExtensionType {
	if xd, ok := fd.(protoreflect.ExtensionTypeDescriptor); ok {
		return xd.Type()
	}
	if xt, err := protoregistry.GlobalTypes.FindExtensionByName(fd.FullName()); err == nil {
		return xt
	}
	return dynamicpb.NewExtensionType(fd)
}

// extensionRecords returns the records of unknown that are extension num
// of the message's type, and the other records.
func (x *message) extensionRecords(unknown []byte, num protowire.Number) (of, rest []byte) {
	t := x.info.t
	for b := unknown; len(b) > 0; {
		n, typ, k := protowire.ConsumeTag(b)
		if k < 0 {
			return of, append(rest, b...)
		}
		v := protowire.ConsumeFieldValue(n, typ, b[k:])
		if v < 0 {
			return of, append(rest, b...)
		}
		if n == num && t.ExtensionDeclared(n, typ) {
			of = append(of, b[:k+v]...)
		} else {
			rest = append(rest, b[:k+v]...)
		}
		b = b[k+v:]
	}
	return of, rest
}

// hasExtensions reports whether the message's type has extension ranges
// and the message unknown fields, the only place extensions can be.
func (x *message) hasExtensions() bool {
	return x.info.t.desc != nil && x.info.t.desc.ExtensionRanges().Len() > 0 &&
		x.m.IsPresent() && len(x.m.UnknownFields()) > 0
}

// decodeExtension decodes records, those of extension xt, into a new
// message of the containing type (dynamicpb) holding only it; ok is false
// if they do not decode.
func (x *message) decodeExtension(xt protoreflect.ExtensionType, records []byte) (_ *dynamicpb.Message, ok bool) {
	return decodeExtension(x.info.t.desc, xt, records)
}

// decodeExtension is the view's decodeExtension for a message of type md.
func decodeExtension(md protoreflect.MessageDescriptor, xt protoreflect.ExtensionType, records []byte) (_ *dynamicpb.Message, ok bool) {
	tmp := dynamicpb.NewMessage(md)
	if len(records) == 0 {
		return tmp, true
	}
	o := gproto.UnmarshalOptions{Resolver: oneExtension{xt}, AllowPartial: true}
	if err := o.Unmarshal(records, tmp); err != nil || len(tmp.GetUnknown()) != 0 {
		return nil, false
	}
	return tmp, true
}

// extensionValue returns the value of extension fd and whether it is
// populated.
func (x *message) extensionValue(fd protoreflect.FieldDescriptor) (protoreflect.Value, bool) {
	xt := extensionTypeOf(fd)
	if !x.hasExtensions() {
		return xt.Zero(), false
	}
	of, _ := x.extensionRecords(x.m.UnknownFields(), fd.Number())
	tmp, ok := x.decodeExtension(xt, of)
	if !ok || !tmp.Has(xt.TypeDescriptor()) {
		return xt.Zero(), false
	}
	return tmp.Get(xt.TypeDescriptor()), true
}

// extensions returns the populated extensions of the message, in the
// order of their numbers, and the unknown fields without them.
func (x *message) extensions() (xts []protoreflect.ExtensionType, vals []protoreflect.Value, rest []byte) {
	unknown := x.m.UnknownFields()
	if !x.hasExtensions() {
		return nil, nil, unknown
	}
	t := x.info.t
	var nums []protowire.Number
	for b := unknown; len(b) > 0; {
		n, typ, k := protowire.ConsumeTag(b)
		if k < 0 {
			break
		}
		v := protowire.ConsumeFieldValue(n, typ, b[k:])
		if v < 0 {
			break
		}
		if t.ExtensionDeclared(n, typ) && !slices.Contains(nums, n) {
			nums = append(nums, n)
		}
		b = b[k+v:]
	}
	if len(nums) == 0 {
		return nil, nil, unknown
	}
	slices.Sort(nums)
	rest = unknown
	for _, n := range nums {
		xt := extensionOf(t, n)
		if xt == nil {
			continue
		}
		of, others := x.extensionRecords(rest, n)
		tmp, ok := x.decodeExtension(xt, of)
		if !ok {
			continue // stays an unknown field
		}
		rest = others
		if xd := xt.TypeDescriptor(); tmp.Has(xd) {
			xts, vals = append(xts, xt), append(vals, tmp.Get(xd))
		}
	}
	return xts, vals, rest
}

// extensionBytes returns the records of the declared extensions that
// extensions takes out of the unknown fields.
func (x *message) extensionBytes() []byte {
	unknown := x.m.UnknownFields()
	var out []byte
	rest := unknown
	for {
		n, ok := x.firstDeclared(rest)
		if !ok {
			return out
		}
		of, others := x.extensionRecords(rest, n)
		if xt := extensionOf(x.info.t, n); xt != nil {
			if _, ok := x.decodeExtension(xt, of); ok {
				out = append(out, of...)
			}
		}
		rest = others
	}
}

// firstDeclared returns the number of the first record of b that is a
// declared extension.
func (x *message) firstDeclared(b []byte) (protowire.Number, bool) {
	for len(b) > 0 {
		n, typ, k := protowire.ConsumeTag(b)
		if k < 0 {
			return 0, false
		}
		v := protowire.ConsumeFieldValue(n, typ, b[k:])
		if v < 0 {
			return 0, false
		}
		if x.info.t.ExtensionDeclared(n, typ) {
			return n, true
		}
		b = b[k+v:]
	}
	return 0, false
}

// extensionOf returns the type of the extension num of t that
// ExtensionDeclared found, or nil.
func extensionOf(t *Type, num protowire.Number) protoreflect.ExtensionType {
	extensions.RLock()
	fd := extensions.of[t.desc.FullName()][num]
	extensions.RUnlock()
	if fd != nil {
		return extensionTypeOf(fd)
	}
	xt, err := protoregistry.GlobalTypes.FindExtensionByNumber(t.desc.FullName(), num)
	if err != nil {
		return nil
	}
	return xt
}

// storeExtension replaces the records of extension xd with the encoding
// of its value in tmp (a message of the containing type that holds only
// it); a full fixed buffer records ErrFull in the payload.
func (x *message) storeExtension(xd protoreflect.FieldDescriptor, tmp protoreflect.Message) {
	_, rest := x.extensionRecords(x.m.UnknownFields(), xd.Number())
	b, err := gproto.MarshalOptions{AllowPartial: true, Deterministic: true}.Marshal(tmp.Interface())
	if err != nil {
		x.m.p.notStored("extension " + string(xd.FullName()) + ": " + err.Error())
		return
	}
	x.m.SetUnknownFields(append(rest, b...))
}

// setExtension stores v as the value of extension fd.
func (x *message) setExtension(fd protoreflect.FieldDescriptor, v protoreflect.Value) {
	if x.info.t.desc == nil {
		x.m.p.notStored("extension " + string(fd.FullName()) + " of a type without a descriptor")
		return
	}
	xt := extensionTypeOf(fd)
	tmp := dynamicpb.NewMessage(x.info.t.desc)
	tmp.Set(xt.TypeDescriptor(), v)
	x.storeExtension(fd, tmp)
}

// clearExtension drops the records of extension fd.
func (x *message) clearExtension(fd protoreflect.FieldDescriptor) {
	if !x.hasExtensions() {
		return
	}
	of, rest := x.extensionRecords(x.m.UnknownFields(), fd.Number())
	if len(of) == 0 {
		return
	}
	x.writable(fd)
	x.m.SetUnknownFields(rest)
}

// mutableExtension returns the message or list of extension fd, for
// writing: every write through it rewrites the extension's records.
func (x *message) mutableExtension(fd protoreflect.FieldDescriptor) protoreflect.Value {
	xt := extensionTypeOf(fd)
	xd := xt.TypeDescriptor()
	if x.info.t.desc == nil {
		x.m.p.notStored("extension " + string(fd.FullName()) + " of a type without a descriptor")
		return xt.New()
	}
	var of []byte
	if x.hasExtensions() {
		of, _ = x.extensionRecords(x.m.UnknownFields(), fd.Number())
	}
	tmp, ok := x.decodeExtension(xt, of)
	if !ok {
		tmp = dynamicpb.NewMessage(x.info.t.desc) // the records stay unknown fields
	}
	flush := func() { x.storeExtension(fd, tmp) }
	v := tmp.Mutable(xd)
	if xd.Message() != nil && !xd.IsList() {
		flush() // a message is present once Mutable returns
	}
	return flushing(v, xd, flush)
}

// flushing wraps v, a message, list or map of a decoded extension, so that
// every write through it calls flush.
func flushing(v protoreflect.Value, fd protoreflect.FieldDescriptor, flush func()) protoreflect.Value {
	switch {
	case fd.IsMap():
		return protoreflect.ValueOfMap(&flushMap{Map: v.Map(), fd: fd, flush: flush})
	case fd.IsList():
		return protoreflect.ValueOfList(&flushList{List: v.List(), fd: fd, flush: flush})
	case fd.Message() != nil:
		return protoreflect.ValueOfMessage(&flushMessage{Message: v.Message(), flush: flush})
	}
	return v
}

// flushMessage is a message of a decoded extension whose writes call
// flush. It has no fast paths, so that protobuf-go writes through it.
type flushMessage struct {
	protoreflect.Message
	flush func()
}

func (m *flushMessage) ProtoReflect() protoreflect.Message    { return m }
func (m *flushMessage) Interface() protoreflect.ProtoMessage  { return m }
func (m *flushMessage) ProtoMethods() *protoiface.Methods     { return nil }
func (m *flushMessage) Clear(fd protoreflect.FieldDescriptor) { m.Message.Clear(fd); m.flush() }
func (m *flushMessage) SetUnknown(raw protoreflect.RawFields) { m.Message.SetUnknown(raw); m.flush() }
func (m *flushMessage) Set(fd protoreflect.FieldDescriptor, v protoreflect.Value) {
	m.Message.Set(fd, v)
	m.flush()
}

func (m *flushMessage) Mutable(fd protoreflect.FieldDescriptor) protoreflect.Value {
	v := m.Message.Mutable(fd)
	m.flush()
	return flushing(v, fd, m.flush)
}

// flushList is a list of a decoded extension whose writes call flush.
type flushList struct {
	protoreflect.List
	fd    protoreflect.FieldDescriptor
	flush func()
}

func (l *flushList) Set(i int, v protoreflect.Value) { l.List.Set(i, v); l.flush() }
func (l *flushList) Append(v protoreflect.Value)     { l.List.Append(v); l.flush() }
func (l *flushList) Truncate(n int)                  { l.List.Truncate(n); l.flush() }
func (l *flushList) AppendMutable() protoreflect.Value {
	v := l.List.AppendMutable()
	l.flush()
	return protoreflect.ValueOfMessage(&flushMessage{Message: v.Message(), flush: l.flush})
}

// flushMap is a map of a decoded extension's message whose writes call
// flush.
type flushMap struct {
	protoreflect.Map
	fd    protoreflect.FieldDescriptor
	flush func()
}

func (m *flushMap) Set(k protoreflect.MapKey, v protoreflect.Value) { m.Map.Set(k, v); m.flush() }
func (m *flushMap) Clear(k protoreflect.MapKey)                     { m.Map.Clear(k); m.flush() }
func (m *flushMap) Mutable(k protoreflect.MapKey) protoreflect.Value {
	v := m.Map.Mutable(k)
	m.flush()
	return protoreflect.ValueOfMessage(&flushMessage{Message: v.Message(), flush: m.flush})
}

// oneExtension resolves one extension type first, for decoding its
// records, then the extensions this program declares (for the extensions
// of messages in its value).
type oneExtension struct{ xt protoreflect.ExtensionType }

func (r oneExtension) FindExtensionByName(field protoreflect.FullName) (protoreflect.ExtensionType, error) {
	if r.xt.TypeDescriptor().FullName() == field {
		return r.xt, nil
	}
	return protoregistry.GlobalTypes.FindExtensionByName(field)
}

func (r oneExtension) FindExtensionByNumber(message protoreflect.FullName, field protoreflect.FieldNumber) (protoreflect.ExtensionType, error) {
	xd := r.xt.TypeDescriptor()
	if xd.ContainingMessage().FullName() == message && xd.Number() == field {
		return r.xt, nil
	}
	extensions.RLock()
	fd := extensions.of[message][field]
	extensions.RUnlock()
	if fd != nil {
		return extensionTypeOf(fd), nil
	}
	return protoregistry.GlobalTypes.FindExtensionByNumber(message, field)
}
