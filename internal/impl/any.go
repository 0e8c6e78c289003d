package impl

import (
	"bytes"
	"strings"
	"sync"

	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/anypb"

	"github.com/phaser-go/phaser/payloadbuffer"
)

// google.protobuf.Any (spec 5.8): an AnyMessage {table, type_url, value}
// whose value string holds the embedded Phaser message.

// AnyURLPrefix is the type URL prefix C++ Phaser writes.
const AnyURLPrefix = "type.googleapis.com/"

var (
	anyTypeURL = Field{Number: 1, Offset: 4}
	anyValue   = Field{Number: 2, Offset: 8}
)

// Any is a handle on a google.protobuf.Any message: a type URL and an
// embedded Phaser message.
type Any struct{ m Msg }

// AnyOf wraps a handle on an Any message.
func AnyOf(m Msg) Any { return Any{m} }

// AnyType returns the runtime Type of google.protobuf.Any.
func AnyType() *Type { return anyType() }

var anyType = sync.OnceValue(func() *Type {
	t, err := TypeOf(anyDescriptor)
	if err != nil {
		panic(err) // the Any layout is fixed
	}
	return t
})

// Msg returns the untyped handle.
func (a Any) Msg() Msg { return a.m }

// IsPresent reports whether a refers to a message in a payload.
func (a Any) IsPresent() bool { return a.m.IsPresent() }

// TypeURL returns the type URL.
func (a Any) TypeURL() string { return a.m.AnyTypeURL() }

// TypeName returns the message name in the type URL (after the last /).
func (a Any) TypeName() string { return a.m.AnyTypeName() }

// Is reports whether a holds a message of type t.
func (a Any) Is(t *Type) bool { return a.m.AnyIs(t) }

// Value returns the embedded message as type t, without checking the type
// URL (C++ As<T>); use Is first.
func (a Any) Value(t *Type) Msg { return a.m.AnyValue(t) }

// Mutable makes a hold a new, empty message of type t and returns it.
func (a Any) Mutable(t *Type) Msg { return a.m.MutableAny(t) }

// AnyTypeURL returns the type URL of the Any message a.
func (a Msg) AnyTypeURL() string { return string(a.StringBytes(anyTypeURL)) }

// AnyTypeName returns the message name in a's type URL (after the last /).
func (a Msg) AnyTypeName() string {
	u := a.AnyTypeURL()
	return u[strings.LastIndexByte(u, '/')+1:]
}

// AnyIs reports whether the Any message a holds a message of type t.
func (a Msg) AnyIs(t *Type) bool {
	u := a.StringBytes(anyTypeURL) // compared without copying: no allocation
	return string(u[bytes.LastIndexByte(u, '/')+1:]) == t.name
}

// AnyValue returns the message of type t embedded in the Any message a, or
// a default message if a holds no value.
func (a Msg) AnyValue(t *Type) Msg {
	o, ok := a.at(anyValue, 4)
	if !ok {
		return Msg{p: a.p}
	}
	s := le.Uint32(a.p.mem[o:])
	if s == 0 || uint64(s)+8 > uint64(len(a.p.mem)) {
		return Msg{p: a.p}
	}
	return a.p.bind(s+4, t)
}

// MutableAny makes the Any message a hold a new, empty message of type t
// and returns it (C++ MutableAny<T>).
func (a Msg) MutableAny(t *Type) Msg {
	o, ok := a.at(anyTypeURL, 8)
	if !ok || !a.writable() {
		return Msg{p: a.p}
	}
	a.releaseAnyValue()
	if !a.p.buf.SetString(o, AnyURLPrefix+t.name) {
		a.p.fail()
		return Msg{p: a.p}
	}
	flags := payloadbuffer.Zero | payloadbuffer.Small
	d := a.p.buf.AllocateString(a.off+anyValue.Offset, int(t.BinarySize(a.p.version)), flags)
	a.p.sync()
	if d == 0 {
		a.p.fail()
		return Msg{p: a.p}
	}
	if !a.p.installMetadata(d, t) {
		return Msg{p: a.p}
	}
	return Msg{p: a.p, off: d, acc: a.p.accessFor(t)}
}

var anyDescriptor = (&anypb.Any{}).ProtoReflect().Descriptor()

// releaseAnyValue clears the message embedded in the Any message a, before
// its value string is freed or replaced: the value block holds the
// embedded message's own fields, but its strings, lists and nested
// messages are blocks of their own, which freeing the value alone leaves
// allocated (and, in a payload that scrubs, still holding what the program
// deleted). C++ 2.1 frees the value alone, so a format-2 payload that does
// not scrub keeps its bytes. A value of a type this process does not know
// is left as it is.
func (a Msg) releaseAnyValue() {
	if a.p.version != payloadbuffer.V3 && !a.p.buf.Scrubs() {
		return
	}
	if !a.HasString(anyValue) {
		return
	}
	t := FindType(protoreflect.FullName(a.AnyTypeName()))
	if t == nil {
		return
	}
	if v := a.AnyValue(t); v.IsPresent() && a.releasable(v.off) {
		v.Clear(t)
	}
}

// ClearAnyValue clears and frees the message of type t embedded in the Any
// message a; its type URL stays.
func (a Msg) ClearAnyValue(t *Type) {
	if !a.writable() {
		return
	}
	if v := a.AnyValue(t); v.IsPresent() {
		v.Clear(t)
	}
	a.ClearString(anyValue)
}
