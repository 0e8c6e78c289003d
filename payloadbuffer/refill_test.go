package payloadbuffer

import (
	"bytes"
	"fmt"
	"testing"
)

// TestRefillString refills every string of 0 to 40 bytes over every old
// string of 0 to 40 bytes, scrubbing or not, in a fixed and an owned v3
// buffer and in a fixed one whose string block ends at the end of its
// memory: RefillString then SetString must leave the bytes SetString
// alone leaves with the in-place paths off (its general path), read back
// the new string, zero the old one's longer tail when scrubbing, and
// write in place exactly when it should.
func TestRefillString(t *testing.T) {
	for _, scrub := range []Scrub{ScrubDefault, ScrubOff} {
		for _, layout := range []string{"fixed", "owned", "atEnd"} {
			k := kind{v: V3, t: Performance, fixed: layout != "owned", scrub: scrub}
			t.Run(fmt.Sprintf("%v/%s", k, layout), func(t *testing.T) {
				var refilled int
				for oldN := 0; oldN <= 40; oldN++ {
					for n := 0; n <= 40; n++ {
						refilled += refillCase(t, k, layout == "atEnd", oldN, n)
					}
				}
				if refilled == 0 {
					t.Fatal("RefillString never wrote in place")
				}
			})
		}
	}
}

// refillCase is one case of TestRefillString; it returns 1 if RefillString
// wrote in place.
func refillCase(t *testing.T, k kind, atEnd bool, oldN, n int) int {
	t.Helper()
	// setup returns a buffer of size bytes (owned if 0) holding the old
	// string, its slot, and the end of the string's block.
	setup := func(size int, noInPlace bool) (*Buffer, uint32, int) {
		var b *Buffer
		var err error
		if size > 0 {
			mem := bytes.Repeat([]byte{0xA5}, size)
			b, err = NewFixed(mem[:size:size], k.opts())
		} else {
			b = New(256, k.opts())
		}
		if err != nil {
			t.Fatal(err)
		}
		b.noInPlace = noInPlace
		slot := b.Allocate(8, Zero)
		if slot == 0 || !b.SetString(slot, string(bytes.Repeat([]byte{'o'}, oldN))) {
			t.Fatalf("old %d: setup failed", oldN)
		}
		blk := b.get32(slot)
		return b, slot, int(blk) + int(b.BlockSize(blk))
	}
	size := 0
	if k.fixed {
		size = 1024
	}
	if atEnd {
		// Memory (length and capacity) that ends at the string block's
		// end, so that RefillString's window does not fit.
		_, _, size = setup(size, false)
	}
	var bufs [2]*Buffer
	var slot uint32
	for i := range bufs {
		var end int
		bufs[i], slot, end = setup(size, i == 1)
		if atEnd && end != len(bufs[i].Memory()) {
			t.Fatalf("old %d: the block ends at %d of %d", oldN, end, len(bufs[i].Memory()))
		}
	}
	s := make([]byte, n)
	for i := range s {
		s[i] = byte('a' + i)
	}
	b := bufs[0]
	blk := b.get32(slot)
	blkSize := uint64(b.BlockSize(blk))
	before := clone(b.Memory())
	in := b.RefillString(slot, string(s))
	want := n <= maxShort && align8(uint64(n)+4) <= blkSize && !(b.scrub && oldN > n && oldN > maxShort) &&
		uint64(blk)+4+maxShort <= uint64(cap(b.data))
	if in != want {
		t.Fatalf("old %d new %d: RefillString %t, want %t", oldN, n, in, want)
	}
	if !in && !bytes.Equal(before, b.Memory()) {
		t.Fatalf("old %d new %d: RefillString false changed the buffer", oldN, n)
	}
	ok := in || b.SetString(slot, string(s))
	if ok1 := bufs[1].SetString(slot, string(s)); ok != ok1 || !ok && !atEnd {
		t.Fatalf("old %d new %d: SetString %t, %t with the in-place paths off", oldN, n, ok, ok1)
	}
	if !bytes.Equal(b.Memory(), bufs[1].Memory()) {
		t.Fatalf("old %d new %d (in place %t): the bytes differ from SetString's", oldN, n, in)
	}
	if !ok {
		if !b.Failed() {
			t.Fatalf("old %d new %d: SetString false on a buffer that has not failed", oldN, n)
		}
		return 0 // full (atEnd); the bytes are those of the general path's failure
	}
	if got := b.StringAt(slot); !bytes.Equal(got, s) {
		t.Fatalf("old %d new %d: read %q back", oldN, n, got)
	}
	if in && b.get32(slot) != blk {
		t.Fatalf("old %d new %d: the block moved", oldN, n)
	}
	if p := b.get32(slot); b.scrub && p == blk && oldN > n {
		tail := b.Memory()[uint64(p)+4+uint64(n) : min(uint64(p)+4+uint64(oldN), uint64(p)+uint64(b.BlockSize(p)))]
		if !bytes.Equal(tail, make([]byte, len(tail))) {
			t.Fatalf("old %d new %d: old tail %q not scrubbed", oldN, n, tail)
		}
	}
	if in {
		return 1
	}
	return 0
}
