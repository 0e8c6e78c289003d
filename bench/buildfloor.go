package bench

import (
	"github.com/phaser-go/phaser/bench/gen/pb/pbphaser"
	"github.com/phaser-go/phaser/payloadbuffer"
)

// build-floor: a hand-written, straight-line Go Clear and fill of a
// SmallStruct payload, the floor of phaser's "build+publish after Clear":
// what a generated Clear-and-fill could do with nothing between it and the
// bytes, leaving the bytes phaser's Clear and setters leave.
//
// It does the work phaser's Clear (the blocks kept, keep.go) and the
// setters that take them back do, with the same checks: the root and both
// string blocks are checked against the payload (a block's start, its
// length word, that it lies in the payload and is one Clear keeps), a
// scrubbing buffer's old string bytes past the new ones are zeroed, and the
// body is zeroed before the fields are stored. What it leaves out is the
// record of the blocks set aside between the Clear and the setters, which a
// fill that knows every field at once does not need. Any case off the
// straight line (a string that does not fit its block, an empty string, a
// block set aside by an earlier Clear, a payload that does not check out)
// is phaser's own Clear and setters, before anything is written.
// TestBuildFloor checks that its bytes are phaser's, value after value.

// floorBuildSmall is warm.Clear() then phSetSmall(warm, v) (buf is warm's
// buffer); it reports whether it took the straight line.
func floorBuildSmall(x pbphaser.SmallStruct, buf *payloadbuffer.Buffer, v *Small) ([]byte, bool) {
	if p := x.Bytes(); buf.Aside() == 0 && floorRefillSmall(p, buf.HeaderSize(), buf.Scrubs(), v) {
		return p, true
	}
	x.Clear()
	phSetSmall(x, v)
	return x.Bytes(), false
}

// floorKeepMax is the largest block phaser's Clear keeps (keep.go's keepMax).
const floorKeepMax = 1024

// floorRefillSmall clears and fills the SmallStruct root of p (whose
// allocations start at hdr) in place, and reports false, having written
// nothing, where it cannot.
func floorRefillSmall(p []byte, hdr uint32, scrub bool, v *Small) bool {
	if len(p) < payloadHeader || p[0] != 'P' || p[1] != 'H' || p[3] != 3 || p[2]&flagFailed != 0 {
		return false
	}
	r := uint64(le.Uint32(p[4:]))
	if r == 0 || r+smallSize > uint64(len(p)) {
		return false
	}
	m := (*[smallSize]byte)(p[r : r+smallSize])
	name, nl, ok := floorBlock(p, hdr, le.Uint32(m[smallName:]), len(v.Name))
	if !ok {
		return false
	}
	phone, pl, ok := floorBlock(p, hdr, le.Uint32(m[smallPhone:]), len(v.Phone))
	if !ok || phone == name {
		return false
	}
	floorOverwrite(p, name, nl, v.Name, scrub)
	floorOverwrite(p, phone, pl, v.Phone, scrub)
	*(*[smallSize - 4]byte)(m[4:]) = [smallSize - 4]byte{} // the Clear: presence words, fields, padding
	m[4] = 0x0f                                            // the four scalars present (SetScalars)
	le.PutUint32(m[smallName:], uint32(name))
	le.PutUint64(m[smallBirthDay:], uint64(v.BirthDay))
	le.PutUint32(m[smallPhone:], uint32(phone))
	le.PutUint32(m[smallSiblings:], uint32(v.Siblings))
	if v.Spouse {
		m[smallSpouse] = 1
	}
	le.PutUint64(m[smallMoney:], f64(v.Money))
	return true
}

// floorBlock returns the string block at s and its length word, and false
// unless it is one phaser's Clear keeps and a string of n > 0 bytes takes
// back (overwriteAside's test).
func floorBlock(p []byte, hdr, s uint32, n int) (uint64, uint64, bool) {
	b := uint64(s)
	if b < uint64(hdr)+8 || b%8 != 0 || b > uint64(len(p)) {
		return 0, 0, false
	}
	length := uint64(le.Uint32(p[b-8 : b-4 : b-4]))
	return b, length, length <= floorKeepMax && b+length <= uint64(len(p)) && n > 0 && (uint64(n)+4+7)&^7 <= length
}

// floorOverwrite writes s over the string block b of length word length:
// its length, its bytes, and in a scrubbing buffer zeroes what is left of
// the old string past them.
func floorOverwrite(p []byte, b, length uint64, s string, scrub bool) {
	blk := p[b : b+length : b+length] // (n+4 <= length: floorBlock)
	old := uint64(le.Uint32(blk[:4]))
	n := uint64(len(s))
	le.PutUint32(blk[:4], uint32(n))
	if n >= 8 && n <= 16 { // two overlapping words, as phaser's take-back writes a short string
		head, tail := strWord(s[:8]), strWord(s[n-8:])
		le.PutUint64(blk[4:12], head)
		le.PutUint64(blk[n-4:n+4], tail)
	} else {
		copy(blk[4:4+n], s)
	}
	if scrub && old > n {
		clear(blk[4+n : min(4+old, length)])
	}
}

// floorBuildSmallCodec is build-floor for SmallStruct (Build only), in a
// warm fixed buffer as phaser's Build.
//
//go:noinline
func floorBuildSmallCodec(shape string, vals []Small) func() *Codec {
	return func() *Codec {
		warm := phaserBuilt(shape, &vals[0], pbphaser.NewSmallStructIn, phSetSmall, nil)
		buf := warm.Msg().Payload().Buffer()
		return &Codec{
			Build: func(i int) []byte {
				b, _ := floorBuildSmall(warm, buf, &vals[i])
				return b
			},
			Decode: phaserDecoder(pbphaser.ReadSmallStruct, phGetSmall),
		}
	}
}

// strWord returns the first 8 bytes of s as a little-endian word (one load).
func strWord(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}
