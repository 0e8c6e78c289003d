package payloadbuffer

import (
	"bytes"
	"errors"
	"testing"
)

// TestResetTo checks that a prepared image resets a buffer to the bytes
// Reset gives, for every kind, and that NewImage and ResetTo refuse what
// Reset refuses: bytes that are no payload buffer's, an image that does
// not end in its only free block, and an image of another kind.
func TestResetTo(t *testing.T) {
	for _, k := range allKinds() {
		t.Run(k.String(), func(t *testing.T) {
			mk := func() *Buffer {
				if k.fixed {
					b, err := NewFixed(bytes.Repeat([]byte{0x5a}, 2048), k.opts())
					if err != nil {
						t.Fatal(err)
					}
					return b
				}
				return New(2048, k.opts())
			}
			src := mk()
			root := src.Allocate(40, Zero|Small)
			src.SetMessage(root)
			image := bytes.Clone(src.Bytes())
			img, err := NewImage(image)
			if err != nil {
				t.Fatal(err)
			}
			image[len(image)-1] ^= 0xff // NewImage copied the bytes
			a, b := mk(), mk()
			for _, x := range []*Buffer{a, b} {
				for i := range 20 {
					x.Allocate(1+i*7, Small)
				}
			}
			image[len(image)-1] ^= 0xff
			if err := a.Reset(image); err != nil {
				t.Fatal(err)
			}
			if err := b.ResetTo(img); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(a.Memory(), b.Memory()) || a.HWM() != b.HWM() {
				t.Fatal("ResetTo and Reset left different bytes")
			}
			if img.Message() != root {
				t.Fatalf("image root %d, want %d", img.Message(), root)
			}
			// Another kind is refused.
			other := kind{v: k.v ^ V2 ^ V3, t: k.t, fixed: k.fixed}
			var ob *Buffer
			if other.fixed {
				ob, _ = NewFixed(make([]byte, 2048), other.opts())
			} else {
				ob = New(2048, other.opts())
			}
			if err := ob.ResetTo(img); !errors.Is(err, ErrCorrupt) {
				t.Fatalf("ResetTo of a %v image into a %v buffer: %v", k, other, err)
			}
			// Bytes that are no image.
			bad := bytes.Clone(image)
			bad[offFreeList] = 3 // not 8-aligned
			if _, err := NewImage(bad); !errors.Is(err, ErrCorrupt) {
				t.Fatalf("NewImage of a misaligned free list: %v", err)
			}
			if _, err := NewImage(image[:10]); err == nil {
				t.Fatal("NewImage of 10 bytes: no error")
			}
			if _, err := NewImage(bytes.Repeat([]byte{0xee}, 64)); err == nil {
				t.Fatal("NewImage of no payload buffer: no error")
			}
		})
	}
}

// TestResetToTightBuffer resets fixed buffers of every size around the one
// a message's creation just fills to the image of that creation made in a
// large buffer. Where the creation left fewer bytes than a free block's
// header, its last allocation took them (takeFirstFit): the reset must
// leave the bytes the creation left in that buffer, which Open accepts,
// not a last block that ends short of the memory (a buffer Open refuses
// as corrupt, which the Clear of a failed root left before).
func TestResetToTightBuffer(t *testing.T) {
	sizes := []int{40, 24, 200} // the creation's allocations (a root, a string, the tables)
	create := func(b *Buffer) bool {
		root := b.Allocate(sizes[0], Zero|Small)
		if root == 0 {
			return false
		}
		b.SetMessage(root)
		for _, n := range sizes[1:] {
			if b.Allocate(n, Small) == 0 {
				return false
			}
		}
		return !b.Failed()
	}
	for _, k := range allKinds() {
		if !k.fixed {
			continue
		}
		t.Run(k.String(), func(t *testing.T) {
			src, err := NewFixed(make([]byte, 4096), k.opts())
			if err != nil {
				t.Fatal(err)
			}
			if !create(src) {
				t.Fatal("the creation does not fit 4096 bytes")
			}
			img, err := NewImage(bytes.Clone(src.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			tight := 0
			for size := len(src.Bytes()) - 16; size <= len(src.Bytes())+24; size++ {
				fresh, err := NewFixed(make([]byte, size), k.opts())
				if err != nil || !create(fresh) {
					continue
				}
				b, _ := NewFixed(make([]byte, size), k.opts())
				create(b)
				b.Allocate(size, 0) // fails: the buffer is full
				if !b.Failed() {
					t.Fatalf("%d bytes: an allocation of the whole memory did not fail", size)
				}
				if err := b.ResetTo(img); err != nil {
					t.Fatalf("%d bytes: %v", size, err)
				}
				if rest := size - len(src.Bytes()); rest > 0 && rest < 8 {
					tight++
				}
				if _, err := Open(bytes.Clone(b.Memory())); err != nil {
					t.Fatalf("%d bytes: after the reset the buffer does not open: %v", size, err)
				}
				if !bytes.Equal(b.Bytes(), fresh.Bytes()) || b.HWM() != fresh.HWM() {
					t.Fatalf("%d bytes: the reset left\n% x\nthe creation\n% x", size, b.Bytes(), fresh.Bytes())
				}
			}
			if tight == 0 {
				t.Fatal("no size left the creation fewer than 8 bytes")
			}
		})
	}
}
