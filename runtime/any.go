package runtime

import (
	"iter"

	"github.com/phaser-go/phaser/internal/impl"
)

// AnyURLPrefix is the type URL prefix C++ Phaser writes.
const AnyURLPrefix = impl.AnyURLPrefix

// Any is a handle on a google.protobuf.Any message in a payload: a type URL
// and an embedded Phaser message (not, as in protobuf, its serialization).
// Generated handles return an Any for fields of type google.protobuf.Any;
// each generated message type X has XFromAny and MutableAnyX for it.
type Any impl.Any

// AnyOf returns the Any handle of m, a message of type google.protobuf.Any
// (the zero Any if m is of another type).
func AnyOf(m Msg) Any {
	if t := m.dyn().Type(); t == nil || !t.IsAny() {
		return Any{}
	}
	return Any(impl.AnyOf(m.dyn().Msg()))
}

func (a Any) msg() impl.Msg { return impl.Any(a).Msg() }

// Msg returns the untyped handle of the Any message.
func (a Any) Msg() Msg { return Msg(impl.DynamicOf(a.msg(), impl.AnyType())) }

// IsPresent reports whether a refers to a message in a payload.
func (a Any) IsPresent() bool { return a.msg().IsPresent() }

// TypeURL returns the type URL.
func (a Any) TypeURL() string { return a.msg().AnyTypeURL() }

// TypeName returns the message name in the type URL (after the last /).
func (a Any) TypeName() string { return a.msg().AnyTypeName() }

// Is reports whether a holds a message of type t.
func (a Any) Is(t *Type) bool { return a.msg().AnyIs(t.impl()) }

// Value returns the embedded message as type t, without checking the type
// URL (C++ As<T>); use Is first. An Any that holds no value gives the
// default message.
func (a Any) Value(t *Type) Msg { return Msg(impl.DynamicOf(a.msg().AnyValue(t.impl()), t.impl())) }

// Mutable makes a hold a new, empty message of type t and returns it.
func (a Any) Mutable(t *Type) Msg {
	return Msg(impl.DynamicOf(a.msg().MutableAny(t.impl()), t.impl()))
}

// AnyList is a handle on a repeated google.protobuf.Any field: the message
// handle and the field, never the elements.
type AnyList impl.MessageList

func (l AnyList) l() impl.MessageList { return impl.MessageList(l) }

// Len returns the number of elements.
func (l AnyList) Len() int { return l.l().Len() }

// At returns element i (an absent Any if out of range).
func (l AnyList) At(i int) Any { return Any(impl.AnyOf(l.l().At(i))) }

// Mutable returns element i, growing the list and creating it as needed.
func (l AnyList) Mutable(i int) Any { return Any(impl.AnyOf(l.l().Mutable(i))) }

// Append adds a new, empty element and returns it.
func (l AnyList) Append() Any { return Any(impl.AnyOf(l.l().Append())) }

// Reserve makes room for n elements.
func (l AnyList) Reserve(n int) { l.l().Reserve(n) }

// Resize sets the length to n; new elements are absent until Mutable.
func (l AnyList) Resize(n int) { l.l().Resize(n) }

// Clear empties the list, clearing and freeing every element.
func (l AnyList) Clear() { l.l().Clear() }

// All iterates over the elements.
func (l AnyList) All() iter.Seq2[int, Any] {
	return func(yield func(int, Any) bool) {
		l.l().All()(func(i int, m impl.Msg) bool { return yield(i, Any(impl.AnyOf(m))) })
	}
}
