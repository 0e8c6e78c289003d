package payloadbuffer

import (
	"bytes"
	"testing"
)

// TestCollect checks that the blocks Collect records stay allocated (the
// bytes do not change, nor does where later allocations go) until an
// allocation finds no room, which then frees them and succeeds; the kept
// blocks and the small-block allocator's structures are never freed.
func TestCollect(t *testing.T) {
	for _, k := range allKinds() {
		t.Run(k.String(), func(t *testing.T) {
			// An owned buffer reclaims before it grows.
			b := New(4096, k.opts())
			if k.fixed {
				var err error
				if b, err = NewFixed(make([]byte, 4096), k.opts()); err != nil {
					t.Fatal(err)
				}
			}
			root := b.Allocate(64, Zero|Small)
			b.SetMessage(root)
			keepSmall := b.Allocate(12, Small)
			var garbage []uint32
			for i := range 6 {
				garbage = append(garbage, b.Allocate(4+20*i, Zero|Small))
			}
			if b.Failed() || len(b.Memory()) != 4096 {
				t.Fatal("setup did not fit")
			}
			before := bytes.Clone(b.Memory())
			if n := b.Collect([]uint32{root, keepSmall}); n != len(garbage) {
				t.Fatalf("Collect recorded %d blocks, want %d", n, len(garbage))
			}
			if !bytes.Equal(before, b.Memory()) {
				t.Fatal("Collect changed the bytes")
			}
			// Fill the buffer: the allocation that finds no room frees the
			// garbage and goes on.
			total := 0
			for range 256 {
				p := b.Allocate(40, Zero|Small)
				if p == 0 {
					break
				}
				total++
				if len(b.Memory()) != 4096 {
					t.Fatalf("buffer grew to %d bytes before reclaiming", len(b.Memory()))
				}
				if b.Reclaimed() {
					break
				}
			}
			if !b.Reclaimed() || b.Failed() {
				t.Fatalf("after %d allocations: reclaimed %v, failed %v", total, b.Reclaimed(), b.Failed())
			}
			if err := b.check(false); err != nil {
				t.Fatal(err)
			}
			for _, p := range []uint32{root, keepSmall} {
				if !b.validBlock(p) || b.BlockSize(p) == 0 {
					t.Fatalf("kept block %d was freed", p)
				}
			}
		})
	}
}
