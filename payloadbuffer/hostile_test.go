package payloadbuffer

import "testing"

// TestVectorHostileHeader guards the vector edits against a VectorHeader
// read from a payload written elsewhere (continued with Open) that counts
// more elements than its block holds, or points at no block: Erase, Insert,
// Resize, AppendN and SetStringAt indexed past the buffer (slice bounds
// panics), and Push asked for a block of twice the hostile count. Each must
// refuse and leave the buffer's memory in place.
func TestVectorHostileHeader(t *testing.T) {
	for _, opts := range []Options{{Version: V2}, {Version: V3}, {Version: V2, Tuning: Size}} {
		for _, hdr := range []struct {
			name      string
			num, data func(b *Buffer, data uint32) uint32
		}{
			{"count_huge", func(*Buffer, uint32) uint32 { return 0x7FFFFFFF }, func(_ *Buffer, d uint32) uint32 { return d }},
			{"count_max", func(*Buffer, uint32) uint32 { return 0xFFFFFFFF }, func(_ *Buffer, d uint32) uint32 { return d }},
			{"count_past_block", func(*Buffer, uint32) uint32 { return 1000 }, func(_ *Buffer, d uint32) uint32 { return d }},
			{"data_at_end", func(*Buffer, uint32) uint32 { return 2 }, func(b *Buffer, _ uint32) uint32 { return uint32(b.Len()) - 4 }},
			{"data_in_header", func(*Buffer, uint32) uint32 { return 4 }, func(*Buffer, uint32) uint32 { return 8 }},
		} {
			mem := make([]byte, 1024)
			b, err := NewFixed(mem, opts)
			if err != nil {
				t.Fatal(err)
			}
			slot := b.Allocate(8, Zero)
			b.PushString(slot, "a")
			b.PushString(slot, "b")
			data := b.VectorData(slot)
			b.PutUint32(slot, hdr.num(b, data))
			b.PutUint32(slot+4, hdr.data(b, data))
			b.VectorErase(slot, 0, 1, 4)
			b.VectorInsert(slot, 1, 2, 4)
			b.VectorResize(slot, 3, 4)
			b.VectorAppendN(slot, 2, 4)
			b.SetStringAt(slot, 1, "x")
			b.VectorPush(slot, 4)
			if len(b.Memory()) != len(mem) || &b.Memory()[0] != &mem[0] {
				t.Errorf("%v %s: the buffer left its memory", opts, hdr.name)
			}
		}
	}
}

// TestAllocHostileFreeHeader guards the allocator against a free header
// rewritten after Open (a message of a payload written elsewhere can lie in
// free memory, and writes through it land in the free list): a length or
// link that leads out of the buffer made Allocate, Free and Realloc index
// past it. The buffer must fail instead.
func TestAllocHostileFreeHeader(t *testing.T) {
	for _, opts := range []Options{{Version: V2}, {Version: V3}} {
		for _, bad := range []struct {
			name string
			off  uint32 // in the free header
			v    uint32
		}{
			{"length_huge", 0, 0xFFFFFFF0},
			{"length_past_end", 0, 2048},
			{"next_past_end", 4, 0xFFFFFFF8},
		} {
			mem := make([]byte, 1024)
			b, err := NewFixed(mem, opts)
			if err != nil {
				t.Fatal(err)
			}
			p := b.Allocate(40, 0)
			q := b.Allocate(40, 0)
			b.Free(p)
			free := b.Uint32(offFreeList)
			b.PutUint32(free+bad.off, bad.v)
			b.Allocate(300, 0)
			b.Free(q)
			b.Realloc(b.Allocate(24, 0), 200, 0)
			if !b.Failed() {
				t.Errorf("%v %s: a free header out of the buffer did not fail the buffer", opts, bad.name)
			}
		}
	}
}

// TestClearStringHostileSlot guards ClearString against a StringHeader
// offset read from a payload written elsewhere (an element of a repeated
// string field that EraseStrings passes on as it is): it read past the
// buffer.
func TestClearStringHostileSlot(t *testing.T) {
	for _, slot := range []uint32{1022, 1024, 0xFFFFFFF0} {
		mem := make([]byte, 1024)
		b, err := NewFixed(mem, Options{Version: V2})
		if err != nil {
			t.Fatal(err)
		}
		func() {
			defer noPanic(t)
			b.ClearString(slot)
		}()
	}
}
