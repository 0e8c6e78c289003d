package impl

// storeBytes stores v in the string or bytes field whose slot (a
// StringHeader) is at slot, as payloadbuffer.Buffer.SetBytes does, and
// reports whether it was stored (false is a buffer that is full, which p
// records).
//
// A decoder writes most strings into a message it has just cleared, whose
// slot is empty: that string is a new block, allocated with the flags
// SetBytes uses (Buffer.StringFlags) and filled here, without the checks SetBytes makes for a
// slot that holds a string to replace or a v that lies in the payload. Any
// other case (a slot that holds a string, one in the buffer's header that
// SetBytes reports as corrupt, a v in the payload's memory, a string too
// long for a length word) is SetBytes's.
func (p *Payload) storeBytes(slot uint32, v []byte) bool {
	mem := p.mem
	if uint64(slot)+4 <= uint64(len(mem)) && le.Uint32(mem[slot:]) == 0 &&
		slot >= p.buf.HeaderSize() && len(v) < 1<<31 && !overlaps(mem[:cap(mem)], v) {
		// The block a decoding set aside from this slot (reuse.go), v
		// written over it when it fits; else the block is freed and v
		// goes into a new one.
		if p.nlive != 0 && p.overwriteAside(slot, v) {
			return true
		}
		d := p.buf.Allocate(len(v)+4, p.buf.StringFlags())
		p.sync()
		if d == 0 {
			p.fail()
			return false
		}
		mem = p.mem
		le.PutUint32(mem[d:], uint32(len(v)))
		copy(mem[d+4:], v)
		le.PutUint32(mem[slot:], d)
		return true
	}
	return p.setBytes(slot, v)
}

// setBytes is storeBytes's general path: payloadbuffer.Buffer.SetBytes.
func (p *Payload) setBytes(slot uint32, v []byte) bool {
	ok := p.buf.SetBytes(slot, v)
	p.sync()
	if !ok {
		p.fail()
	}
	return ok
}
