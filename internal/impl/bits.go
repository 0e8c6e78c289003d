package impl

import "unsafe"

// Scalar is the Go type of the elements of a repeated scalar field: the
// types runtime.List holds (enums are ~int32).
type Scalar interface {
	~bool | ~int32 | ~uint32 | ~int64 | ~uint64 | ~float32 | ~float64
}

// The elements of a repeated scalar field are stored as 1 (bool), 4 or 8
// little-endian bytes. Repeated gives an element as its stored bits in a
// uint64 laid out so that the value's own bytes come first in memory (on a
// little-endian machine, the plain value); FromBits and ToBits reinterpret
// those bytes as the element's Go type, which is why one generic list
// serves every scalar type without a conversion per type.

// SizeOf returns the stored size of a T: 1, 4 or 8.
func SizeOf[T Scalar]() uintptr {
	var v T
	return unsafe.Sizeof(v)
}

// FromBits returns the element whose stored bits (Repeated's form) are b.
func FromBits[T Scalar](b uint64) T { return *(*T)(unsafe.Pointer(&b)) }

// ToBits returns the stored bits of v, in Repeated's form.
func ToBits[T Scalar](v T) uint64 {
	var b uint64
	*(*T)(unsafe.Pointer(&b)) = v
	return b
}

// loadElems converts the stored bytes b of len(dst) elements into dst.
func loadElems[T Scalar](dst []T, b []byte) {
	size := SizeOf[T]()
	if size == 1 { // bool: a stored byte other than 0 or 1 reads as true
		for i := range dst {
			dst[i] = FromBits[T](placeBits(uint64(min(b[i], 1)), 1))
		}
		return
	}
	if !bigEndian {
		copy(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(dst))), uintptr(len(dst))*size), b)
		return
	}
	for i := range dst {
		o := uintptr(i) * size
		if size == 4 {
			dst[i] = FromBits[T](placeBits(uint64(le.Uint32(b[o:])), 4))
		} else {
			dst[i] = FromBits[T](le.Uint64(b[o:]))
		}
	}
}
