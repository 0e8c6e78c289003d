package payloadbuffer

import (
	"fmt"
	"runtime"
	"testing"
)

// bitmapBase returns the memory of a fixed v2 Performance buffer whose
// class-16 bitmap allocator has two runs (the second with room) and whose
// class-128 allocator has one, and the small blocks it allocated.
func bitmapBase(t *testing.T) (mem []byte, small, big []uint32) {
	t.Helper()
	mem = make([]byte, 4096)
	b, err := NewFixed(mem, Options{Version: V2})
	if err != nil {
		t.Fatal(err)
	}
	for range 22 {
		small = append(small, b.Allocate(10, Small))
	}
	big = append(big, b.Allocate(100, Small))
	b.Free(small[3])
	if b.Failed() || small[21] == 0 || big[0] == 0 {
		t.Fatal("base buffer too small")
	}
	return mem, small, big
}

// TestAllocHostileBitmap guards the v2 bitmap small-block allocator against
// run vectors and runs rewritten after Open (a message of a payload written
// elsewhere can lie over the allocator's own blocks, or over the header's
// slots, and writes through it rewrite them): the allocator indexed the run
// vector and the runs without bounds, took a slot past its run, and wrote
// past the run vector's block. Each patch must leave the buffer within its
// memory, and those that would make it write outside the allocator's blocks
// must fail it.
func TestAllocHostileBitmap(t *testing.T) {
	base, small, big := bitmapBase(t)
	n := uint32(len(base))
	vec := func(b *Buffer) uint32 { return b.get32(offSmall) }
	data := func(b *Buffer) uint32 { return b.get32(vec(b) + 4) }
	run := func(b *Buffer, i uint32) uint32 { return b.get32(data(b) + 4*i) }
	type patch struct {
		at, v func(b *Buffer) uint32
	}
	at := func(off uint32) func(*Buffer) uint32 { return func(*Buffer) uint32 { return off } }
	val := at
	for _, c := range []struct {
		name    string
		patches []patch
		fails   bool
	}{
		{"vec_in_header", []patch{{at(offSmall), val(8)}}, true},
		{"vec_huge", []patch{{at(offSmall), val(0xFFFFFFF0)}}, true},
		{"vec_at_end", []patch{{at(offSmall), val(n - 4)}}, true},
		{"vec_misaligned", []patch{{at(offSmall), func(b *Buffer) uint32 { return vec(b) + 4 }}}, true},
		{"count_huge", []patch{{vec, val(0x7FFFFFFF)}}, true},
		{"count_max", []patch{{vec, val(0xFFFFFFFF)}}, true},
		{"count_past_block", []patch{{vec, val(9)}}, true},
		{"count_at_block", []patch{{vec, val(8)}}, false}, // garbage entries, never used
		{"data_huge", []patch{{func(b *Buffer) uint32 { return vec(b) + 4 }, val(0xFFFFFFF0)}}, true},
		{"data_at_end", []patch{{func(b *Buffer) uint32 { return vec(b) + 4 }, val(n - 4)}}, true},
		{"data_in_header", []patch{{func(b *Buffer) uint32 { return vec(b) + 4 }, val(4)}}, true},
		{"run_huge", []patch{{data, val(0xFFFFFFF0)}, {func(b *Buffer) uint32 { return data(b) + 4 }, val(0xFFFFFFF0)}}, true},
		{"run_at_end", []patch{{data, val(n - 8)}, {func(b *Buffer) uint32 { return data(b) + 4 }, val(n - 16)}}, true},
		{"run_in_header", []patch{{data, val(8)}, {func(b *Buffer) uint32 { return data(b) + 4 }, val(16)}}, true},
		{"run_misaligned", []patch{{func(b *Buffer) uint32 { return data(b) + 4 }, func(b *Buffer) uint32 { return run(b, 1) + 4 }}}, true},
		{"run_past_end", []patch{{func(b *Buffer) uint32 { return data(b) + 4 }, val(n - 200)}}, true},
		{"run_full_one_free", []patch{
			{func(b *Buffer) uint32 { return run(b, 1) }, val(1<<20 - 1)},
			{func(b *Buffer) uint32 { return run(b, 1) + 4 }, val(16 | 20<<8 | 1<<16)},
		}, true},
		{"run_bits_all", []patch{
			{func(b *Buffer) uint32 { return run(b, 1) }, val(0xFFFFFFFF)},
			{func(b *Buffer) uint32 { return run(b, 1) + 4 }, val(16 | 20<<8 | 5<<16)},
		}, true},
		{"run_free_zero", []patch{{func(b *Buffer) uint32 { return run(b, 1) + 4 }, val(16 | 20<<8)}}, false},
		{"runs_same", []patch{{func(b *Buffer) uint32 { return data(b) + 4 }, func(b *Buffer) uint32 { return run(b, 0) }}}, false},
		{"run_over_vector", []patch{{func(b *Buffer) uint32 { return data(b) + 4 }, vec}}, false},
	} {
		for _, cached := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/cached=%t", c.name, cached), func(t *testing.T) {
				backing := make([]byte, len(base)+guardSize)
				copy(backing, base)
				for i := len(base); i < len(backing); i++ {
					backing[i] = guardByte
				}
				b, err := Open(backing[:len(base)])
				if err != nil {
					t.Fatal(err)
				}
				defer noPanic(t)
				if cached { // the run index is built before the patch
					b.Free(b.Allocate(12, Small))
				}
				for _, p := range c.patches {
					b.put32(p.at(b), p.v(b))
				}
				for range 45 {
					b.Allocate(10, Small|Zero)
				}
				b.Allocate(120, Small)
				b.Free(small[0])
				b.Free(small[20])
				b.Free(big[0])
				b.Realloc(small[1], 14, Small|Zero)
				b.Realloc(small[2], 60, Small|Zero)
				if err := guardIntact(backing, len(base)); err != nil {
					t.Fatal(err)
				}
				if c.fails && !b.Failed() {
					t.Errorf("the buffer did not fail")
				}
			})
		}
	}
}

// TestAllocHostileSmallWord guards Free and Realloc against an encoded
// small-block word that a write after Open placed outside the runs: Realloc
// in place zeroed past the end of the buffer, and Free cleared a bit of the
// header (a "run" in the header).
func TestAllocHostileSmallWord(t *testing.T) {
	base, _, _ := bitmapBase(t)
	n := uint32(len(base))
	t.Run("realloc_at_end", func(t *testing.T) {
		b, err := Open(clone(base))
		if err != nil {
			t.Fatal(err)
		}
		p := n - 8
		defer noPanic(t)
		b.putWord(p, smallBit|1) // class 16, run 0, slot 0, size 1
		b.Realloc(p, 16, Small|Zero)
		b.Realloc(p, 12, Small)
	})
	t.Run("free_run_in_header", func(t *testing.T) {
		b, err := Open(clone(base))
		if err != nil {
			t.Fatal(err)
		}
		// Run 1 of class 16 "at" 32 (header slots of classes 64 and 128),
		// its slot 0 at 48.
		d := b.get32(b.get32(offSmall) + 4)
		b.put32(d+4, 32)
		hdr := clone(b.data[:b.hdr])
		b.data[32] |= 1
		hdr[32] |= 1
		b.putWord(48, smallBit|1<<8|16)
		b.Free(48)
		if got := b.data[:b.hdr]; string(got) != string(hdr) {
			t.Errorf("Free changed the header:\n got % x\nwant % x", got, hdr)
		}
	})
}

// noPanic turns a panic into a test error naming its top frames.
func noPanic(t *testing.T) {
	t.Helper()
	if r := recover(); r != nil {
		t.Errorf("panic: %v\n%s", r, panicFrames())
	}
}

func panicFrames() string {
	pc := make([]uintptr, 16)
	n := runtime.Callers(4, pc)
	frames := runtime.CallersFrames(pc[:n])
	var out string
	for i := 0; i < 4; i++ {
		f, more := frames.Next()
		out += fmt.Sprintf("  %s:%d\n", f.Function, f.Line)
		if !more {
			break
		}
	}
	return out
}
