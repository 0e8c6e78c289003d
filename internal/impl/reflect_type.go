package impl

import (
	"fmt"
	"sync/atomic"

	"google.golang.org/protobuf/reflect/protoreflect"
)

// Protobuf reflection over payloads: a protoreflect.Message whose values
// are read from, and written to, the payload on demand (reflect*.go). This
// file holds the per-Type data the views share and their MessageTypes.

// MessageType is the protoreflect.MessageType of the messages of a Type as
// one kind of handle: a generated handle type (whose values its messages'
// Interface returns) or runtime.Msg, the dynamic handle.
type MessageType struct {
	info *reflectInfo
	wrap func(Msg) protoreflect.ProtoMessage // the generated handle; nil for runtime.Msg
}

// reflectInfo is what the views of a Type's messages look fields up in,
// computed once per Type (its ReflectPlan).
type reflectInfo struct {
	t       *Type
	fields  []rfield // in declaration order, as Range visits them
	byIndex []*rfield
	dynamic MessageType
	gen     atomic.Pointer[MessageType]
	// walk: CheckInitialized must visit messages of this type (it has
	// required fields, is an Any, or reaches a type that does).
	walk bool
}

// rfield is a field as the views see it.
type rfield struct {
	*FieldInfo
	fd       protoreflect.FieldDescriptor // the field in t's descriptor
	implicit bool                         // a scalar, string or bytes field without presence (proto3)
	isMap    bool
	required bool
	key, val *rfield // of a map field: its entry type's fields
}

// reflectInfoOf returns t's reflection data.
func reflectInfoOf(t *Type) *reflectInfo {
	if p := t.Plan(ReflectPlan); p != nil {
		return p.(*reflectInfo)
	}
	return t.StorePlan(ReflectPlan, newReflectInfo(t)).(*reflectInfo)
}

func newReflectInfo(t *Type) *reflectInfo {
	info := &reflectInfo{t: t}
	info.dynamic.info = info
	fields := t.desc.Fields()
	info.byIndex = make([]*rfield, fields.Len())
	info.fields = make([]rfield, 0, len(t.fields))
	for _, f := range t.fields {
		fd := fields.ByNumber(protoreflect.FieldNumber(f.Number))
		if fd == nil {
			continue
		}
		info.fields = append(info.fields, rfield{
			FieldInfo: f,
			fd:        fd,
			implicit:  !fd.HasPresence() && !f.Repeated && f.Kind != Message,
			isMap:     fd.IsMap(),
			required:  fd.Cardinality() == protoreflect.Required,
		})
	}
	for i := range info.fields {
		rf := &info.fields[i]
		info.byIndex[rf.fd.Index()] = rf
		if rf.isMap {
			entry := reflectInfoOf(rf.Type)
			rf.key, rf.val = entry.field(rf.fd.MapKey()), entry.field(rf.fd.MapValue())
		}
	}
	info.walk = needsWalk(t, map[*Type]bool{})
	return info
}

// needsWalk reports whether CheckInitialized must visit messages of type t.
func needsWalk(t *Type, seen map[*Type]bool) bool {
	if t.isAny {
		return true
	}
	if seen[t] {
		return false
	}
	seen[t] = true
	for _, f := range t.fields {
		if f.Desc.Cardinality() == protoreflect.Required {
			return true
		}
		if f.Kind == Message && needsWalk(f.Type, seen) {
			return true
		}
	}
	return false
}

// field returns the field fd describes, which must be a field of the
// type's message: protoreflect panics for a descriptor of another message,
// and so does field. fd may come from another descriptor of the same
// message (protobuf-go's generated one, say): it is matched by number and
// full name.
func (info *reflectInfo) field(fd protoreflect.FieldDescriptor) *rfield {
	if i := fd.Index(); uint(i) < uint(len(info.byIndex)) {
		if rf := info.byIndex[i]; rf != nil && rf.fd == fd {
			return rf
		}
	}
	if f := info.t.FieldOf(fd); f != nil && !fd.IsExtension() {
		for i := range info.fields {
			if info.fields[i].FieldInfo == f {
				return &info.fields[i]
			}
		}
	}
	panic(fmt.Errorf("phaser: %v: field descriptor does not belong to message %s", fd.FullName(), info.t.name))
}

// DynamicType returns the MessageType of t's messages as runtime.Msg
// handles.
func DynamicType(t *Type) *MessageType { return &reflectInfoOf(t).dynamic }

// RegisterHandleType returns the MessageType of t's messages as the
// generated handle type that wrap makes, and makes it the type of t's
// messages that views of other generated handles reach (a field of type
// t). Generated code calls it once per message type; the first
// registration of a Type wins.
func RegisterHandleType(t *Type, wrap func(Msg) protoreflect.ProtoMessage) *MessageType {
	info := reflectInfoOf(t)
	mt := &MessageType{info: info, wrap: wrap}
	if !info.gen.CompareAndSwap(nil, mt) {
		return info.gen.Load()
	}
	return mt
}

// FindMessageType returns the MessageType of the messages of the
// protobuf-frontend Type named name: its generated handle type if one is
// registered, else the dynamic one; nil if there is no such Type.
func FindMessageType(name protoreflect.FullName) *MessageType {
	t := FindType(name)
	if t == nil {
		return nil
	}
	info := reflectInfoOf(t)
	if mt := info.gen.Load(); mt != nil {
		return mt
	}
	return &info.dynamic
}

// dynamicHandle makes the runtime.Msg of a Dynamic; package runtime sets
// it (it cannot be imported from here).
var dynamicHandle func(Dynamic) protoreflect.ProtoMessage

// SetDynamicHandle sets the function that makes runtime.Msg handles, which
// the views of dynamic messages return from Interface.
func SetDynamicHandle(f func(Dynamic) protoreflect.ProtoMessage) { dynamicHandle = f }

// Type returns the runtime Type of the messages.
func (mt *MessageType) Type() *Type { return mt.info.t }

// Descriptor returns the message descriptor.
func (mt *MessageType) Descriptor() protoreflect.MessageDescriptor { return mt.info.t.desc }

// New returns a new, empty message in a new owned payload (Phaser 3
// format).
func (mt *MessageType) New() protoreflect.Message {
	return mt.Message(New(mt.info.t, reflectOptions(nil)))
}

// Zero returns an invalid (empty, read-only) message.
func (mt *MessageType) Zero() protoreflect.Message { return mt.Message(Msg{}) }

// Message returns the view of m, a message of the type.
func (mt *MessageType) Message(m Msg) protoreflect.Message { return &message{m: m, mt: mt} }

// Handle returns m as the type's handle: the generated handle, or a
// runtime.Msg.
func (mt *MessageType) Handle(m Msg) protoreflect.ProtoMessage {
	if mt.wrap != nil {
		return mt.wrap(m)
	}
	return dynamicHandle(Dynamic{m, mt.info.t})
}

// of returns the MessageType of messages of type t that views of mt's
// messages reach: a generated handle type if mt is one and t has one, else
// the dynamic type.
func (mt *MessageType) of(t *Type) *MessageType {
	info := reflectInfoOf(t)
	if mt.wrap != nil {
		if g := info.gen.Load(); g != nil {
			return g
		}
	}
	return &info.dynamic
}

// reflectOptions are the options of a payload that reflection creates (New,
// NewField, Clone): the format of p, if any, and a small first buffer,
// since such payloads are often many and small (one per Any that protojson
// decodes, say).
func reflectOptions(p *Payload) Options {
	o := Options{InitialSize: 512}
	if p != nil {
		o.Version = p.version
	}
	return o
}

// Clone returns a copy of m, a message of type t, in a new owned payload
// of m's format. Cloning an absent message gives an absent one (the zero
// Msg).
func Clone(m Msg, t *Type) Msg {
	if !m.IsPresent() {
		return Msg{}
	}
	o := reflectOptions(m.p)
	if n := len(m.p.mem); n > o.InitialSize {
		o.InitialSize = n
	}
	c := New(t, o)
	c.CopyFrom(t, m.As(t))
	return c
}
