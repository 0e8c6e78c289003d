package impl

import (
	"fmt"
	"sync"
	"sync/atomic"

	gproto "google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
)

// Protobuf reflection over payloads: a protoreflect.Message whose values
// are read from, and written to, the payload on demand (reflect*.go). This
// file holds the data the views share and their MessageTypes.
//
// A view reports a descriptor, and protobuf-go compares descriptors by
// identity (proto.Equal of two messages of different descriptors of the
// same message is false). So a root view reports protobuf-go's descriptor
// of its message when protobuf-go's registry holds the same .proto file
// (the program links protoc-gen-go's output too), else the descriptor the
// Type was made from; a nested view reports its field's message
// descriptor, as protobuf-go's own nested messages do.

// MessageType is the protoreflect.MessageType of the messages of a Type as
// one kind of handle: a generated handle type (whose values its messages'
// Interface returns) or runtime.Msg, the dynamic handle.
type MessageType struct {
	t    *Type
	wrap func(Msg) protoreflect.ProtoMessage // the generated handle; nil for runtime.Msg
	info atomic.Pointer[reflectInfo]         // found on first use: see rootInfo
}

// reflectInfo is what the views of the messages of one Type and one
// descriptor look their fields up in, computed once.
type reflectInfo struct {
	t       *Type
	md      protoreflect.MessageDescriptor
	fields  []*rfield // in declaration order, as Range visits them
	byIndex []*rfield // by index in md.Fields()
	dynamic MessageType
	gen     atomic.Pointer[MessageType] // the generated handle type, once asked for
	// walk: CheckInitialized must visit messages of this type (it has
	// required fields, is an Any, or reaches a type that does).
	walk bool
}

// rfield is a field as the views see it.
type rfield struct {
	*FieldInfo
	fd       protoreflect.FieldDescriptor // the field in the info's descriptor
	implicit bool                         // a scalar, string or bytes field without presence (proto3)
	isMap    bool
	required bool
	key, val *rfield                     // of a map field: its entry's fields
	nested   atomic.Pointer[reflectInfo] // of a message field: its message's, once asked for
}

type infoKey struct {
	t  *Type
	md protoreflect.MessageDescriptor
}

// infos holds every reflectInfo, by Type and descriptor.
var infos sync.Map // infoKey -> *reflectInfo

// infoFor returns the reflectInfo of messages of type t described by md.
func infoFor(t *Type, md protoreflect.MessageDescriptor) *reflectInfo {
	k := infoKey{t, md}
	if v, ok := infos.Load(k); ok {
		return v.(*reflectInfo)
	}
	v, _ := infos.LoadOrStore(k, newReflectInfo(t, md))
	return v.(*reflectInfo)
}

// rootInfo returns the reflectInfo of root views of type t (see the file
// comment for their descriptor).
func rootInfo(t *Type) *reflectInfo {
	if p := t.Plan(ReflectPlan); p != nil {
		return p.(*reflectInfo)
	}
	return t.StorePlan(ReflectPlan, infoFor(t, rootDescriptor(t))).(*reflectInfo)
}

// rootDescriptor returns protobuf-go's descriptor of t's message if its
// registry holds the file t's descriptor is from, else t's descriptor.
func rootDescriptor(t *Type) protoreflect.MessageDescriptor {
	d, err := protoregistry.GlobalFiles.FindDescriptorByName(protoreflect.FullName(t.name))
	if err != nil {
		return t.desc
	}
	md, ok := d.(protoreflect.MessageDescriptor)
	if !ok || md == t.desc || !sameFile(md.ParentFile(), t.desc.ParentFile()) {
		return t.desc
	}
	return md
}

var sameFiles sync.Map // [2]protoreflect.FileDescriptor -> bool

// sameFile reports whether a and b describe the same .proto file.
func sameFile(a, b protoreflect.FileDescriptor) bool {
	k := [2]protoreflect.FileDescriptor{a, b}
	if v, ok := sameFiles.Load(k); ok {
		return v.(bool)
	}
	same := a.Path() == b.Path() && gproto.Equal(protodesc.ToFileDescriptorProto(a), protodesc.ToFileDescriptorProto(b))
	sameFiles.Store(k, same)
	return same
}

func newReflectInfo(t *Type, md protoreflect.MessageDescriptor) *reflectInfo {
	info := &reflectInfo{t: t, md: md}
	info.dynamic.t = t
	info.dynamic.info.Store(info)
	fields := md.Fields()
	info.byIndex = make([]*rfield, fields.Len())
	for _, f := range t.fields {
		fd := fields.ByNumber(protoreflect.FieldNumber(f.Number))
		if fd == nil || fd.Name() != f.Desc.Name() {
			continue
		}
		rf := &rfield{
			FieldInfo: f,
			fd:        fd,
			implicit:  !fd.HasPresence() && !f.Repeated && f.Kind != Message,
			isMap:     fd.IsMap(),
			required:  fd.Cardinality() == protoreflect.Required,
		}
		info.fields = append(info.fields, rf)
		info.byIndex[fd.Index()] = rf
		if rf.isMap {
			entry := rf.nestedInfo()
			rf.key, rf.val = entry.field(fd.MapKey()), entry.field(fd.MapValue())
		}
	}
	info.walk = needsWalk(t, map[*Type]bool{})
	return info
}

// nestedInfo returns the reflectInfo of the messages of message field rf.
func (rf *rfield) nestedInfo() *reflectInfo {
	if i := rf.nested.Load(); i != nil {
		return i
	}
	i := infoFor(rf.Type, rf.fd.Message())
	rf.nested.Store(i)
	return i
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
// info's message: protoreflect panics for a descriptor of another message,
// and so does field. fd may come from another descriptor of the same
// message (protobuf-go's generated one, say): it is matched by number and
// full name.
func (info *reflectInfo) field(fd protoreflect.FieldDescriptor) *rfield {
	if i := fd.Index(); uint(i) < uint(len(info.byIndex)) {
		if rf := info.byIndex[i]; rf != nil && rf.fd == fd {
			return rf
		}
	}
	if !fd.IsExtension() {
		for _, rf := range info.fields {
			if rf.Number == uint32(fd.Number()) && rf.fd.FullName() == fd.FullName() {
				return rf
			}
		}
	}
	panic(fmt.Errorf("phaser: %v: field descriptor does not belong to message %s", fd.FullName(), info.md.FullName()))
}

// generated returns the MessageType of the info's messages as their
// generated handle type, or nil if none is registered.
func (info *reflectInfo) generated() *MessageType {
	if mt := info.gen.Load(); mt != nil {
		return mt
	}
	wrap, _ := info.t.Plan(HandlePlan).(func(Msg) protoreflect.ProtoMessage)
	if wrap == nil {
		return nil
	}
	mt := &MessageType{t: info.t, wrap: wrap}
	mt.info.Store(info)
	if !info.gen.CompareAndSwap(nil, mt) {
		return info.gen.Load()
	}
	return mt
}

// DynamicType returns the MessageType of t's messages as runtime.Msg
// handles.
func DynamicType(t *Type) *MessageType { return &rootInfo(t).dynamic }

// RegisterHandleType returns the MessageType of t's messages as the
// generated handle type that wrap makes, and makes it the type of t's
// messages that views of other generated handles reach (a field of type
// t). Generated code calls it once per message type, in a package
// variable; the first registration of a Type wins.
func RegisterHandleType(t *Type, wrap func(Msg) protoreflect.ProtoMessage) *MessageType {
	if w, _ := t.StorePlan(HandlePlan, wrap).(func(Msg) protoreflect.ProtoMessage); w != nil {
		wrap = w
	}
	// The descriptor is chosen on first use, once every package (and
	// protobuf-go's registrations) is initialized.
	return &MessageType{t: t, wrap: wrap}
}

// FindMessageType returns the MessageType of the messages of the
// protobuf-frontend Type named name: its generated handle type if one is
// registered, else the dynamic one; nil if there is no such Type.
func FindMessageType(name protoreflect.FullName) *MessageType {
	t := FindType(name)
	if t == nil {
		return nil
	}
	info := rootInfo(t)
	if mt := info.generated(); mt != nil {
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

// reflectInfo returns the type's reflectInfo.
func (mt *MessageType) reflectInfo() *reflectInfo {
	if i := mt.info.Load(); i != nil {
		return i
	}
	i := rootInfo(mt.t)
	mt.info.Store(i)
	return i
}

// Type returns the runtime Type of the messages.
func (mt *MessageType) Type() *Type { return mt.t }

// Descriptor returns the message descriptor.
func (mt *MessageType) Descriptor() protoreflect.MessageDescriptor { return mt.reflectInfo().md }

// New returns a new, empty message in a new owned payload (Phaser 3
// format).
func (mt *MessageType) New() protoreflect.Message { return mt.newIn(nil) }

// Zero returns an invalid (empty, read-only) message.
func (mt *MessageType) Zero() protoreflect.Message { return mt.view(Msg{}) }

// Message returns the view of m, a message of the type. The messages of
// a payload this process did not lay out (received bytes, a payload
// continued with Open) are walked first, once per view, as the walks of
// ToProto and CopyFrom are bounded: a payload whose offsets are shared or
// cyclic, or that nests deeper than 100 messages, gives a view that reads
// as an absent message and whose CheckInitialized (which protojson and prototext call)
// says why, so that no traversal of a hostile payload explodes or recurses
// without end. Hold the view rather than call ProtoReflect for each read
// of such a payload.
func (mt *MessageType) Message(m Msg) protoreflect.Message {
	v := mt.view(m)
	if m.off != 0 && m.p.root == nil {
		if err := m.bounded(mt.t, newWalk(m)); err != nil {
			v.m, v.extra = Msg{p: m.p}, &viewExtra{err: err}
		}
	}
	return v
}

// view returns the view of m, a message of the type, reached from another
// view (or made here): not walked again.
func (mt *MessageType) view(m Msg) *message {
	return &message{m: m, mt: mt, info: mt.reflectInfo()}
}

// readView is view for a nested message read through Get: an absent one is
// the invalid message (the zero handle), which panics on modification as
// protobuf-go's unpopulated messages do, where Mutable's absent message (one
// a full buffer or corrupt bytes could not make) drops writes as the
// engine's accessors do (readOnlyPayload).
func (mt *MessageType) readView(m Msg) *message {
	if m.off == 0 {
		m = Msg{}
	}
	return mt.view(m)
}

// newIn returns a new message of the type in a new owned payload of the
// format of p (Phaser 3 if p is nil).
func (mt *MessageType) newIn(p *Payload) protoreflect.Message {
	return mt.view(New(mt.t, reflectOptions(p)))
}

// Handle returns m as the type's handle: the generated handle, or a
// runtime.Msg.
func (mt *MessageType) Handle(m Msg) protoreflect.ProtoMessage {
	if mt.wrap != nil {
		return mt.wrap(m)
	}
	return dynamicHandle(Dynamic{m, mt.t})
}

// field returns the MessageType of the messages of message field rf of
// mt's messages: a generated handle type if mt is one and the field's type
// has one, else the dynamic type.
func (mt *MessageType) field(rf *rfield) *MessageType {
	info := rf.nestedInfo()
	if mt.wrap != nil {
		if g := info.generated(); g != nil {
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
