package ros

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// TCPROS, the transport of ROS1 topics: each side of a connection first
// sends a connection header, a little-endian uint32 byte count followed by
// fields, each a uint32 byte count and "key=value"; then every message goes
// as a uint32 byte count and its ROS1 serialization.

// MaxConnectionHeader bounds the connection headers ReadConnectionHeader
// accepts (ROS's own are a few kilobytes: the message definition dominates).
const MaxConnectionHeader = 1 << 20

// ErrConnectionHeader wraps every error of a malformed connection header.
var ErrConnectionHeader = errors.New("ros: malformed TCPROS connection header")

// AppendConnectionHeader appends the TCPROS connection header of fields
// (keys in sorted order, so that the bytes are deterministic) to dst.
func AppendConnectionHeader(dst []byte, fields map[string]string) []byte {
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	start := len(dst)
	dst = binary.LittleEndian.AppendUint32(dst, 0)
	for _, k := range keys {
		dst = binary.LittleEndian.AppendUint32(dst, uint32(len(k)+1+len(fields[k])))
		dst = append(dst, k...)
		dst = append(dst, '=')
		dst = append(dst, fields[k]...)
	}
	binary.LittleEndian.PutUint32(dst[start:], uint32(len(dst)-start-4))
	return dst
}

// ParseConnectionHeader parses the fields of a connection header (the
// bytes after its byte count). A field without '=' or a count that runs
// past the end is an error wrapping ErrConnectionHeader; a repeated key
// keeps its last value.
func ParseConnectionHeader(b []byte) (map[string]string, error) {
	fields := make(map[string]string)
	for len(b) > 0 {
		if len(b) < 4 {
			return nil, fmt.Errorf("%w: %d bytes left, want a 4-byte field length", ErrConnectionHeader, len(b))
		}
		n := binary.LittleEndian.Uint32(b)
		b = b[4:]
		if uint64(n) > uint64(len(b)) {
			return nil, fmt.Errorf("%w: field of %d bytes with %d left", ErrConnectionHeader, n, len(b))
		}
		k, v, ok := strings.Cut(string(b[:n]), "=")
		if !ok {
			return nil, fmt.Errorf("%w: field %q has no '='", ErrConnectionHeader, b[:min(n, 64)])
		}
		fields[k] = v
		b = b[n:]
	}
	return fields, nil
}

// ReadConnectionHeader reads one connection header from r. A header longer
// than MaxConnectionHeader is refused before it is read.
func ReadConnectionHeader(r io.Reader) (map[string]string, error) {
	var n [4]byte
	if _, err := io.ReadFull(r, n[:]); err != nil {
		return nil, fmt.Errorf("ros: read connection header: %w", err)
	}
	size := binary.LittleEndian.Uint32(n[:])
	if size > MaxConnectionHeader {
		return nil, fmt.Errorf("%w: %d bytes (at most %d)", ErrConnectionHeader, size, MaxConnectionHeader)
	}
	b := make([]byte, size)
	if _, err := io.ReadFull(r, b); err != nil {
		return nil, fmt.Errorf("ros: read connection header: %w", err)
	}
	return ParseConnectionHeader(b)
}

// ReadFrame reads one length-prefixed TCPROS message from r into buf
// (grown as needed) and returns it. A message longer than max bytes is
// refused before it is read.
func ReadFrame(r io.Reader, buf []byte, max int) ([]byte, error) {
	var n [4]byte
	if _, err := io.ReadFull(r, n[:]); err != nil {
		return nil, err
	}
	size := binary.LittleEndian.Uint32(n[:])
	if uint64(size) > uint64(max) {
		return nil, fmt.Errorf("ros: TCPROS message of %d bytes (at most %d)", size, max)
	}
	buf = slices.Grow(buf[:0], int(size))[:size]
	if _, err := io.ReadFull(r, buf); err != nil {
		return nil, fmt.Errorf("ros: read TCPROS message: %w", io.ErrUnexpectedEOF)
	}
	return buf, nil
}

// AppendFrame appends msg as a length-prefixed TCPROS message to dst.
func AppendFrame(dst, msg []byte) []byte {
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(msg)))
	return append(dst, msg...)
}
