//go:build linux && (amd64 || arm64)

package shm

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"unicode/utf8"
)

// The channel file, layout version 1. All integers are little-endian.
//
//	header region (headerSize bytes; mapped read-write by subscribers)
//	  0   [8]byte  magic "PHSHMCH1"
//	  8   uint32   layout version (1)
//	  12  uint32   header size (headerSize)
//	  16  uint32   slot size: the most bytes one message may use
//	  20  uint32   slot count
//	  24  uint64   file size: headerSize + slots*stride
//	  32  uint64   incarnation: a random id of the publisher run that made the file
//	  40  uint32   publisher pid (informational; liveness is the file lock)
//	  44  uint16   type name length
//	  46  uint16   reserved (0)
//	  48  [16]byte reserved (0)
//	  64  [512]byte the message type's full name, zero padded
//	  1024 uint64  head: sequence of the last message published (0: none yet)
//	  1152 uint32  event: futex word, advanced when sleeping subscribers are woken
//	  1156 uint32  closed: 1 once the publisher closed the channel
//	  1280 uint32  waiters: subscribers sleeping on event (written by subscribers)
//	slot i at headerSize + i*stride, stride = 64 + slot size rounded up to 64
//	  0   uint64   state: seq<<1 (holds message seq), seq<<1|1 (seq being written), 0 (never used)
//	  8   uint32   size: payload bytes of the message the slot holds
//	  12  [52]byte reserved
//	  64  [slot size]byte the payload
//
// Message seq (1, 2, ...) lives in slot (seq-1) mod slots. head, event,
// closed and waiters sit in cache lines of their own (128-byte apart, the
// unit of the adjacent-line prefetcher) so that a subscriber sleeping or a
// subscriber polling a slot does not contend with the publisher's other
// stores. A slot's control line precedes its payload, so the reader's first
// miss on a new message (the state word) fetches the line beside the
// payload's header.
const (
	magic         = "PHSHMCH1"
	layoutVersion = 1

	// headerSize is the size of the header region: a multiple of every
	// page size Linux uses (4, 16 and 64 KiB), so that the slots can be
	// mapped on their own, read-only. Pages of it that are never touched
	// take no memory.
	headerSize = 64 << 10

	offMagic       = 0
	offVersion     = 8
	offHeaderSize  = 12
	offSlotSize    = 16
	offSlots       = 20
	offFileSize    = 24
	offIncarnation = 32
	offPID         = 40
	offNameLen     = 44
	offName        = 64 // MaxTypeName bytes
	offHead        = 1024
	offEvent       = 1152
	offClosed      = 1156
	offWaiters     = 1280

	// slotHeader is the control line before each slot's payload.
	slotHeader   = 64
	offSlotState = 0
	offSlotLen   = 8

	// readHeader is how many bytes of the file an attach reads (with
	// pread, before mapping anything) to validate the header: up to the
	// end of the type name.
	readHeader = offName + MaxTypeName
)

// Limits of a channel's geometry.
const (
	// MaxTypeName is the longest message type name a channel records.
	MaxTypeName = 512
	// MinSlotSize is the smallest slot: room for a payload header and a
	// small message.
	MinSlotSize = 64
	// MaxSlotSize is the largest slot (payload offsets are 32-bit).
	MaxSlotSize = 1<<32 - 128
	// MaxSlots is the most slots a ring may have.
	MaxSlots = 1 << 20
	// DefaultMaxSize is the largest channel file a subscriber maps unless
	// Options.MaxSize allows more.
	DefaultMaxSize = 4 << 30
)

var le = binary.LittleEndian

// geometry is a channel's shape: what the header says, validated, and kept
// by each process in its own memory (the file's copy may change).
type geometry struct {
	slotSize    uint32
	slots       uint32
	stride      uint64
	size        uint64 // the whole file
	incarnation uint64
	pid         uint32
	typeName    string
}

func strideOf(slotSize uint32) uint64 {
	return slotHeader + (uint64(slotSize)+63)&^63
}

// fileSizeOf is the size of a channel file with this geometry; it fits in
// 64 bits for any uint32 slot size and count.
func fileSizeOf(slotSize, slots uint32) uint64 {
	return headerSize + uint64(slots)*strideOf(slotSize)
}

// checkGeometry validates a publisher's geometry.
func checkGeometry(typeName string, slotSize, slots int) error {
	switch {
	case typeName == "":
		return fmt.Errorf("no message type name")
	case len(typeName) > MaxTypeName:
		return fmt.Errorf("type name of %d bytes (at most %d)", len(typeName), MaxTypeName)
	case !validName(typeName):
		return fmt.Errorf("type name %q is not printable UTF-8", typeName)
	case slotSize < MinSlotSize || slotSize > MaxSlotSize:
		return fmt.Errorf("slot size %d not in [%d, %d]", slotSize, MinSlotSize, MaxSlotSize)
	case slots < 2 || slots > MaxSlots:
		return fmt.Errorf("%d slots not in [2, %d]", slots, MaxSlots)
	}
	return nil
}

func validName(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			return false
		}
	}
	return true
}

// encodeHeader writes g's header into hdr (at least readHeader bytes, zero).
func encodeHeader(hdr []byte, g geometry) {
	copy(hdr[offMagic:], magic)
	le.PutUint32(hdr[offVersion:], layoutVersion)
	le.PutUint32(hdr[offHeaderSize:], headerSize)
	le.PutUint32(hdr[offSlotSize:], g.slotSize)
	le.PutUint32(hdr[offSlots:], g.slots)
	le.PutUint64(hdr[offFileSize:], g.size)
	le.PutUint64(hdr[offIncarnation:], g.incarnation)
	le.PutUint32(hdr[offPID:], g.pid)
	le.PutUint16(hdr[offNameLen:], uint16(len(g.typeName)))
	copy(hdr[offName:offName+MaxTypeName], g.typeName)
}

// decodeHeader validates the header bytes hdr of a channel file of
// fileSize bytes (as fstat reports it) and returns its geometry. It trusts
// nothing in hdr: every field is checked against the others and against
// fileSize, and the size it returns is at most maxSize, so a hostile file
// gives an error, never a panic or a huge mapping.
func decodeHeader(hdr []byte, fileSize int64, maxSize int64) (geometry, error) {
	if len(hdr) < readHeader || fileSize < readHeader {
		return geometry{}, fmt.Errorf("%d bytes, too short for a channel header: %w", fileSize, ErrNotChannel)
	}
	if string(hdr[offMagic:offMagic+len(magic)]) != magic {
		return geometry{}, fmt.Errorf("magic %q: %w", hdr[offMagic:offMagic+len(magic)], ErrNotChannel)
	}
	if v := le.Uint32(hdr[offVersion:]); v != layoutVersion {
		return geometry{}, fmt.Errorf("channel layout version %d (this package reads %d): %w", v, layoutVersion, ErrNotChannel)
	}
	if h := le.Uint32(hdr[offHeaderSize:]); h != headerSize {
		return geometry{}, fmt.Errorf("header size %d (want %d): %w", h, headerSize, ErrCorrupt)
	}
	g := geometry{
		slotSize:    le.Uint32(hdr[offSlotSize:]),
		slots:       le.Uint32(hdr[offSlots:]),
		size:        le.Uint64(hdr[offFileSize:]),
		incarnation: le.Uint64(hdr[offIncarnation:]),
		pid:         le.Uint32(hdr[offPID:]),
	}
	n := int(le.Uint16(hdr[offNameLen:]))
	if n == 0 || n > MaxTypeName {
		return geometry{}, fmt.Errorf("type name length %d: %w", n, ErrCorrupt)
	}
	name := hdr[offName : offName+n]
	if !bytes.Equal(bytes.TrimRight(hdr[offName+n:offName+MaxTypeName], "\x00"), nil) {
		return geometry{}, fmt.Errorf("bytes after the type name: %w", ErrCorrupt)
	}
	g.typeName = string(name)
	if !validName(g.typeName) {
		return geometry{}, fmt.Errorf("type name %q: %w", name, ErrCorrupt)
	}
	if g.slotSize < MinSlotSize || g.slotSize > MaxSlotSize {
		return geometry{}, fmt.Errorf("slot size %d: %w", g.slotSize, ErrCorrupt)
	}
	if g.slots < 2 || g.slots > MaxSlots {
		return geometry{}, fmt.Errorf("%d slots: %w", g.slots, ErrCorrupt)
	}
	g.stride = strideOf(g.slotSize)
	if want := fileSizeOf(g.slotSize, g.slots); g.size != want {
		return geometry{}, fmt.Errorf("header says %d bytes, geometry %d x %d needs %d: %w", g.size, g.slots, g.slotSize, want, ErrCorrupt)
	}
	if g.size != uint64(fileSize) {
		return geometry{}, fmt.Errorf("header says %d bytes, the file has %d: %w", g.size, fileSize, ErrCorrupt)
	}
	if maxSize <= 0 {
		maxSize = DefaultMaxSize
	}
	if g.size > uint64(maxSize) {
		return geometry{}, fmt.Errorf("channel of %d bytes exceeds the %d-byte mapping limit (Options.MaxSize): %w", g.size, maxSize, ErrTooLarge)
	}
	return g, nil
}
