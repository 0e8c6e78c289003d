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
