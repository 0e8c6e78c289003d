//go:build 386 || amd64 || arm || arm64 || loong64 || mips64le || mipsle || ppc64le || riscv64 || wasm

package impl

// bigEndian reports whether the machine stores words most significant
// byte first.
const bigEndian = false

// placeBits returns the size-byte value v in the stored-bits form: its
// bytes first in memory.
func placeBits(v uint64, size uintptr) uint64 { return v }

// unplaceBits undoes placeBits.
func unplaceBits(b uint64, size uintptr) uint64 { return b }
