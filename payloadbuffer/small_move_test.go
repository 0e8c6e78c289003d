package payloadbuffer

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"testing"
)

// The allocator calls of resize_unpacked_ids(6); set_unpacked_ids(5, 7);
// clear_unpacked_ids(); resize_history(4); resize_history(5) on two
// repeated int32 fields. In v2 Performance the history block moves from the
// 16-byte class to the 32-byte class, into the slot that unpacked_ids
// freed; C++ 2.1 zeroes exactly [16, 20) of it (spec 2.6), so bytes 20..23
// still hold the 7 of unpacked_ids[5]. In v2 Size the block is a regular
// one and the grown part is zeroed up to its aligned size; v3 zeroes up to
// the aligned size in both tunings.
func TestSmallBlockMoveZeroesExactly(t *testing.T) {
	for _, k := range allKinds() {
		t.Run(k.String(), func(t *testing.T) {
			var b *Buffer
			if k.fixed {
				var err error
				if b, err = NewFixed(make([]byte, 4096), k.opts()); err != nil {
					t.Fatal(err)
				}
			} else {
				b = New(4096, k.opts())
			}
			root := b.Allocate(16, Zero|Small)
			ids, history := root, root+8
			if !b.VectorResize(ids, 6, 4) {
				t.Fatal("resize ids")
			}
			binary.LittleEndian.PutUint32(b.data[b.VectorData(ids)+5*4:], 7)
			b.VectorClear(ids)
			if !b.VectorResize(history, 4, 4) || !b.VectorResize(history, 5, 4) {
				t.Fatal("resize history")
			}
			data := b.VectorData(history)
			if b.VectorLen(history) != 5 || !bytes.Equal(b.data[data:data+20], make([]byte, 20)) {
				t.Fatalf("history = % x, want 5 zero elements", b.data[data:data+20])
			}
			want := []byte{0, 0, 0, 0}
			if k.v == V2 && k.t == Performance {
				want = []byte{7, 0, 0, 0}
			}
			if got := b.data[data+20 : data+24]; !bytes.Equal(got, want) {
				t.Fatalf("bytes 20..23 of the history block = % x, want % x", got, want)
			}
			if err := b.check(false); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// A v2 small block that moves to another class, or out of the small
// classes, zeroes [old, n) for every n: the bytes from n to the end of the
// new block keep what they held.
func TestSmallBlockMoveZeroRange(t *testing.T) {
	for _, n := range []int{17, 20, 31, 33, 100, 129, 133} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			b, err := NewFixed(make([]byte, 8192), Options{Version: V2, Tuning: Performance})
			if err != nil {
				t.Fatal(err)
			}
			p := b.Allocate(12, Zero|Small)
			for i := range uint32(12) {
				b.data[p+i] = byte(i + 1)
			}
			// Fill a block of the target class (or a regular block) with
			// 0xEE and free it, so the move lands on those bytes.
			stale := b.Allocate(n, Small)
			end := b.BlockSize(stale)
			for i := range end {
				b.data[stale+i] = 0xEE
			}
			b.Free(stale)
			b.Realloc(p, 12, Zero|Small) // same class: word size field 12
			np := b.Realloc(p, n, Zero|Small)
			if np != stale {
				t.Fatalf("moved to %d, want the freed block at %d", np, stale)
			}
			for i := range uint32(end) {
				want := byte(0xEE)
				switch {
				case i < 12:
					want = byte(i + 1)
				case i < uint32(n):
					want = 0
				}
				if b.data[np+i] != want {
					t.Fatalf("byte %d = %#x, want %#x\n% x", i, b.data[np+i], want, b.data[np:np+end])
				}
			}
		})
	}
}
