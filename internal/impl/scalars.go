package impl

import "unsafe"

// MutableBytes returns, for a generated SetScalars, the first n bytes of m
// (n is its Type's extent, which the generated code has as a constant),
// or false when m is not a writable message laid out with its compiled
// table: the generated code then stores through m's setters. The bytes
// alias the payload and are for stores made before the next allocation
// (which can move an owned buffer).
func (m Msg) MutableBytes(n uint32) ([]byte, bool) {
	if m.acc != compiledWrite {
		return nil, false
	}
	// In int arithmetic (no sum of two uint32s overflows it), so that the
	// slice's length and capacity are n where n is a constant: the
	// caller's conversion to *[n]byte needs no check of its own.
	mem := m.p.mem
	o, end := int(m.off), int(m.off)+int(n)
	if end > len(mem) {
		return nil, false
	}
	return mem[o:end:end], true
}

// StoreScalars is the body of a generated SetScalars: it calls store with
// m's bytes from its offset on when m is a writable message laid out with
// its compiled table and they hold at least n (its Type's extent, a
// constant in the generated code), and general with m otherwise; v is the
// values (a pointer to the generated XScalars), for both. The generated
// code passes functions it names, never closures: the compiler inlines
// StoreScalars into SetScalars, SetScalars into its caller and then store
// (a message of a few scalars is within its budget) with no call, and
// keeps general, the field setters, a call. Calls of parameters cost the
// inliner less than a call of a named function, which is why the two
// paths are parameters and not a flag returned to SetScalars (as
// MutableBytes, of generated code of versions 4 to 11, does).
func (m Msg) StoreScalars(n uint32, v unsafe.Pointer, store func(b []byte, v unsafe.Pointer), general func(m Msg, v unsafe.Pointer)) {
	if m.acc == compiledWrite { // then m.p is not nil
		if mem := m.p.mem; int(m.off)+int(n) <= len(mem) {
			store(mem[m.off:], v)
			return
		}
	}
	general(m, v)
}
