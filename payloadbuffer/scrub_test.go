package payloadbuffer

import (
	"bytes"
	"fmt"
	"testing"
)

// checkScrubbed checks the invariants of a scrubbing buffer (scrub.go):
// the data of every free block is zero (a format-3 small block's link
// aside), but for the part past clean, and hwm covers nothing past clean
// but a free header.
func checkScrubbed(b *Buffer) error {
	if b.failed && b.version == V3 {
		return nil // the free lists are dropped
	}
	if hwm := b.HWM(); hwm > b.clean+8 {
		return fmt.Errorf("hwm %d past clean %d and a free header", hwm, b.clean)
	}
	for f := b.get32(offFreeList); f != 0; f = b.freeNext(f) {
		end := min(f+b.freeLen(f), max(b.clean, f+8))
		if i := firstNonZero(b.data[f+8 : end]); i >= 0 {
			return fmt.Errorf("free block at %d (length %d, clean %d): byte %d is %#x", f, b.freeLen(f), b.clean, f+8+uint32(i), b.data[f+8+uint32(i)])
		}
	}
	if !b.small {
		return nil
	}
	for c, size := range classSize {
		head := b.get32(offSmall + 4*uint32(c))
		if b.version == V3 {
			for p := head; p != 0; p = b.get32(p) {
				if i := firstNonZero(b.data[p+4 : p+size]); i >= 0 {
					return fmt.Errorf("free class-%d block at %d: byte %d not zero", size, p, p+4+uint32(i))
				}
			}
			continue
		}
		if head == 0 {
			continue
		}
		num, data := b.get32(head), b.get32(head+4)
		for i := range num {
			run := b.get32(data + 4*i)
			bits := b.get32(run)
			for slot := range runCount[c] {
				p := run + 8 + slot*(size+8) + 8
				if bits&(1<<slot) == 0 && firstNonZero(b.data[p:p+size]) >= 0 {
					return fmt.Errorf("free class-%d slot at %d not zero", size, p)
				}
			}
		}
	}
	return nil
}

func firstNonZero(b []byte) int {
	for i, c := range b {
		if c != 0 {
			return i
		}
	}
	return -1
}

// TestScrubCallerMemory builds the same blocks and strings in a fixed
// buffer of zeroed memory and of memory full of 0xEE: with scrubbing the
// two payloads are identical (the caller's bytes never reach one), without
// it (format 2's default, C++ 2.1's behaviour) they differ.
func TestScrubCallerMemory(t *testing.T) {
	build := func(fill byte, opts Options) []byte {
		mem := bytes.Repeat([]byte{fill}, 4096)
		b, err := NewFixed(mem, opts)
		if err != nil {
			t.Fatal(err)
		}
		root := b.Allocate(64, Zero|Small)
		b.SetMessage(root)
		table := b.Allocate(29, Small) // no Zero: a table fills 29 of 32 bytes
		copy(b.Slice(table, 29), bytes.Repeat([]byte{7}, 29))
		b.SetString(root+8, "a name")
		b.SetString(root+12, "a longer string, more than 16 bytes")
		b.SetString(root+12, "short")
		b.VectorReserve(root+16, 10, 8) // capacity without Zero
		b.VectorPush(root+16, 8)
		b.PushString(root+24, "x")
		b.AllocateString(root+32, 13, 0)
		if b.Failed() {
			t.Fatal("the blocks did not fit")
		}
		return clone(b.Bytes())
	}
	for _, tc := range []struct {
		opts  Options
		equal bool
	}{
		{Options{Version: V3}, true},
		{Options{Version: V3, Tuning: Size}, true},
		{Options{Version: V2, Scrub: ScrubOn}, true},
		{Options{Version: V2, Tuning: Size, Scrub: ScrubOn}, true},
		{Options{Version: V3, Scrub: ScrubOff}, false},
		{Options{Version: V2}, false},
	} {
		zero, dirty := build(0, tc.opts), build(0xEE, tc.opts)
		if bytes.Equal(zero, dirty) != tc.equal {
			t.Errorf("%+v: payloads in zeroed and in 0xEE memory equal: %t, want %t\n% x\n% x", tc.opts, !tc.equal, tc.equal, zero, dirty)
		}
	}
}
