//go:build mips || mips64 || ppc64 || s390x

package impl

// bigEndian reports whether the machine stores words most significant
// byte first.
const bigEndian = true

// placeBits returns the size-byte value v in the stored-bits form: its
// bytes first in memory.
func placeBits(v uint64, size uintptr) uint64 { return v << (64 - 8*size) }

// unplaceBits undoes placeBits.
func unplaceBits(b uint64, size uintptr) uint64 { return b >> (64 - 8*size) }
