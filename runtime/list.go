package runtime

import (
	"iter"

	"github.com/phaser-go/phaser/internal/impl"
)

// Scalar is the Go type of the elements of a repeated scalar field: bool,
// int32 (also sint32, sfixed32 and enums, whose generated Go types are
// ~int32), uint32 (also fixed32), int64 (also sint64, sfixed64), uint64
// (also fixed64), float32 and float64.
type Scalar = impl.Scalar

// List is a handle on a repeated scalar or enum field: the message handle
// and the field, never the elements. Generated accessors of repeated
// scalar fields return one. Writes through a List of a read-only message
// are ignored and reported by the message's Err.
//
// The list of a fixed array (phaser.array_size = N) has N elements from
// creation, those not stored reading as zero; a write of an element stores
// the N, and no write stores more than N (ErrArraySize; docs/format.md,
// "Fixed arrays"). StringList and the generated message lists do the same.
type List[T Scalar] impl.Repeated

// Len returns the number of elements (N for a fixed array).
func (l List[T]) Len() int { return impl.Repeated(l).Len(impl.SizeOf[T]()) }

// At returns element i (the zero value if out of range).
func (l List[T]) At(i int) T { return impl.FromBits[T](impl.Repeated(l).ElemBits(i, impl.SizeOf[T]())) }

// Set stores v as element i (ignored if out of range).
func (l List[T]) Set(i int, v T) { impl.Repeated(l).SetElemBits(i, impl.SizeOf[T](), impl.ToBits(v)) }

// Append adds v at the end.
func (l List[T]) Append(v T) { impl.Repeated(l).PushBits(impl.SizeOf[T](), impl.ToBits(v)) }

// Reserve makes room for n elements.
func (l List[T]) Reserve(n int) { impl.Repeated(l).Reserve(n, impl.SizeOf[T]()) }

// Resize sets the length to n; new elements are zero.
func (l List[T]) Resize(n int) { impl.Repeated(l).Resize(n, impl.SizeOf[T]()) }

// Clear empties the list and frees its storage.
func (l List[T]) Clear() { impl.Repeated(l).Clear() }

// Assign replaces the elements with vs, as s = append(s[:0], vs...) does
// a slice's: the storage is kept when it holds len(vs) elements, so a
// message refilled with the same shape allocates nothing. As many elements
// as the list holds are stored where Set stores them. It reports false
// if the elements could not be stored (a full buffer, more than a fixed
// array's N, a read-only message: recorded as Resize records it); the
// list is then unchanged.
func (l List[T]) Assign(vs ...T) bool { return impl.AssignElems(impl.Repeated(l), vs) }

// AppendTo appends the elements to dst and returns the extended slice,
// resolving and bounds-checking the field once (At does it per element).
func (l List[T]) AppendTo(dst []T) []T { return impl.AppendElems(dst, impl.Repeated(l)) }

// All iterates over the elements.
func (l List[T]) All() iter.Seq2[int, T] {
	return func(yield func(int, T) bool) {
		for i := range l.Len() {
			if !yield(i, l.At(i)) {
				return
			}
		}
	}
}

// Insert inserts vs at index i (0 <= i <= Len). It reports false if i is
// out of range or the buffer is full; the list is then unchanged.
func (l List[T]) Insert(i int, vs ...T) bool {
	b := impl.Repeated(l).Insert(i, len(vs), impl.SizeOf[T]())
	if b == nil {
		return len(vs) == 0
	}
	impl.StoreElems(b, vs)
	return true
}

// Erase removes elements [i, j).
func (l List[T]) Erase(i, j int) bool { return impl.Repeated(l).Erase(i, j, impl.SizeOf[T]()) }

// Swap exchanges the contents of l and o in O(1); both must live in the
// same payload.
func (l List[T]) Swap(o List[T]) bool { return impl.Repeated(l).Swap(impl.Repeated(o)) }

// AppendN adds n elements with at most one allocation, element i set to
// fill(i). It reports false if the buffer is full.
func (l List[T]) AppendN(n int, fill func(i int) T) bool {
	b, ok := impl.Repeated(l).Grow(n, impl.SizeOf[T]())
	if !ok {
		return false
	}
	for k := range n {
		impl.StoreElem(b[uintptr(k)*impl.SizeOf[T]():], fill(k))
	}
	return true
}

// StringList is a handle on a repeated string or bytes field: the message
// handle and the field, never the elements.
type StringList impl.Repeated

func (l StringList) r() impl.Repeated { return impl.Repeated(l) }

// Len returns the number of elements.
func (l StringList) Len() int { return l.r().Len(4) }

// At returns a copy of element i ("" if out of range).
func (l StringList) At(i int) string { return string(l.r().String(i)) }

// AtBytes returns element i without copying; the slice aliases the payload
// and is valid until the element is written or an owned buffer grows.
func (l StringList) AtBytes(i int) []byte { return l.r().String(i) }

// Set stores s as element i, growing the list if i is past its end.
func (l StringList) Set(i int, s string) { l.r().SetString(i, s) }

// SetBytes stores s as element i; s may alias the payload.
func (l StringList) SetBytes(i int, s []byte) { l.r().SetBytes(i, s) }

// Append adds s at the end.
func (l StringList) Append(s string) { l.r().AppendString(s) }

// AppendBytes adds s at the end; s may alias the payload.
func (l StringList) AppendBytes(s []byte) { l.r().AppendBytes(s) }

// Reserve makes room for n elements.
func (l StringList) Reserve(n int) { l.r().Reserve(n, 4) }

// Resize sets the length to n; new elements are empty.
func (l StringList) Resize(n int) { l.r().ResizeStrings(n) }

// Clear empties the list and frees its strings.
func (l StringList) Clear() { l.r().ClearStrings() }

// All iterates over the elements without copying them.
func (l StringList) All() iter.Seq2[int, []byte] {
	return func(yield func(int, []byte) bool) {
		for i := range l.Len() {
			if !yield(i, l.AtBytes(i)) {
				return
			}
		}
	}
}

// Insert inserts ss at index i (0 <= i <= Len). It reports false if i is
// out of range or the buffer is full.
func (l StringList) Insert(i int, ss ...string) bool {
	for k, s := range ss {
		if !l.r().InsertString(i+k, s) {
			return false
		}
	}
	return true
}

// Erase removes elements [i, j), freeing their strings.
func (l StringList) Erase(i, j int) bool { return l.r().EraseStrings(i, j) }

// Swap exchanges the contents of l and o in O(1); both must live in the
// same payload.
func (l StringList) Swap(o StringList) bool { return l.r().Swap(o.r()) }

// AppendN adds n elements, element i set to fill(i). It reports false if
// the buffer is full.
func (l StringList) AppendN(n int, fill func(i int) string) bool {
	l.Reserve(l.Len() + n)
	for k := range n {
		l.Append(fill(k))
	}
	return !l.r().Failed()
}
