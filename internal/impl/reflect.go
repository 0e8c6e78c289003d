package impl

import (
	"errors"
	"fmt"
	"math"
	"slices"

	gproto "google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/runtime/protoiface"
	"google.golang.org/protobuf/types/dynamicpb"
)

// message is the protoreflect.Message view of a message in a payload. It
// holds the handle, never the values: Get reads the payload (copying only
// strings, which Go requires to be immutable; bytes alias the payload, as
// XBytes accessors do), Set, Clear and Mutable write it.
//
// Modifying a message that cannot be written (read-only received bytes, an
// absent message, the zero handle) panics, as protobuf-go's dynamicpb does
// for its read-only messages; clearing a field that is not populated is a
// no-op everywhere. A write that does not fit in a fixed buffer is
// recorded in the payload (Failed, Err), and reported by CheckInitialized,
// which protojson, prototext and proto call after decoding.
type message struct {
	m     Msg
	mt    *MessageType
	info  *reflectInfo
	extra *viewExtra // rarely needed state
}

// viewExtra is the state few views need.
type viewExtra struct {
	// err: the payload failed the walk of MessageType.Message; the view
	// reads as empty.
	err error
	// pending is an Any's value set before a type URL that names a known
	// type: kept until the URL comes (proto.Merge from a dynamicpb message
	// sets the fields in map order), and recorded in the payload as not
	// stored (pendingErr) until then.
	pending    []byte
	pendingErr error
}

var _ protoreflect.Message = (*message)(nil)

// Descriptor returns the message descriptor.
func (x *message) Descriptor() protoreflect.MessageDescriptor { return x.info.md }

// Type returns the message type.
func (x *message) Type() protoreflect.MessageType { return x.mt }

// New returns a new, empty message of the same type in a new owned payload
// of the same format.
func (x *message) New() protoreflect.Message {
	return x.mt.newIn(x.m.p)
}

// Interface returns the message as its handle: the generated handle type,
// or runtime.Msg.
func (x *message) Interface() protoreflect.ProtoMessage { return x.mt.Handle(x.m) }

// IsValid reports whether the message is present in a payload.
func (x *message) IsValid() bool { return x.m.IsPresent() }

// ProtoMethods returns the fast paths of package proto (reflect_methods.go).
func (x *message) ProtoMethods() *protoiface.Methods { return protoMethods }

// Range visits every populated field, in declaration order, then the
// populated extensions, by number (reflect_ext.go).
func (x *message) Range(f func(protoreflect.FieldDescriptor, protoreflect.Value) bool) {
	if !x.m.IsPresent() {
		return
	}
	if x.info.t.isAny {
		x.rangeAny(f)
		return
	}
	fields := x.info.fields
	for i := range fields {
		rf := fields[i]
		if x.has(rf) && !f(rf.fd, x.get(rf)) {
			return
		}
	}
	if x.hasExtensions() {
		xts, vals, _ := x.extensions()
		for i, xt := range xts {
			if !f(xt.TypeDescriptor(), vals[i]) {
				return
			}
		}
	}
}

// Has reports whether field fd is populated, as protoreflect defines it: a
// field with presence (a message, a oneof member, a proto2 or proto3
// optional scalar) if set, a proto3 scalar if not zero, a repeated or map
// field if not empty.
func (x *message) Has(fd protoreflect.FieldDescriptor) bool {
	if fd.IsExtension() {
		_, ok := x.extensionValue(fd)
		return ok
	}
	rf := x.info.field(fd)
	if x.info.t.isAny {
		return x.hasAny(rf)
	}
	return x.has(rf)
}

func (x *message) has(rf *rfield) bool { return populated(x.m, rf) }

// populated reports whether field rf of m is populated (see Has): as
// the engine's HasField says, but a proto3 scalar, string or bytes field
// only if not zero or empty.
func populated(m Msg, rf *rfield) bool {
	f := rf.FieldInfo
	switch {
	case !rf.implicit:
		return m.HasField(f)
	case f.Kind == String || f.Kind == Bytes:
		return len(m.StringBytes(f.Field)) > 0
	}
	return m.scalarBits(f) != 0 // -0.0 is populated, as in protobuf-go
}

// Get returns the value of field fd: for an unpopulated scalar its
// default, for an unpopulated message an invalid (empty, read-only)
// message.
func (x *message) Get(fd protoreflect.FieldDescriptor) protoreflect.Value {
	if fd.IsExtension() {
		v, _ := x.extensionValue(fd)
		return v
	}
	rf := x.info.field(fd)
	if x.info.t.isAny {
		return x.getAny(rf)
	}
	return x.get(rf)
}

func (x *message) get(rf *rfield) protoreflect.Value {
	m, f := x.m, rf.FieldInfo
	switch {
	case rf.isMap:
		return protoreflect.ValueOfMap(&mapView{m: m, rf: rf, mt: x.mt})
	case f.Repeated:
		return protoreflect.ValueOfList(&listView{m: m, rf: rf, mt: x.mt})
	case f.Kind == Message:
		return protoreflect.ValueOfMessage(x.mt.field(rf).readView(m.MessageField(f)))
	}
	return getScalar(m, rf)
}

// getScalar returns the value of singular scalar, enum, string or bytes
// field rf of m (its default if unpopulated).
func getScalar(m Msg, rf *rfield) protoreflect.Value {
	f := rf.FieldInfo
	if !rf.implicit && !populated(m, rf) {
		return defaultValue(rf.fd)
	}
	switch f.Kind {
	case String:
		return protoreflect.ValueOfString(string(m.fieldString(f)))
	case Bytes:
		return protoreflect.ValueOfBytes(m.fieldString(f))
	}
	return scalarValue(f, m.scalarBits(f))
}

// defaultValue returns the value of an unpopulated scalar field: its
// default, a copy for bytes.
func defaultValue(fd protoreflect.FieldDescriptor) protoreflect.Value {
	if fd.Kind() == protoreflect.BytesKind {
		return protoreflect.ValueOfBytes(append([]byte(nil), fd.Default().Bytes()...))
	}
	return fd.Default()
}

// writable panics where the message is read-only, as protobuf-go's
// read-only messages do (see readOnlyPayload).
func (x *message) writable(fd protoreflect.FieldDescriptor) {
	if x.m.readOnlyPayload() {
		name := protoreflect.FullName(x.info.t.name)
		if fd != nil {
			name = fd.FullName()
		}
		panic(readOnlyError(name))
	}
}

func readOnlyError(name protoreflect.FullName) error {
	return fmt.Errorf("phaser: %v: modification of read-only message", name)
}

// writableNoRecord reports whether m can be written, without recording
// ErrReadOnly as the engine's accessors do.
func (m Msg) writableNoRecord() bool { return m.off != 0 && m.p != nil && m.p.buf != nil }

// readOnlyPayload reports whether m is the zero handle or a handle on a
// read-only payload: writes through reflection panic on those, as
// protobuf-go's read-only messages do. A handle on no message in a
// writable payload (what Mutable gives where the buffer is full, or where
// the bytes of a payload continued with Open do not hold the message)
// takes writes as the engine's accessors do: it drops them, and the
// payload records why (Failed, Err). Hostile bytes then cannot make a
// writer through reflection (protojson.Unmarshal, proto.Merge) panic.
func (m Msg) readOnlyPayload() bool { return m.p == nil || m.p.buf == nil }

// Clear clears field fd. Clearing an unpopulated field does nothing, even
// in a read-only message.
func (x *message) Clear(fd protoreflect.FieldDescriptor) {
	if fd.IsExtension() {
		x.clearExtension(fd)
		return
	}
	rf := x.info.field(fd)
	if x.info.t.isAny {
		x.clearAny(rf)
		return
	}
	if !x.has(rf) {
		// Unpopulated; a proto3 scalar may still hold a stored zero.
		if x.m.writableNoRecord() && x.m.HasField(rf.FieldInfo) {
			x.m.ClearField(rf.FieldInfo)
		}
		return
	}
	x.writable(fd)
	x.m.ClearField(rf.FieldInfo)
}

// Set stores v in field fd (a oneof member becomes the active one). v must
// be of the field's type, as protoreflect requires: Set panics otherwise.
// A message, list or map value is copied into the payload.
func (x *message) Set(fd protoreflect.FieldDescriptor, v protoreflect.Value) {
	if fd.IsExtension() {
		x.writable(fd)
		x.setExtension(fd, v)
		return
	}
	rf := x.info.field(fd)
	x.writable(fd)
	if x.info.t.isAny {
		x.setAny(rf, v)
		return
	}
	switch {
	case rf.isMap:
		x.setMap(rf, v.Map())
	case rf.Repeated:
		x.setList(rf, v.List())
	case rf.Kind == Message:
		src := messageValue(rf.fd, v)
		dst := x.m.MutableField(rf.FieldInfo)
		copyInto(dst, x.mt.field(rf), src)
	default:
		x.m.setScalar(rf, v)
	}
}

// messageValue returns v as a valid message of fd's message type, or
// panics.
func messageValue(fd protoreflect.FieldDescriptor, v protoreflect.Value) protoreflect.Message {
	src, ok := v.Interface().(protoreflect.Message)
	switch {
	case !ok:
		panic(fmt.Errorf("phaser: %v: assigning invalid type %T", fd.FullName(), v.Interface()))
	case src.Descriptor().FullName() != fd.Message().FullName():
		panic(fmt.Errorf("phaser: %v: assigning invalid message type %v", fd.FullName(), src.Descriptor().FullName()))
	case !src.IsValid():
		panic(fmt.Errorf("phaser: %v: assigning invalid zero-value message", fd.FullName()))
	}
	return src
}

// setScalar stores scalar, enum, string or bytes value v in singular field
// rf of m. A proto3 field set to its zero value becomes unpopulated, as in
// protobuf-go.
func (m Msg) setScalar(rf *rfield, v protoreflect.Value) {
	checkScalar(rf.fd, v)
	if rf.implicit && isZero(v) {
		if m.HasField(rf.FieldInfo) {
			m.ClearField(rf.FieldInfo)
		}
		return
	}
	m.SetValue(rf.FieldInfo, v)
}

// checkScalar panics unless v is of the Go type of fd's kind.
func checkScalar(fd protoreflect.FieldDescriptor, v protoreflect.Value) {
	var ok bool
	switch vi := v.Interface(); fd.Kind() {
	case protoreflect.BoolKind:
		_, ok = vi.(bool)
	case protoreflect.EnumKind:
		_, ok = vi.(protoreflect.EnumNumber)
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		_, ok = vi.(int32)
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		_, ok = vi.(uint32)
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		_, ok = vi.(int64)
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		_, ok = vi.(uint64)
	case protoreflect.FloatKind:
		_, ok = vi.(float32)
	case protoreflect.DoubleKind:
		_, ok = vi.(float64)
	case protoreflect.StringKind:
		_, ok = vi.(string)
	case protoreflect.BytesKind:
		_, ok = vi.([]byte)
	}
	if !ok {
		panic(fmt.Errorf("phaser: %v: assigning invalid type %T", fd.FullName(), v.Interface()))
	}
}

// isZero reports whether scalar v is its kind's zero value (-0.0 is not).
func isZero(v protoreflect.Value) bool {
	switch x := v.Interface().(type) {
	case bool:
		return !x
	case int32:
		return x == 0
	case int64:
		return x == 0
	case uint32:
		return x == 0
	case uint64:
		return x == 0
	case float32:
		return math.Float32bits(x) == 0
	case float64:
		return math.Float64bits(x) == 0
	case protoreflect.EnumNumber:
		return x == 0
	case string:
		return x == ""
	case []byte:
		return len(x) == 0
	}
	return false
}

// Mutable returns field fd's message, list or map, creating the message
// (and making it the active member of its oneof) if unpopulated. It panics
// for other fields.
func (x *message) Mutable(fd protoreflect.FieldDescriptor) protoreflect.Value {
	if fd.IsExtension() {
		if fd.Message() == nil && !fd.IsList() {
			panic(fmt.Errorf("phaser: %v: getting mutable reference to non-composite type", fd.FullName()))
		}
		x.writable(fd)
		return x.mutableExtension(fd)
	}
	rf := x.info.field(fd)
	if !rf.Repeated && rf.Kind != Message {
		panic(fmt.Errorf("phaser: %v: getting mutable reference to non-composite type", fd.FullName()))
	}
	x.writable(fd)
	switch {
	case rf.isMap:
		return protoreflect.ValueOfMap(&mapView{m: x.m, rf: rf, mt: x.mt})
	case rf.Repeated:
		return protoreflect.ValueOfList(&listView{m: x.m, rf: rf, mt: x.mt})
	}
	return protoreflect.ValueOfMessage(x.mt.field(rf).view(x.m.MutableField(rf.FieldInfo)))
}

// NewField returns a new value assignable to field fd: a new message in a
// payload of its own, a new list or map (dynamicpb's: Set copies it into
// the payload), or the default value of a scalar.
func (x *message) NewField(fd protoreflect.FieldDescriptor) protoreflect.Value {
	if fd.IsExtension() {
		if xd, ok := fd.(protoreflect.ExtensionTypeDescriptor); ok {
			return xd.Type().New()
		}
		panic(fmt.Errorf("phaser: %v: extension field descriptor does not implement ExtensionTypeDescriptor", fd.FullName()))
	}
	rf := x.info.field(fd)
	switch {
	case rf.Repeated:
		return dynamicpb.NewMessage(x.info.md).NewField(rf.fd)
	case rf.Kind == Message:
		return protoreflect.ValueOfMessage(x.mt.field(rf).newIn(x.m.p))
	}
	return defaultValue(rf.fd)
}

// WhichOneof returns the populated field of oneof od, or nil.
func (x *message) WhichOneof(od protoreflect.OneofDescriptor) protoreflect.FieldDescriptor {
	fields := od.Fields()
	if fields.Len() == 0 {
		return nil
	}
	rf := x.info.field(fields.Get(0))
	if rf.Union == nil {
		return nil
	}
	n := x.m.WhichOneof(rf.Union)
	if n == 0 {
		return nil
	}
	for _, f := range rf.Union.Members {
		if f.Number == n {
			return x.info.field(f.Desc).fd
		}
	}
	return nil
}

// GetUnknown returns the unknown fields the payload keeps for the message
// (fields its type does not declare, extensions this program does not
// declare, known fields that came with another wire type), as they will be
// marshaled; declared extensions are fields of the view (reflect_ext.go).
// The slice aliases the payload, its capacity clipped so that an append
// copies.
func (x *message) GetUnknown() protoreflect.RawFields {
	if x.hasExtensions() {
		_, _, rest := x.extensions()
		return protoreflect.RawFields(slices.Clip(rest))
	}
	return protoreflect.RawFields(slices.Clip(x.m.UnknownFields()))
}

// SetUnknown replaces the unknown fields the payload keeps for the
// message; a full fixed buffer records ErrFull in the payload.
func (x *message) SetUnknown(raw protoreflect.RawFields) {
	if len(raw) == 0 && len(x.m.UnknownFields()) == 0 {
		return
	}
	x.writable(nil)
	if x.hasExtensions() {
		// The declared extensions stay: they are fields of the view.
		if exts := x.extensionBytes(); len(exts) > 0 {
			raw = append(slices.Clip(raw), exts...)
		}
	}
	x.m.SetUnknownFields(raw)
}

// ErrNotStored is wrapped by the error a payload records when a write
// through reflection gave it something the Phaser layout has no place for
// (extensions set as fields, an Any of a type the runtime does not
// know): the value is dropped, the payload's Err reports it, and so does
// proto.CheckInitialized (which protojson.Unmarshal, prototext.Unmarshal,
// proto.Unmarshal and proto.Marshal call).
var ErrNotStored = errors.New("not stored in the Phaser payload")

// notStored records that what was not stored.
func (p *Payload) notStored(what string) {
	if p.err == nil {
		p.err = fmt.Errorf("phaser: %s: %w", what, ErrNotStored)
	}
}

// copyInto replaces the content of dst, a message of mt's type, with that
// of src, a message of the same full name.
func copyInto(dst Msg, mt *MessageType, src protoreflect.Message) {
	t := mt.t
	if !dst.IsPresent() {
		return // the buffer is full (recorded) or the message could not be made
	}
	if s, ok := src.(*message); ok {
		sm := s.m
		if sm.p == dst.p && sm.off == dst.off {
			return
		}
		if sm.p == dst.p && sm.p != nil {
			// src may lie inside dst, which CopyFrom clears first: copy
			// from a snapshot.
			sm = Clone(sm, s.mt.t)
		}
		dst.CopyFrom(t, sm.As(t))
		return
	}
	dst.Clear(t)
	mergeFrom(mt.view(dst), src)
}

// mergeFrom merges src, a message of another implementation, into dst, as
// proto.Merge does: through dst's Set and Mutable.
func mergeFrom(dst, src protoreflect.Message) {
	gproto.Merge(dst.Interface(), src.Interface())
}
