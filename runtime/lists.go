package runtime

import (
	"iter"
	"math"
	"slices"
)

// Typed handles on repeated fields. Each holds the message handle and the
// field; none holds elements. Generated accessors return them.

// Scalar lists share one implementation per storage size; the element
// conversion is a type parameter constrained to the field's Go type.

// Int32List is a repeated int32, sint32, sfixed32 or enum field.
type Int32List[T ~int32] struct {
	m Msg
	f Field
}

// NewInt32List returns the list handle of field f of m.
func NewInt32List[T ~int32](m Msg, f Field) Int32List[T] { return Int32List[T]{m, f} }

// Len returns the number of elements.
func (l Int32List[T]) Len() int { return l.m.Len(l.f, 4) }

// At returns element i (0 if out of range).
func (l Int32List[T]) At(i int) T { return T(int32(l.m.Elem32(l.f, i))) }

// Set stores v as element i (ignored if out of range).
func (l Int32List[T]) Set(i int, v T) { l.m.SetElem32(l.f, i, uint32(int32(v))) }

// Append adds v at the end.
func (l Int32List[T]) Append(v T) { l.m.Push32(l.f, uint32(int32(v))) }

// Reserve makes room for n elements.
func (l Int32List[T]) Reserve(n int) { l.m.Reserve(l.f, n, 4) }

// Resize sets the length to n; new elements are 0.
func (l Int32List[T]) Resize(n int) { l.m.Resize(l.f, n, 4) }

// Clear empties the list and frees its storage.
func (l Int32List[T]) Clear() { l.m.ClearVector(l.f) }

// AppendTo appends the elements to dst and returns the extended slice,
// resolving and bounds-checking the field once (At does it per element).
func (l Int32List[T]) AppendTo(dst []T) []T {
	dst, out, b := growElems(dst, l.m, l.f, 4)
	for i := range out {
		out[i] = T(int32(le.Uint32(b[4*i:])))
	}
	return dst
}

// All iterates over the elements.
func (l Int32List[T]) All() iter.Seq2[int, T] { return all(l.Len(), l.At) }

// Uint32List is a repeated uint32 or fixed32 field.
type Uint32List struct {
	m Msg
	f Field
}

// NewUint32List returns the list handle of field f of m.
func NewUint32List(m Msg, f Field) Uint32List { return Uint32List{m, f} }

// Len returns the number of elements.
func (l Uint32List) Len() int { return l.m.Len(l.f, 4) }

// At returns element i (0 if out of range).
func (l Uint32List) At(i int) uint32 { return l.m.Elem32(l.f, i) }

// Set stores v as element i (ignored if out of range).
func (l Uint32List) Set(i int, v uint32) { l.m.SetElem32(l.f, i, v) }

// Append adds v at the end.
func (l Uint32List) Append(v uint32) { l.m.Push32(l.f, v) }

// Reserve makes room for n elements.
func (l Uint32List) Reserve(n int) { l.m.Reserve(l.f, n, 4) }

// Resize sets the length to n; new elements are 0.
func (l Uint32List) Resize(n int) { l.m.Resize(l.f, n, 4) }

// Clear empties the list and frees its storage.
func (l Uint32List) Clear() { l.m.ClearVector(l.f) }

// AppendTo appends the elements to dst and returns the extended slice,
// resolving and bounds-checking the field once (At does it per element).
func (l Uint32List) AppendTo(dst []uint32) []uint32 {
	dst, out, b := growElems(dst, l.m, l.f, 4)
	for i := range out {
		out[i] = le.Uint32(b[4*i:])
	}
	return dst
}

// All iterates over the elements.
func (l Uint32List) All() iter.Seq2[int, uint32] { return all(l.Len(), l.At) }

// Int64List is a repeated int64, sint64 or sfixed64 field.
type Int64List struct {
	m Msg
	f Field
}

// NewInt64List returns the list handle of field f of m.
func NewInt64List(m Msg, f Field) Int64List { return Int64List{m, f} }

// Len returns the number of elements.
func (l Int64List) Len() int { return l.m.Len(l.f, 8) }

// At returns element i (0 if out of range).
func (l Int64List) At(i int) int64 { return int64(l.m.Elem64(l.f, i)) }

// Set stores v as element i (ignored if out of range).
func (l Int64List) Set(i int, v int64) { l.m.SetElem64(l.f, i, uint64(v)) }

// Append adds v at the end.
func (l Int64List) Append(v int64) { l.m.Push64(l.f, uint64(v)) }

// Reserve makes room for n elements.
func (l Int64List) Reserve(n int) { l.m.Reserve(l.f, n, 8) }

// Resize sets the length to n; new elements are 0.
func (l Int64List) Resize(n int) { l.m.Resize(l.f, n, 8) }

// Clear empties the list and frees its storage.
func (l Int64List) Clear() { l.m.ClearVector(l.f) }

// AppendTo appends the elements to dst and returns the extended slice,
// resolving and bounds-checking the field once (At does it per element).
func (l Int64List) AppendTo(dst []int64) []int64 {
	dst, out, b := growElems(dst, l.m, l.f, 8)
	for i := range out {
		out[i] = int64(le.Uint64(b[8*i:]))
	}
	return dst
}

// All iterates over the elements.
func (l Int64List) All() iter.Seq2[int, int64] { return all(l.Len(), l.At) }

// Uint64List is a repeated uint64 or fixed64 field.
type Uint64List struct {
	m Msg
	f Field
}

// NewUint64List returns the list handle of field f of m.
func NewUint64List(m Msg, f Field) Uint64List { return Uint64List{m, f} }

// Len returns the number of elements.
func (l Uint64List) Len() int { return l.m.Len(l.f, 8) }

// At returns element i (0 if out of range).
func (l Uint64List) At(i int) uint64 { return l.m.Elem64(l.f, i) }

// Set stores v as element i (ignored if out of range).
func (l Uint64List) Set(i int, v uint64) { l.m.SetElem64(l.f, i, v) }

// Append adds v at the end.
func (l Uint64List) Append(v uint64) { l.m.Push64(l.f, v) }

// Reserve makes room for n elements.
func (l Uint64List) Reserve(n int) { l.m.Reserve(l.f, n, 8) }

// Resize sets the length to n; new elements are 0.
func (l Uint64List) Resize(n int) { l.m.Resize(l.f, n, 8) }

// Clear empties the list and frees its storage.
func (l Uint64List) Clear() { l.m.ClearVector(l.f) }

// AppendTo appends the elements to dst and returns the extended slice,
// resolving and bounds-checking the field once (At does it per element).
func (l Uint64List) AppendTo(dst []uint64) []uint64 {
	dst, out, b := growElems(dst, l.m, l.f, 8)
	for i := range out {
		out[i] = le.Uint64(b[8*i:])
	}
	return dst
}

// All iterates over the elements.
func (l Uint64List) All() iter.Seq2[int, uint64] { return all(l.Len(), l.At) }

// Float32List is a repeated float field.
type Float32List struct {
	m Msg
	f Field
}

// NewFloat32List returns the list handle of field f of m.
func NewFloat32List(m Msg, f Field) Float32List { return Float32List{m, f} }

// Len returns the number of elements.
func (l Float32List) Len() int { return l.m.Len(l.f, 4) }

// At returns element i (0 if out of range).
func (l Float32List) At(i int) float32 { return math.Float32frombits(l.m.Elem32(l.f, i)) }

// Set stores v as element i (ignored if out of range).
func (l Float32List) Set(i int, v float32) { l.m.SetElem32(l.f, i, math.Float32bits(v)) }

// Append adds v at the end.
func (l Float32List) Append(v float32) { l.m.Push32(l.f, math.Float32bits(v)) }

// Reserve makes room for n elements.
func (l Float32List) Reserve(n int) { l.m.Reserve(l.f, n, 4) }

// Resize sets the length to n; new elements are 0.
func (l Float32List) Resize(n int) { l.m.Resize(l.f, n, 4) }

// Clear empties the list and frees its storage.
func (l Float32List) Clear() { l.m.ClearVector(l.f) }

// AppendTo appends the elements to dst and returns the extended slice,
// resolving and bounds-checking the field once (At does it per element).
func (l Float32List) AppendTo(dst []float32) []float32 {
	dst, out, b := growElems(dst, l.m, l.f, 4)
	for i := range out {
		out[i] = math.Float32frombits(le.Uint32(b[4*i:]))
	}
	return dst
}

// All iterates over the elements.
func (l Float32List) All() iter.Seq2[int, float32] { return all(l.Len(), l.At) }

// Float64List is a repeated double field.
type Float64List struct {
	m Msg
	f Field
}

// NewFloat64List returns the list handle of field f of m.
func NewFloat64List(m Msg, f Field) Float64List { return Float64List{m, f} }

// Len returns the number of elements.
func (l Float64List) Len() int { return l.m.Len(l.f, 8) }

// At returns element i (0 if out of range).
func (l Float64List) At(i int) float64 { return math.Float64frombits(l.m.Elem64(l.f, i)) }

// Set stores v as element i (ignored if out of range).
func (l Float64List) Set(i int, v float64) { l.m.SetElem64(l.f, i, math.Float64bits(v)) }

// Append adds v at the end.
func (l Float64List) Append(v float64) { l.m.Push64(l.f, math.Float64bits(v)) }

// Reserve makes room for n elements.
func (l Float64List) Reserve(n int) { l.m.Reserve(l.f, n, 8) }

// Resize sets the length to n; new elements are 0.
func (l Float64List) Resize(n int) { l.m.Resize(l.f, n, 8) }

// Clear empties the list and frees its storage.
func (l Float64List) Clear() { l.m.ClearVector(l.f) }

// AppendTo appends the elements to dst and returns the extended slice,
// resolving and bounds-checking the field once (At does it per element).
func (l Float64List) AppendTo(dst []float64) []float64 {
	dst, out, b := growElems(dst, l.m, l.f, 8)
	for i := range out {
		out[i] = math.Float64frombits(le.Uint64(b[8*i:]))
	}
	return dst
}

// All iterates over the elements.
func (l Float64List) All() iter.Seq2[int, float64] { return all(l.Len(), l.At) }

// BoolList is a repeated bool field.
type BoolList struct {
	m Msg
	f Field
}

// NewBoolList returns the list handle of field f of m.
func NewBoolList(m Msg, f Field) BoolList { return BoolList{m, f} }

// Len returns the number of elements.
func (l BoolList) Len() int { return l.m.Len(l.f, 1) }

// At returns element i (false if out of range).
func (l BoolList) At(i int) bool { return l.m.Elem8(l.f, i) != 0 }

// Set stores v as element i (ignored if out of range).
func (l BoolList) Set(i int, v bool) { l.m.SetElem8(l.f, i, b2u(v)) }

// Append adds v at the end.
func (l BoolList) Append(v bool) { l.m.Push8(l.f, b2u(v)) }

// Reserve makes room for n elements.
func (l BoolList) Reserve(n int) { l.m.Reserve(l.f, n, 1) }

// Resize sets the length to n; new elements are false.
func (l BoolList) Resize(n int) { l.m.Resize(l.f, n, 1) }

// Clear empties the list and frees its storage.
func (l BoolList) Clear() { l.m.ClearVector(l.f) }

// AppendTo appends the elements to dst and returns the extended slice,
// resolving and bounds-checking the field once (At does it per element).
func (l BoolList) AppendTo(dst []bool) []bool {
	dst, out, b := growElems(dst, l.m, l.f, 1)
	for i := range out {
		out[i] = b[i] != 0
	}
	return dst
}

// All iterates over the elements.
func (l BoolList) All() iter.Seq2[int, bool] { return all(l.Len(), l.At) }

func b2u(v bool) uint8 {
	if v {
		return 1
	}
	return 0
}

// StringList is a repeated string or bytes field.
type StringList struct {
	m Msg
	f Field
}

// NewStringList returns the list handle of field f of m.
func NewStringList(m Msg, f Field) StringList { return StringList{m, f} }

// Len returns the number of elements.
func (l StringList) Len() int { return l.m.Len(l.f, 4) }

// At returns a copy of element i ("" if out of range).
func (l StringList) At(i int) string { return string(l.m.ElemString(l.f, i)) }

// AtBytes returns element i without copying; the slice aliases the payload
// and is valid until the element is written or an owned buffer grows.
func (l StringList) AtBytes(i int) []byte { return l.m.ElemString(l.f, i) }

// Set stores s as element i, growing the list if i is past its end.
func (l StringList) Set(i int, s string) { l.m.SetElemString(l.f, i, s) }

// SetBytes stores s as element i; s may alias the payload.
func (l StringList) SetBytes(i int, s []byte) { l.m.SetElemBytes(l.f, i, s) }

// Append adds s at the end.
func (l StringList) Append(s string) { l.m.PushString(l.f, s) }

// AppendBytes adds s at the end; s may alias the payload.
func (l StringList) AppendBytes(s []byte) { l.m.PushBytes(l.f, s) }

// Reserve makes room for n elements.
func (l StringList) Reserve(n int) { l.m.Reserve(l.f, n, 4) }

// Resize sets the length to n; new elements are empty.
func (l StringList) Resize(n int) { l.m.Resize(l.f, n, 4) }

// Clear empties the list and frees its strings.
func (l StringList) Clear() { l.m.ClearStrings(l.f) }

// All iterates over the elements without copying them.
func (l StringList) All() iter.Seq2[int, []byte] { return all(l.Len(), l.AtBytes) }

// MessageList is a repeated message field; generated code wraps it in a
// list type that returns its own message handles.
type MessageList struct {
	m Msg
	f Field
	t *Type
}

// NewMessageList returns the list handle of field f (elements of type t).
func NewMessageList(m Msg, f Field, t *Type) MessageList { return MessageList{m, f, t} }

// Len returns the number of elements.
func (l MessageList) Len() int { return l.m.MessagesLen(l.f) }

// At returns element i (a default message if out of range).
func (l MessageList) At(i int) Msg { return l.m.ElemMessage(l.f, i, l.t) }

// Mutable returns element i, growing the list and creating the element as
// needed.
func (l MessageList) Mutable(i int) Msg { return l.m.MutableElem(l.f, i, l.t) }

// Append adds a new, empty element and returns it.
func (l MessageList) Append() Msg { return l.m.AddMessage(l.f, l.t) }

// Allocate replaces the list with n new, empty elements made in one
// allocation (C++ allocate_x).
func (l MessageList) Allocate(n int) { l.m.AllocateMessages(l.f, n, l.t) }

// Reserve makes room for n elements.
func (l MessageList) Reserve(n int) { l.m.ReserveMessages(l.f, n, l.t) }

// Resize sets the length to n; new elements are absent until Mutable.
func (l MessageList) Resize(n int) { l.m.ResizeMessages(l.f, n, l.t) }

// Clear empties the list, clearing and freeing every element.
func (l MessageList) Clear() { l.m.ClearMessages(l.f, l.t) }

// All iterates over the elements as At returns them, resolving the field
// once and, in a v3 payload, checking the element table once for the
// elements that share it (At does both per element). The elements are
// those of the list when the iteration starts: writing the elements'
// fields is fine, but after adding, erasing or clearing elements during the
// iteration, the elements it yields are unspecified (each reads within the
// payload's bounds, like any handle).
func (l MessageList) All() iter.Seq2[int, Msg] {
	// Small enough to inline, so that a range over it allocates nothing.
	return func(yield func(int, Msg) bool) { l.m.eachMessage(l.f, l.t, yield) }
}

// growElems returns dst extended by the n elements of repeated scalar field
// f of m (size bytes each), out, the n new elements of dst to fill, and b,
// their n*size stored bytes: the field is resolved and bounds-checked once.
func growElems[T any](dst []T, m Msg, f Field, size int) (grown, out []T, b []byte) {
	data, n := m.vec(f, uint32(size))
	if n == 0 {
		return dst, nil, nil
	}
	dst = slices.Grow(dst, n)[:len(dst)+n]
	return dst, dst[len(dst)-n:], m.p.mem[int(data) : int(data)+n*size]
}

// all iterates over the n elements that at returns.
func all[T any](n int, at func(int) T) iter.Seq2[int, T] {
	return func(yield func(int, T) bool) {
		for i := range n {
			if !yield(i, at(i)) {
				return
			}
		}
	}
}
