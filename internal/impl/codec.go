package impl

// What the wire codecs, interpreted and generated, read besides the
// accessors.

// PayloadLen returns the length of the memory of m's payload, which every
// offset in it addresses (0 for the zero Msg): the measure of the work
// budget of an encoder, which charges what it reads against it.
func (m Msg) PayloadLen() int {
	if m.p == nil {
		return 0
	}
	return len(m.p.mem)
}
