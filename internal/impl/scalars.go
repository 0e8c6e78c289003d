package impl

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
