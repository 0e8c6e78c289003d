package payloadbuffer

import (
	"bytes"
	"testing"
)

// TestResetZeroesWhatTheFillLeft checks a scrubbing reset after a small
// fill: it zeroes what the fill left past the image itself, so the next
// fill's allocations hand out zeroes without zeroing of their own, and the
// payload carries nothing of the last fill; after a large fill it leaves
// that to the allocations, as before.
func TestResetZeroesWhatTheFillLeft(t *testing.T) {
	for _, fill := range []int{3, 40} { // blocks of 24 bytes: 72 bytes, then 960 + small headers > resetZeroMax
		for _, v := range []Version{V2, V3} {
			b, err := NewFixed(bytes.Repeat([]byte{0xA5}, 1<<14), Options{Version: v, Scrub: ScrubOn})
			if err != nil {
				t.Fatal(err)
			}
			root := b.Allocate(48, Zero|Small)
			b.SetMessage(root)
			img, err := NewImage(b.Bytes())
			if err != nil {
				t.Fatal(err)
			}
			mark := uint32(len(img.data))
			for range 3 {
				var blocks []uint32
				for range fill {
					p := b.Allocate(24, Small|Overwrite)
					if p == 0 {
						t.Fatal("allocation failed")
					}
					copy(b.data[p:p+24], bytes.Repeat([]byte{0xEE}, 24))
					blocks = append(blocks, p)
				}
				used := b.HWM()
				if err := b.ResetTo(img); err != nil {
					t.Fatal(err)
				}
				if err := checkScrubbed(b); err != nil {
					t.Fatalf("fill %d %v: after the reset: %v", fill, v, err)
				}
				small := fill == 3
				if small != (used-(mark+8) <= resetZeroMax) {
					t.Fatalf("fill %d %v: used %d bytes past the image, resetZeroMax %d: the test needs another fill", fill, v, used-mark, resetZeroMax)
				}
				if got := b.clean > mark+8; got != small {
					t.Errorf("fill %d %v: the reset moved clean from %d to %d (the fill used %d bytes past the image)", fill, v, mark+8, b.clean, used-mark)
				}
				if small && firstNonZero(b.data[mark+8:b.clean]) >= 0 {
					t.Errorf("fill %d %v: a byte below clean is not zero", fill, v)
				}
				for range fill {
					p := b.Allocate(24, Small)
					if p == 0 || firstNonZero(b.data[p:p+24]) >= 0 {
						t.Fatalf("fill %d %v: block %d not handed out zero", fill, v, p)
					}
				}
				if bytes.Contains(b.Bytes(), []byte{0xEE, 0xEE, 0xEE, 0xEE}) {
					t.Errorf("fill %d %v: the payload carries bytes of the last fill", fill, v)
				}
				if err := b.ResetTo(img); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}
