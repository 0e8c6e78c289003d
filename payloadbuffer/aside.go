package payloadbuffer

// Blocks set aside: a message runtime that clears a message but means to
// take its blocks back for the fields it sets next (a Clear and refill of
// the same shape) records them here instead of freeing them. A block set
// aside stays allocated and belongs to no field; the buffer frees it when
// an allocation finds no room (before a fixed buffer fails or an owned one
// grows), so that holding it never makes a fill fail that a Clear which
// freed it would let through.

// SetAside records the blocks in record (data offsets of allocated blocks
// that no field refers to any more; 0 entries are none) as set aside,
// replacing an earlier record. The buffer keeps record itself, shared with
// the caller: when an allocation finds no room it frees the blocks and
// zeroes their entries, and a reset or a failure, which release every
// block, zero the entries too. The caller takes a block back by zeroing
// its entry, and must not free one that is recorded.
func (b *Buffer) SetAside(record []uint32) {
	if b.failed {
		clear(record)
		return
	}
	b.aside = record
}

// FreeAside frees the blocks set aside, zeroes their entries and forgets
// the record. It reports how many it freed.
func (b *Buffer) FreeAside() int {
	n := 0
	for i, p := range b.aside {
		if p != 0 {
			b.aside[i] = 0
			b.Free(p)
			n++
		}
	}
	b.aside = nil
	return n
}

// dropAside forgets the blocks set aside, which a reset or a failure has
// released, and zeroes their entries.
func (b *Buffer) dropAside() {
	clear(b.aside)
	b.aside = nil
}

// Aside returns how many blocks are set aside.
func (b *Buffer) Aside() int {
	n := 0
	for _, p := range b.aside {
		if p != 0 {
			n++
		}
	}
	return n
}
