package payloadbuffer

import (
	"errors"
	"fmt"
	"testing"
)

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
			b.VectorAppendCopy(slot, make([]byte, 8), 4)
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

// TestAllocZeroLengthFree: a free header rewritten to a length of 0 (and
// no successor) after Open, in an owned buffer. Each grow linked the new
// space after it, the next allocation carved it and relinked through the
// zeroed header, and the space was lost again: every allocation doubled
// the buffer (an 8 KB payload grew to 64 MiB in FuzzOpenWrite). The
// buffer must fail instead, without growing.
func TestAllocZeroLengthFree(t *testing.T) {
	for _, opts := range []Options{{Version: V2}, {Version: V3}, {Version: V3, Tuning: Size}} {
		b := New(1024, opts)
		p := b.Allocate(40, 0)
		b.Allocate(40, 0)
		b.Free(p)
		b.PutUint64(b.Uint32(offFreeList), 0) // length 0, no successor
		before := b.Len()
		for range 8 {
			b.Allocate(200, 0)
		}
		if !b.Failed() || !errors.Is(b.Err(), ErrCorrupt) {
			t.Errorf("%v: a free block of length 0 did not fail the buffer (Err %v)", opts, b.Err())
		}
		if b.Len() != before {
			t.Errorf("%v: the buffer grew from %d to %d bytes", opts, before, b.Len())
		}
	}
}

// TestVectorHeaderInFreeMemory: a vector header that lies in memory the
// allocator holds free (a message of a payload continued with Open can lie
// there). Growing the vector allocated that memory, zeroed the new
// elements over the header, and VectorAssign then read the header again
// and copied the elements to offset 0: over the buffer header. Each edit
// that reads the header after an allocation must find a block that holds
// the elements, or fail the buffer, and never write the buffer header.
func TestVectorHeaderInFreeMemory(t *testing.T) {
	for _, opts := range []Options{{Version: V2, Tuning: Size}, {Version: V3, Tuning: Size}} {
		for _, edit := range []struct {
			name string
			do   func(b *Buffer, slot uint32)
		}{
			{"Assign", func(b *Buffer, slot uint32) { b.VectorAssign(slot, make([]byte, 24), 8) }},
			{"AppendCopy", func(b *Buffer, slot uint32) { b.VectorAppendCopy(slot, make([]byte, 16), 8) }},
			{"AppendN", func(b *Buffer, slot uint32) {
				if e := b.VectorAppendN(slot, 2, 8); e != 0 {
					b.PutUint64(e, 0xFFFFFFFFFFFFFFFF)
				}
			}},
			{"Insert", func(b *Buffer, slot uint32) {
				if e := b.VectorInsert(slot, 1, 2, 8); e != 0 {
					b.PutUint64(e, 0xFFFFFFFFFFFFFFFF)
				}
			}},
			{"SetStringAt", func(b *Buffer, slot uint32) { b.SetStringAt(slot, 5, "x") }},
		} {
			mem := make([]byte, 1024)
			b, err := NewFixed(mem, opts)
			if err != nil {
				t.Fatal(err)
			}
			a := b.Allocate(40, 0)  // the message that holds the header
			old := b.Allocate(8, 0) // the vector's block: one element
			b.Allocate(40, 0)       // after it: the block cannot grow in place
			b.Free(a)
			slot := a + 8 // in free memory, where the grown block's new elements go
			b.PutUint64(slot, 1|uint64(old)<<32)
			header := append([]byte(nil), mem[:b.HeaderSize()]...)
			edit.do(b, slot)
			for _, w := range []int{4, 8, 12, 20} {
				if got, was := b.Uint32(uint32(w)), le32(header[w:]); got != was && !(w == 8 && got > was) {
					t.Errorf("%v %s: header word %d is %#x, was %#x", opts, edit.name, w, got, was)
				}
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

// TestFreeTwice guards the allocator against a block freed twice (a
// payload continued with Open can reference one block from two fields, and
// clearing both frees it twice) and against freeing the root message: a
// regular block merged into the free block below, freed again, made two
// free blocks overlap; a v3 small block freed twice in a row linked to
// itself, so that every later allocation of its class returned it. Later
// allocations overlapped each other. Each must be refused, and the buffer
// must record the failure.
func TestFreeTwice(t *testing.T) {
	for _, opts := range []Options{{Version: V2}, {Version: V2, Tuning: Size}, {Version: V3}, {Version: V3, Tuning: Size}} {
		for _, c := range []struct {
			name string
			free func(b *Buffer, small, a, bb, root uint32)
		}{
			{"merged_below", func(b *Buffer, small, a, bb, root uint32) { b.Free(a); b.Free(bb); b.Free(bb) }},
			{"head", func(b *Buffer, small, a, bb, root uint32) { b.Free(a); b.Free(a) }},
			{"small", func(b *Buffer, small, a, bb, root uint32) { b.Free(small); b.Free(small) }},
			{"root", func(b *Buffer, small, a, bb, root uint32) { b.Free(root) }},
		} {
			t.Run(fmt.Sprintf("%v/%v/%s", opts.Version, opts.Tuning, c.name), func(t *testing.T) {
				b, err := NewFixed(make([]byte, 8192), opts)
				if err != nil {
					t.Fatal(err)
				}
				root := b.Allocate(64, Zero)
				b.SetMessage(root)
				small := b.Allocate(40, Small)
				a, bb := b.Allocate(200, 0), b.Allocate(200, 0)
				b.Allocate(16, 0) // keeps bb off the trailing free block
				c.free(b, small, a, bb, root)
				if !b.Failed() {
					t.Errorf("the second free (or the root's) was not refused")
				}
				// Whatever happened, no two live blocks may overlap.
				var live [][2]uint32
				live = append(live, [2]uint32{root, root + 64})
				for range 6 {
					for _, n := range []int{40, 200} {
						if p := b.Allocate(n, Small); p != 0 {
							live = append(live, [2]uint32{p, p + b.BlockSize(p)})
						}
					}
				}
				for i := range live {
					for j := range i {
						if live[i][0] < live[j][1] && live[j][0] < live[i][1] {
							t.Fatalf("blocks %v and %v overlap", live[i], live[j])
						}
					}
				}
			})
		}
	}
}

func binaryLE32(b []byte) uint32 {
	return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
}
