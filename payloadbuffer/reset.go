package payloadbuffer

import (
	"encoding/binary"
	"fmt"
)

// Reset returns the buffer to the state captured in image and clears a
// recorded failure. image is the payload of a buffer of the same format,
// tuning and kind whose free memory was one block at its end (typically a
// copy of Bytes() taken right after the root message was created). Reset
// copies it over the start of the buffer and makes everything after it one
// free block; the buffer keeps its own size. A message runtime uses it to
// clear a root message whose buffer filled up (spec 8.6: "Clear() of the
// main message resets the buffer").
func (b *Buffer) Reset(image []byte) error {
	if len(image) < int(b.hdr) {
		return fmt.Errorf("payloadbuffer: reset image of %d bytes: %w", len(image), ErrTooSmall)
	}
	if !b.sameKind(image) {
		return fmt.Errorf("payloadbuffer: reset image of another format, tuning or kind: %w", ErrCorrupt)
	}
	img, err := checkImage(image, b.hdr)
	if err != nil {
		return err
	}
	return b.reset(&img)
}

// An Image is a payload to reset buffers to, checked once (NewImage): a
// message runtime that clears a root message in a fill/Clear loop resets
// to the same image every time.
type Image struct {
	data     []byte // the image's bytes before its free block's header (a copy)
	hwm      uint32
	captured bool // the free block's header is in the image
	// last is the header offset of the image's last block, the one that
	// ends where the free block starts (0: none, or the blocks do not
	// tile the image): in a buffer too small for a free header after the
	// image, that block takes the bytes left, as the creation's last
	// allocation took them.
	last      uint32
	small, v3 bool // the image's format and tuning
	movable   bool
	// fresh records that the image's small-block structures are empty and
	// its failure flag clear, as in a new message's image: a reset then
	// keeps the scrubbing invariants and the magic it copies.
	fresh bool
}

// NewImage checks image as Reset does, for a buffer of the format, tuning
// and kind its header names, and returns it ready for ResetTo. It copies
// the bytes.
func NewImage(image []byte) (*Image, error) {
	hdr, small, v3, movable := imageKind(image)
	if hdr == 0 || len(image) < int(hdr) {
		return nil, fmt.Errorf("payloadbuffer: image of %d bytes: %w", len(image), ErrCorrupt)
	}
	img, err := checkImage(image, hdr)
	if err != nil {
		return nil, err
	}
	img.data = append([]byte(nil), img.data...)
	img.small, img.v3, img.movable = small, v3, movable
	return &img, nil
}

// Message returns the data offset of the image's root message (0: none).
func (img *Image) Message() uint32 {
	if len(img.data) < offMessage+4 {
		return 0
	}
	return binary.LittleEndian.Uint32(img.data[offMessage:])
}

// ResetTo is Reset to a checked image, which must be of the buffer's
// format, tuning and kind.
func (b *Buffer) ResetTo(img *Image) error {
	if img.v3 != (b.version == V3) || img.small != b.small || img.movable != b.movable {
		return fmt.Errorf("payloadbuffer: reset image of another format, tuning or kind: %w", ErrCorrupt)
	}
	return b.reset(img)
}

// imageKind returns the header size, tuning and format an image's magic
// names (hdr 0: no payload buffer's).
func imageKind(image []byte) (hdr uint32, small, v3, movable bool) {
	switch {
	case len(image) < 4:
		return 0, false, false, false
	case image[0] == v3Byte0 && image[1] == v3Byte1:
		if image[3] != v3Major {
			return 0, false, false, false
		}
		v3, small, movable = true, image[2]&v3FlagSmall != 0, image[2]&v3FlagMovable != 0
	default:
		m := binary.LittleEndian.Uint32(image)
		switch m &^ magicSmallFlag {
		case magicFixedV2:
		case magicMovableV2:
			movable = true
		default:
			return 0, false, false, false
		}
		small = m&magicSmallFlag != 0
	}
	hdr = FixedHeaderSize
	if movable {
		hdr = MovableHeaderSize
	}
	return hdr, small, v3, movable
}

// checkImage checks that image (of header size hdr) ends in its only free
// block, and returns what Reset copies of it.
func checkImage(image []byte, hdr uint32) (Image, error) {
	le := binary.LittleEndian
	mark, hwm := le.Uint32(image[offFreeList:]), le.Uint32(image[offHWM:])
	// The free block's header is in the image, or lies at or past the
	// image's high-water mark (a fresh buffer's payload does not include
	// it); then the image's hwm is kept as it is.
	captured := uint64(mark)+8 <= uint64(len(image))
	if mark < hdr || mark%8 != 0 || uint64(mark) > uint64(len(image)) ||
		(captured && le.Uint32(image[mark+4:]) != 0) || (!captured && mark < hwm) {
		return Image{}, fmt.Errorf("payloadbuffer: reset image does not end in its only free block: %w", ErrCorrupt)
	}
	fresh := mark >= offSmall+16 && le.Uint64(image[offSmall:]) == 0 && le.Uint64(image[offSmall+8:]) == 0 &&
		!(image[0] == v3Byte0 && image[1] == v3Byte1 && image[2]&v3FlagFailed != 0)
	return Image{data: image[:mark], hwm: hwm, captured: captured, fresh: fresh, last: lastBlock(image[:mark], hdr)}, nil
}

// lastBlock returns the header offset of the last of the blocks that tile
// image from hdr to its end (each a length word of 8 bytes, then its
// data), or 0 when they do not tile it.
func lastBlock(image []byte, hdr uint32) uint32 {
	var last uint64
	for x, end := uint64(hdr), uint64(len(image)); x < end; {
		if x+8 > end {
			return 0
		}
		last, x = x, x+8+uint64(binary.LittleEndian.Uint32(image[x:]))
		if x > end {
			return 0
		}
	}
	return uint32(last)
}

// resetZeroMax is the most bytes past the image a scrubbing reset zeroes
// itself (see reset): a few messages' worth of small blocks. Past it (a
// large string or vector), each allocation zeroes only what its caller
// does not overwrite.
const resetZeroMax = 1024

// reset is Reset's work, with img checked.
func (b *Buffer) reset(img *Image) error {
	mark, hwm := uint32(len(img.data)), img.hwm
	if uint64(mark) > uint64(len(b.data)) {
		return fmt.Errorf("payloadbuffer: reset image of %d bytes for a buffer of %d: %w", mark, len(b.data), ErrTooSmall)
	}
	if rest := uint64(len(b.data)) - uint64(mark); rest > 0 && rest < 8 && img.last == 0 {
		return fmt.Errorf("payloadbuffer: reset image of %d bytes for a buffer of %d, whose last block it does not say: %w", mark, len(b.data), ErrTooSmall)
	}
	copy(b.data, img.data)
	full := uint32(len(b.data))
	// Past the image and its free header, the bytes are what the buffer
	// held before: scrubbing zeroes them when an allocation reaches them.
	// When the last message left few of them (below its clean), they are
	// zeroed here in one pass instead, so that the allocations of the next
	// fill, which reach the same bytes, hand out zeroes with no work of
	// their own (a block's zeroing costs more than its bytes' share of one
	// clear).
	old := min(b.clean, full)
	b.clean = min(mark+8, full)
	if b.scrub && old > b.clean && old-b.clean <= resetZeroMax {
		clear(b.data[b.clean:old])
		b.clean = old
	}
	b.put32(offFullSize, full)
	if rest := full - mark; rest >= 8 {
		b.writeFree(mark, rest, 0)
		b.put32(offFreeList, mark)
		if img.captured {
			hwm = max(hwm, mark+8)
		}
	} else {
		// The creation filled the buffer: nothing is free, and its last
		// allocation took the bytes too few for a free block's header
		// (takeFirstFit), which the image, made in another buffer, gives
		// to a free block.
		if rest > 0 {
			b.put32(img.last, b.get32(img.last)+rest)
		}
		b.put32(offFreeList, 0)
		hwm = full
	}
	b.put32(offHWM, min(hwm, full))
	b.failed, b.corrupted = false, false
	// The image's small-block structures hold what its writer left in
	// them; a fresh message's image has none.
	b.zeroed = b.scrub && (!b.small || img.fresh)
	b.garbage, b.reclaimed = nil, false
	b.dropAside()
	if b.version == V2 && b.small {
		for c := range b.runs { // the image has other runs (the storage is kept)
			b.runs[c] = runIndex{words: b.runs[c].words[:0]}
		}
	}
	if !img.fresh || b.version == V2 {
		b.putMagic() // (a fresh v3 image's magic is the buffer's: sameKind)
	}
	return nil
}

// sameKind reports whether image's magic names this buffer's format,
// tuning and kind (ignoring the failure flag).
func (b *Buffer) sameKind(image []byte) bool {
	if b.version == V3 {
		return image[0] == v3Byte0 && image[1] == v3Byte1 && image[3] == v3Major &&
			(image[2]^b.data[2])&^v3FlagFailed == 0
	}
	return binary.LittleEndian.Uint32(image) == binary.LittleEndian.Uint32(b.data)
}
