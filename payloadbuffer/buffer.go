package payloadbuffer

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Version selects the payload format of a new buffer.
type Version uint8

const (
	// V2 is the C++ Phaser 2.x payload format.
	V2 Version = 2
	// V3 is the Phaser 3 payload format.
	V3 Version = 3
)

func (v Version) String() string {
	switch v {
	case V2:
		return "v2"
	case V3:
		return "v3"
	}
	return fmt.Sprintf("Version(%d)", uint8(v))
}

// Tuning selects the small-block allocator, as C++ Phaser's Tuning does.
type Tuning uint8

const (
	// Performance enables the small-block allocator for requests of at most
	// 128 bytes (C++ kPerformance, the C++ default).
	Performance Tuning = iota
	// Size uses the free list only (C++ kSize): the smallest payloads.
	Size
)

func (t Tuning) String() string {
	if t == Size {
		return "size"
	}
	return "performance"
}

// Scrub selects whether a buffer zeroes what it no longer uses, so that
// its bytes carry nothing the program deleted (see [Options]).
type Scrub uint8

const (
	// ScrubDefault scrubs format-3 buffers and not format-2 ones, whose
	// bytes are C++ Phaser 2.1's, stale ones included.
	ScrubDefault Scrub = iota
	// ScrubOn scrubs a buffer of either format.
	ScrubOn
	// ScrubOff does not scrub: freed blocks keep their bytes, and bytes of
	// fixed memory that no allocation writes keep what the memory held.
	ScrubOff
)

func (s Scrub) String() string {
	switch s {
	case ScrubOn:
		return "on"
	case ScrubOff:
		return "off"
	}
	return "default"
}

// Options configure a new buffer.
type Options struct {
	Version Version // V2 or V3; the zero value means V2.
	Tuning  Tuning  // Performance (the zero value) or Size.
	// Scrub selects whether the buffer zeroes what it stops using: the
	// data of every block it frees, the tail of a block that shrinks or
	// whose string gets shorter, and, in fixed memory, every byte before
	// an allocation hands it out (caller memory never reaches the
	// payload). Its bytes then carry nothing the program deleted or did
	// not write. The default scrubs format 3 only.
	Scrub Scrub
}

// scrubs reports whether a buffer of these options scrubs.
func (o Options) scrubs(v Version) bool {
	return o.Scrub == ScrubOn || o.Scrub == ScrubDefault && v == V3
}

// Header layout (spec section 1).
const (
	offMagic    = 0
	offMessage  = 4
	offHWM      = 8
	offFullSize = 12
	offFreeList = 16
	offMetadata = 20
	offSmall    = 24 // four uint32 slots: bitmap run vectors (v2) or LIFO heads (v3)

	// FixedHeaderSize is the header size of a fixed buffer.
	FixedHeaderSize = 40
	// MovableHeaderSize is the header size of a movable (growable) buffer:
	// the fixed header plus the 8-byte resizer slot that C++ fills with a
	// process pointer and Go leaves zero.
	MovableHeaderSize = 48
)

// Magic values.
const (
	magicFixedV2   = 0xE5F6F1C4
	magicMovableV2 = 0xC5F6F1C4
	magicSmallFlag = 1 // bit 0 of the v2 magic

	v3Byte0       = 'P'
	v3Byte1       = 'H'
	v3Major       = 3
	v3FlagSmall   = 1 << 0
	v3FlagMovable = 1 << 1
	v3FlagFailed  = 1 << 2
)

// maxSize is the largest buffer an offset can address.
const maxSize = 1<<32 - 8

// Errors.
var (
	// ErrTooSmall reports memory too small for the buffer header.
	ErrTooSmall = errors.New("payloadbuffer: memory smaller than the buffer header")
	// ErrFull reports an allocation that did not fit in a fixed buffer, or a
	// buffer that has already failed.
	ErrFull = errors.New("payloadbuffer: buffer full")
	// ErrCorrupt reports bytes that are not a well-formed payload buffer.
	ErrCorrupt = errors.New("payloadbuffer: corrupt buffer")
)

// Buffer is a payload heap inside a []byte. Its methods are not safe for
// concurrent use.
type Buffer struct {
	data    []byte // the whole buffer; len(data) == full_size
	version Version
	small   bool // small-block allocator on (Performance tuning)
	movable bool // owned and growable
	failed  bool
	// corrupted records that the failure was inconsistent bytes, not a
	// full buffer.
	corrupted bool
	// hdr is the header size: FixedHeaderSize or MovableHeaderSize.
	hdr uint32
	// runs indexes the v2 bitmap runs with a free slot, per class.
	runs [4]runIndex
	// garbage holds the blocks Collect found unused, freed when an
	// allocation finds no room.
	garbage []uint32
	scratch struct { // Collect's, kept so that it allocates nothing
		structs, free []uint32
		runs          []uint64
	}
	// aside is the record of the blocks a message runtime set aside
	// (aside.go), shared with it: freed when an allocation finds no room,
	// as garbage is.
	aside []uint32
	retry bool // an allocation found no room with garbage or blocks set aside to free
	// reclaimed records that an allocation freed the garbage.
	reclaimed bool
	// scrub zeroes what the buffer stops using (Options.Scrub); clean is
	// then where the bytes that may hold what the buffer never wrote
	// begin: every byte below it was written or zeroed by the buffer, and
	// an allocation that reaches past it zeroes what it hands out.
	scrub bool
	clean uint32
	// zeroed records that the scrubbing invariants hold (scrub.go): every
	// block an allocation hands out is zero already, so Zero costs nothing.
	zeroed bool
	// noCarve turns carveSmall off, for tests that compare it with the
	// general path.
	noCarve bool
	// noInPlace turns setString's in-place replacement off, for tests that
	// compare it with replaceString's general path.
	noInPlace bool
	fill      uint32 // bytes of the allocation under way that its caller writes (Overwrite)
}

// NewFixed creates an empty buffer in mem, which the buffer uses as it is
// and never grows (caller memory, e.g. shared memory). mem should be
// 8-aligned when it is shared with other processes; its length is the buffer
// size. Bytes that no allocation writes keep what mem held.
func NewFixed(mem []byte, opts Options) (*Buffer, error) {
	if len(mem) < FixedHeaderSize {
		return nil, fmt.Errorf("payloadbuffer: %d bytes: %w", len(mem), ErrTooSmall)
	}
	if len(mem) > maxSize {
		mem = mem[:maxSize]
	}
	b := &Buffer{data: mem, hdr: FixedHeaderSize}
	b.init(opts)
	b.clean = min(b.hdr+8, uint32(len(b.data))) // the header and the first free header
	return b, nil
}

// New creates an empty owned buffer of initial bytes (at least
// MovableHeaderSize) that grows as needed. Its memory is zeroed, so its bytes
// are deterministic. The size is used as given, as C++ CreateDynamicMutable
// does (spec 2.8): a size that is not a multiple of 8 gives a last free block
// of that odd length, and growth doubles it (1001, 2002, 4004, ...).
func New(initial int, opts Options) *Buffer {
	if initial < MovableHeaderSize {
		initial = MovableHeaderSize
	}
	if initial > maxSize {
		initial = maxSize
	}
	b := &Buffer{data: make([]byte, initial), hdr: MovableHeaderSize, movable: true}
	b.init(opts)
	b.clean = uint32(len(b.data)) // zeroed by make
	return b
}

func (b *Buffer) init(opts Options) {
	b.version = opts.Version
	if b.version != V3 {
		b.version = V2
	}
	b.small = opts.Tuning == Performance
	b.scrub = opts.scrubs(b.version)
	b.zeroed = b.scrub
	clear(b.data[:b.hdr])
	b.putMagic()
	b.put32(offFullSize, uint32(len(b.data)))
	// InitFreeList: one free block over everything after the header, if
	// there is room for its 8-byte header (a fixed buffer of 40..47 bytes
	// has none and can hold no block).
	if rest := uint32(len(b.data)) - b.hdr; rest >= 8 {
		b.writeFree(b.hdr, rest, 0)
		b.put32(offFreeList, b.hdr)
	}
	b.put32(offHWM, b.hdr)
}

func (b *Buffer) putMagic() {
	if b.version == V3 {
		flags := byte(0)
		if b.small {
			flags |= v3FlagSmall
		}
		if b.movable {
			flags |= v3FlagMovable
		}
		if b.failed {
			flags |= v3FlagFailed
		}
		b.data[0], b.data[1], b.data[2], b.data[3] = v3Byte0, v3Byte1, flags, v3Major
		return
	}
	m := uint32(magicFixedV2)
	if b.movable {
		m = magicMovableV2
	}
	if b.small {
		m |= magicSmallFlag
	}
	b.put32(offMagic, m)
}

// Open binds a Buffer to memory that already holds a payload buffer, to
// continue writing it: a payload created by this package or by C++ Phaser.
// The format, tuning and buffer kind are read from the header; a format-3
// buffer scrubs (see [Options.Scrub]: the data of its free blocks is zeroed
// first), a format-2 one does not ([Buffer.SetScrub] changes it). mem is the
// whole buffer (at least the header's full_size bytes; the payload's bytes
// past its high-water mark are expected to be zero, as when a received
// payload is copied into zeroed memory). A movable payload becomes an owned,
// growable Buffer that uses mem until it has to grow. A trailing free block
// whose header lies past the high-water mark and reads as zero is rebuilt.
// Open checks the header and the allocator's structures and returns an error
// wrapping ErrCorrupt if they are not consistent.
func Open(mem []byte) (*Buffer, error) {
	if len(mem) < FixedHeaderSize {
		return nil, fmt.Errorf("payloadbuffer: open %d bytes: %w", len(mem), ErrTooSmall)
	}
	b := &Buffer{data: mem}
	switch {
	case mem[0] == v3Byte0 && mem[1] == v3Byte1:
		if mem[3] != v3Major {
			return nil, fmt.Errorf("payloadbuffer: open: format major version %d: %w", mem[3], ErrCorrupt)
		}
		b.version = V3
		b.small = mem[2]&v3FlagSmall != 0
		b.movable = mem[2]&v3FlagMovable != 0
		b.failed = mem[2]&v3FlagFailed != 0
	default:
		m := binary.LittleEndian.Uint32(mem)
		switch m &^ magicSmallFlag {
		case magicFixedV2:
		case magicMovableV2:
			b.movable = true
		default:
			return nil, fmt.Errorf("payloadbuffer: open: magic %#08x: %w", m, ErrCorrupt)
		}
		b.version = V2
		b.small = m&magicSmallFlag != 0
	}
	b.hdr = FixedHeaderSize
	if b.movable {
		b.hdr = MovableHeaderSize
	}
	full := b.get32(offFullSize)
	if uint64(full) > uint64(len(mem)) || full < b.hdr {
		return nil, fmt.Errorf("payloadbuffer: open: full size %d with %d bytes of memory: %w", full, len(mem), ErrCorrupt)
	}
	// Capped at len(mem): an owned buffer grows into the rest of mem, never
	// past it.
	b.data = mem[:full:len(mem)]
	if err := b.check(true); err != nil {
		return nil, fmt.Errorf("payloadbuffer: open: %w", err)
	}
	if b.version == V3 {
		b.SetScrub(true)
	}
	return b, nil
}

// SetScrub turns scrubbing (see [Options.Scrub]) on or off, for a buffer
// continued with [Open], which scrubs format 3 and not format 2. Turning
// it on zeroes the free blocks' data first, whoever freed them.
func (b *Buffer) SetScrub(on bool) {
	b.scrub, b.zeroed = on, false
	if on {
		b.scrubFree()
	}
}

// Scrubs reports whether the buffer zeroes what it stops using.
func (b *Buffer) Scrubs() bool { return b.scrub }

// Bytes returns the payload: the buffer from offset 0 up to the high-water
// mark, which is what a sender transmits. The slice aliases the buffer and is
// valid until the next allocation that grows an owned buffer. A high-water
// mark past the memory (only possible when writes through a payload
// continued with Open overwrote the header) gives the whole memory, and the
// buffer fails with ErrCorrupt.
func (b *Buffer) Bytes() []byte {
	h := b.HWM()
	if uint64(h) > uint64(len(b.data)) || h < b.hdr {
		b.corrupt()
		return b.data
	}
	return b.data[:h]
}

// Memory returns the whole buffer memory, including the free space past the
// high-water mark.
func (b *Buffer) Memory() []byte { return b.data }

// Len returns the size of the buffer memory in bytes (the header's full_size).
func (b *Buffer) Len() int { return len(b.data) }

// HWM returns the high-water mark: how many bytes a sender transmits.
func (b *Buffer) HWM() uint32 { return b.get32(offHWM) }

// Version returns the buffer's format.
func (b *Buffer) Version() Version { return b.version }

// Tuning returns the buffer's allocator tuning.
func (b *Buffer) Tuning() Tuning {
	if b.small {
		return Performance
	}
	return Size
}

// Fixed reports whether the buffer is caller memory that never grows.
func (b *Buffer) Fixed() bool { return !b.movable }

// HeaderSize returns 40 for fixed buffers and 48 for movable ones.
func (b *Buffer) HeaderSize() uint32 { return b.hdr }

// Failed reports whether an allocation has failed because the fixed buffer
// was full, or because the buffer's bytes were found inconsistent (see
// [Buffer.Err]). The failure is sticky until [Buffer.Reset].
func (b *Buffer) Failed() bool { return b.failed }

// Message returns the root message offset stored in the header (0 if none).
func (b *Buffer) Message() uint32 { return b.get32(offMessage) }

// SetMessage stores the root message offset in the header.
func (b *Buffer) SetMessage(off uint32) { b.put32(offMessage, off) }

// Metadata returns the metadata offset stored in the header: the runtime
// control block in Phaser 2.1 and later.
func (b *Buffer) Metadata() uint32 { return b.get32(offMetadata) }

// SetMetadata stores the metadata offset in the header.
func (b *Buffer) SetMetadata(off uint32) { b.put32(offMetadata, off) }

// Finalize sets the header's full_size to the high-water mark, as C++
// Finalize does before a payload is sent. The buffer must not be written
// afterwards.
func (b *Buffer) Finalize() { b.put32(offFullSize, b.HWM()) }

// Uint8 and friends read and write little-endian values at an offset. They
// panic if the access is outside the buffer, as slice indexing does: callers
// hold offsets that the allocator returned.

// Uint8 returns the byte at off.
func (b *Buffer) Uint8(off uint32) uint8 { return b.data[off] }

// PutUint8 stores v at off.
func (b *Buffer) PutUint8(off uint32, v uint8) { b.data[off] = v }

// Uint32 returns the little-endian uint32 at off.
func (b *Buffer) Uint32(off uint32) uint32 { return binary.LittleEndian.Uint32(b.data[off:]) }

// PutUint32 stores v little-endian at off.
func (b *Buffer) PutUint32(off uint32, v uint32) { binary.LittleEndian.PutUint32(b.data[off:], v) }

// Uint64 returns the little-endian uint64 at off.
func (b *Buffer) Uint64(off uint32) uint64 { return binary.LittleEndian.Uint64(b.data[off:]) }

// PutUint64 stores v little-endian at off.
func (b *Buffer) PutUint64(off uint32, v uint64) { binary.LittleEndian.PutUint64(b.data[off:], v) }

// Slice returns the n bytes at off, aliasing the buffer.
func (b *Buffer) Slice(off, n uint32) []byte { return b.data[off : off+n : off+n] }

// le32, le64 and putLE64 read and write little-endian words of a local
// copy of the buffer's slice (hot paths keep one in a register).
func le32(d []byte) uint32       { return binary.LittleEndian.Uint32(d) }
func le64(d []byte) uint64       { return binary.LittleEndian.Uint64(d) }
func putLE64(d []byte, v uint64) { binary.LittleEndian.PutUint64(d, v) }
func putLE32(d []byte, v uint32) { binary.LittleEndian.PutUint32(d, v) }

func (b *Buffer) get32(off uint32) uint32    { return binary.LittleEndian.Uint32(b.data[off:]) }
func (b *Buffer) put32(off uint32, v uint32) { binary.LittleEndian.PutUint32(b.data[off:], v) }

// String returns a short description for debugging.
func (b *Buffer) String() string {
	kind := "fixed"
	if b.movable {
		kind = "owned"
	}
	return fmt.Sprintf("payloadbuffer.Buffer{%s %s %s len=%d hwm=%d failed=%t}",
		b.version, kind, b.Tuning(), len(b.data), b.HWM(), b.failed)
}
