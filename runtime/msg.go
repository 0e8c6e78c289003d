package runtime

import (
	"fmt"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/phaser-go/phaser/internal/impl"
)

// Msg is an untyped handle on a message in a payload: its Type, the
// payload and the message's offset, never the field values. It is the
// dynamic view of a message, for code that knows the message only by its
// descriptor (tools, bridges, the wire formats of packages proto and ros):
// fields are named by their protoreflect.FieldDescriptor, values are
// protoreflect.Values. Generated handles give theirs with Msg, and turn one
// back into a typed handle with XOf.
//
// The zero Msg, and a handle on an absent nested message, read every field
// as its default and store no writes: a write through one is reported by
// Failed and Err (ErrNoMessage). Passing a descriptor that is not a
// field of the message's type panics, as protoreflect does.
type Msg impl.Dynamic

func (m Msg) dyn() impl.Dynamic { return impl.Dynamic(m) }

// field returns m's field of descriptor fd.
func (m Msg) field(fd protoreflect.FieldDescriptor) *impl.FieldInfo {
	t := m.dyn().Type()
	if t == nil {
		panic(fmt.Sprintf("phaser: field %s of the zero Msg", fd.FullName()))
	}
	f := t.FieldOf(fd)
	if f == nil {
		panic(fmt.Sprintf("phaser: %s is not a field of %s", fd.FullName(), t.Name()))
	}
	return f
}

// nested returns the handle m of the type of message field f.
func nested(m impl.Msg, f *impl.FieldInfo) Msg { return Msg(impl.DynamicOf(m, f.Type)) }

// Type returns the message's type (nil for the zero Msg).
func (m Msg) Type() *Type { return (*Type)(m.dyn().Type()) }

// IsPresent reports whether m refers to a message in a payload.
func (m Msg) IsPresent() bool { return m.dyn().Msg().IsPresent() }

// Payload returns the payload the message lives in (nil for the zero Msg).
func (m Msg) Payload() *Payload { return (*Payload)(m.dyn().Msg().Payload()) }

// Bytes returns the bytes of the payload the message lives in, as a sender
// transmits them (nil for the zero Msg).
func (m Msg) Bytes() []byte { return m.dyn().Msg().PayloadBytes() }

// Failed reports whether a write was not stored: it did not fit in the
// message's fixed buffer, or it had no message or field to go to (Err says
// which). The zero Msg stores nothing: it reports true.
func (m Msg) Failed() bool { return m.dyn().Msg().Failed() }

// Err returns the first error a write to the payload reported, or nil
// (ErrNoMessage for the zero Msg, which has no payload).
func (m Msg) Err() error { return m.dyn().Msg().Err() }

// Clear clears every field of the message.
func (m Msg) Clear() {
	if t := m.dyn().Type(); t != nil {
		m.dyn().Msg().Clear(t)
	}
}

// CopyFrom replaces the content of m with that of src, a message of the
// same full name that may live in another payload (and be laid out by the
// other frontend or another version of the .proto). It reports false if
// m's buffer filled up or src is of another message type.
func (m Msg) CopyFrom(src Msg) bool {
	t := m.dyn().Type()
	if t == nil || src.dyn().Type() == nil || src.dyn().Type().Name() != t.Name() {
		return false
	}
	return m.dyn().Msg().CopyFrom(t, src.dyn().Msg().As(t))
}

// ToProto copies the message into a new dynamicpb message with the same
// content (field values, and presence as the payload records it), for
// printing and comparison. Any values are converted through the types
// known to the runtime.
func (m Msg) ToProto() (proto.Message, error) {
	t := m.dyn().Type()
	if t == nil {
		return nil, fmt.Errorf("phaser: ToProto of the zero Msg")
	}
	return m.dyn().Msg().ToProto(t)
}

// Has reports whether field fd is present: a scalar whose presence bit is
// set, a string, bytes or message that is set, the active member of a
// oneof, a repeated field with elements.
func (m Msg) Has(fd protoreflect.FieldDescriptor) bool {
	return m.dyn().Msg().HasField(m.field(fd))
}

// Get returns the value of field fd, as protoreflect.Message.Get does: for
// a singular scalar, enum, string or bytes field its value (a copy of the
// bytes), or its default if absent (proto2 [default = ...], a proto2
// enum's first value); for a message field a protoreflect.Message, for a
// repeated field a protoreflect.List and for a map field a
// protoreflect.Map, each a copy of the field's content (dynamicpb values,
// empty if the field is absent), which later writes to the payload do not
// change. It returns the invalid Value when that copy fails: a received
// payload whose offsets repeat or cycle, an Any of an unregistered type
// (ToProto reports why). Message, Len, Index and IndexMessage read the
// payload without copying.
func (m Msg) Get(fd protoreflect.FieldDescriptor) protoreflect.Value {
	v, err := m.dyn().Msg().FieldValue(m.field(fd), fd)
	if err != nil {
		return protoreflect.Value{}
	}
	return v
}

// Set stores v in field fd, as protoreflect.Message.Set does: a value of a
// singular scalar, enum, string or bytes field (a oneof member becomes the
// active one); a protoreflect.Message of the field's message type, whose
// content is copied into the field (creating it); a protoreflect.List or
// protoreflect.Map, which replaces the elements of a repeated or map field
// (map entries are written in key order). v must be of the field's kind,
// as protoreflect.Message.Set requires; Set panics otherwise. What the
// payload does not store (a full buffer, an Any of an unregistered type)
// is reported by Failed and Err.
func (m Msg) Set(fd protoreflect.FieldDescriptor, v protoreflect.Value) {
	if !m.dyn().Msg().SetFieldValue(m.field(fd), v) {
		panic(fmt.Sprintf("phaser: Set of field %s (%v) with a %T", fd.FullName(), fd.Kind(), v.Interface()))
	}
}

// SetIndex stores v as element i (0 <= i < Len) of repeated scalar, enum,
// string or bytes field fd. It panics if v is not of the field's kind, the
// field is a message or map field, or i is out of range, as
// protoreflect.List.Set does.
func (m Msg) SetIndex(fd protoreflect.FieldDescriptor, i int, v protoreflect.Value) {
	if !m.dyn().Msg().SetElemValue(m.field(fd), i, v) {
		panic(fmt.Sprintf("phaser: SetIndex(%d) of field %s (%v, %d elements) with a %T", i, fd.FullName(), fd.Kind(), m.Len(fd), v.Interface()))
	}
}

// CopyFromProto replaces the content of m with that of src, a protobuf
// message of the same full name (a protobuf-go generated message, a
// dynamicpb message, any protoreflect.Message): the inverse of ToProto,
// without the wire format. An Any's value is decoded into the registered
// Type its type URL names.
func (m Msg) CopyFromProto(src protoreflect.ProtoMessage) error {
	t := m.dyn().Type()
	if t == nil {
		return fmt.Errorf("phaser: CopyFromProto into the zero Msg: %w", ErrNoMessage)
	}
	return m.dyn().Msg().FromProto(t, src.ProtoReflect())
}

// ClearField clears field fd, whatever its kind (a oneof member only if it
// is the active one).
func (m Msg) ClearField(fd protoreflect.FieldDescriptor) { m.dyn().Msg().ClearField(m.field(fd)) }

// WhichOneof returns the active field of oneof od, or nil.
func (m Msg) WhichOneof(od protoreflect.OneofDescriptor) protoreflect.FieldDescriptor {
	for i := range od.Fields().Len() {
		if fd := od.Fields().Get(i); m.Has(fd) {
			return fd
		}
	}
	return nil
}

// Message returns singular message field fd: a handle that reads as the
// default message if the field is absent.
func (m Msg) Message(fd protoreflect.FieldDescriptor) Msg {
	f := m.field(fd)
	return nested(m.dyn().Msg().MessageField(f), f)
}

// Mutable returns singular message field fd, creating it (and making it
// the active member of its oneof) if absent.
func (m Msg) Mutable(fd protoreflect.FieldDescriptor) Msg {
	f := m.field(fd)
	return nested(m.dyn().Msg().MutableField(f), f)
}

// Len returns the number of elements of repeated or map field fd (a map's
// entries, in insertion order, duplicate keys included).
func (m Msg) Len(fd protoreflect.FieldDescriptor) int { return m.dyn().Msg().LenOf(m.field(fd)) }

// Index returns element i of repeated scalar, enum, string or bytes field
// fd (the default value if i is out of range).
func (m Msg) Index(fd protoreflect.FieldDescriptor, i int) protoreflect.Value {
	return m.dyn().Msg().ElemValue(m.field(fd), i)
}

// IndexMessage returns element i of repeated message or map field fd (a
// map entry is a message with fields key and value).
func (m Msg) IndexMessage(fd protoreflect.FieldDescriptor, i int) Msg {
	f := m.field(fd)
	return nested(m.dyn().Msg().ElemMessage(f.Field, i, f.Type), f)
}

// Append appends v to repeated scalar, enum, string or bytes field fd. v
// must be of the field's kind; Append panics otherwise, and for message
// fields (use AppendMessage).
func (m Msg) Append(fd protoreflect.FieldDescriptor, v protoreflect.Value) {
	if !m.dyn().Msg().AppendValue(m.field(fd), v) {
		panic(fmt.Sprintf("phaser: Append to field %s (%v) of a %T", fd.FullName(), fd.Kind(), v.Interface()))
	}
}

// AppendMessage appends a new, empty element to repeated message or map
// field fd and returns it.
func (m Msg) AppendMessage(fd protoreflect.FieldDescriptor) Msg {
	f := m.field(fd)
	return nested(m.dyn().Msg().AddMessage(f.Field, f.Type), f)
}

// Allocate replaces the elements of repeated message field fd with n new,
// empty messages made in one allocation (C++ allocate_x(n)). It panics for
// other fields.
func (m Msg) Allocate(fd protoreflect.FieldDescriptor, n int) {
	f := m.field(fd)
	if f.Kind != impl.Message || !f.Repeated {
		panic(fmt.Sprintf("phaser: Allocate of field %s, not a repeated message", fd.FullName()))
	}
	m.dyn().Msg().AllocateMessages(f.Field, n, f.Type)
}
