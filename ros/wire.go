// Package ros speaks ROS1: it writes and reads the ROS1 serialization of
// Phaser messages straight from and into their payloads, converts between
// protobuf and ROS1 bytes without an intermediate message, and computes ROS
// message definitions and md5sums.
//
// The ROS1 serialization of a message is its fields in declaration order,
// little-endian, with no tags or padding: scalars at the width of their ROS
// type (the phaser.ros_field type, or inferred from the protobuf type),
// strings and bytes as a uint32 length and the bytes, variable arrays as a
// uint32 count and the elements, fixed arrays (phaser.array_size) as exactly
// N elements, nested messages inline, google.protobuf.Timestamp and Duration
// as ROS time (uint32 sec, uint32 nsec) and duration (int32, int32), and a
// oneof as a uint32 discriminator (the active field number, 0 for none)
// followed by the active member.
//
// Values convert exactly or not at all: a stored value its ROS type cannot
// hold (300 in a uint8, a Timestamp of -5 s or 2^40 s in a ROS time) fails
// the serialization, and a ROS value its field cannot hold fails the
// parse, with errors wrapping ErrRange (see scalar.go for the rules).
// Serializing a payload charges what it reads against the payload's
// length, so that a hostile payload whose offsets share or loop fails with
// ErrSharedOffsets rather than write more than a small multiple of itself.
package ros

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// ErrInvalid is wrapped by every error about malformed ROS1 input.
var ErrInvalid = errors.New("invalid ROS1 data")

// Writer appends ROS1 primitives to a byte slice.
type Writer struct {
	Buf []byte
}

// Uint8 appends one byte.
func (w *Writer) Uint8(v uint8) { w.Buf = append(w.Buf, v) }

// Uint16 appends a little-endian uint16.
func (w *Writer) Uint16(v uint16) { w.Buf = binary.LittleEndian.AppendUint16(w.Buf, v) }

// Uint32 appends a little-endian uint32.
func (w *Writer) Uint32(v uint32) { w.Buf = binary.LittleEndian.AppendUint32(w.Buf, v) }

// Uint64 appends a little-endian uint64.
func (w *Writer) Uint64(v uint64) { w.Buf = binary.LittleEndian.AppendUint64(w.Buf, v) }

// Float32 appends an IEEE-754 binary32.
func (w *Writer) Float32(v float32) { w.Uint32(math.Float32bits(v)) }

// Float64 appends an IEEE-754 binary64.
func (w *Writer) Float64(v float64) { w.Uint64(math.Float64bits(v)) }

// String appends a uint32 length and the bytes of s.
func (w *Writer) String(s []byte) error {
	if uint64(len(s)) > math.MaxUint32 {
		return fmt.Errorf("ros: string of %d bytes does not fit a uint32 length", len(s))
	}
	w.Uint32(uint32(len(s)))
	w.Buf = append(w.Buf, s...)
	return nil
}

// Reader consumes ROS1 primitives from a byte slice. Every read is bounds
// checked: a short input gives an error wrapping ErrInvalid, never a panic.
type Reader struct {
	buf []byte
	off int
}

// NewReader returns a Reader over b.
func NewReader(b []byte) *Reader { return &Reader{buf: b} }

// Len returns how many bytes are left.
func (r *Reader) Len() int { return len(r.buf) - r.off }

func (r *Reader) take(n int) ([]byte, error) {
	if n < 0 || n > r.Len() {
		return nil, fmt.Errorf("ros: need %d bytes at offset %d, have %d: %w", n, r.off, r.Len(), ErrInvalid)
	}
	b := r.buf[r.off : r.off+n : r.off+n]
	r.off += n
	return b, nil
}

// Uint8 reads one byte.
func (r *Reader) Uint8() (uint8, error) {
	b, err := r.take(1)
	if err != nil {
		return 0, err
	}
	return b[0], nil
}

// Uint16 reads a little-endian uint16.
func (r *Reader) Uint16() (uint16, error) {
	b, err := r.take(2)
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint16(b), nil
}

// Uint32 reads a little-endian uint32.
func (r *Reader) Uint32() (uint32, error) {
	b, err := r.take(4)
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint32(b), nil
}

// Uint64 reads a little-endian uint64.
func (r *Reader) Uint64() (uint64, error) {
	b, err := r.take(8)
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint64(b), nil
}

// String reads a uint32 length and that many bytes, aliasing the input.
func (r *Reader) String() ([]byte, error) {
	n, err := r.Uint32()
	if err != nil {
		return nil, err
	}
	if uint64(n) > uint64(r.Len()) {
		return nil, fmt.Errorf("ros: string of %d bytes at offset %d, %d left: %w", n, r.off-4, r.Len(), ErrInvalid)
	}
	return r.take(int(n))
}

// Count reads a uint32 element count and checks that the input can hold
// that many elements of at least min bytes each. Elements of no bytes (a
// message with no ROS fields) take none of the input: at most
// ZeroSizeElems more of them than bytes are left are accepted, so that a
// lying count cannot make the reader allocate more than a constant times
// the input.
func (r *Reader) Count(min int) (int, error) {
	n, err := r.Uint32()
	if err != nil {
		return 0, err
	}
	if min < 1 {
		if uint64(n) > uint64(r.Len())+ZeroSizeElems {
			return 0, fmt.Errorf("ros: %d elements of no bytes at offset %d, %d bytes left: %w", n, r.off-4, r.Len(), ErrInvalid)
		}
		return int(n), nil
	}
	if uint64(n)*uint64(min) > uint64(r.Len()) {
		return 0, fmt.Errorf("ros: %d elements of at least %d bytes at offset %d, %d bytes left: %w", n, min, r.off-4, r.Len(), ErrInvalid)
	}
	return int(n), nil
}

// ZeroSizeElems is how many more elements of no bytes than bytes left a
// count may claim (see Reader.Count).
const ZeroSizeElems = 64
