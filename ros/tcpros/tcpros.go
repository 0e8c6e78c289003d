// Package tcpros reads and writes TCPROS, the transport of ROS1 topics:
// each side of a connection first sends a connection header, a
// little-endian uint32 byte count followed by fields, each a uint32 byte
// count and "key=value"; then every message goes as a uint32 byte count and
// its ROS1 serialization (package ros writes and reads those bytes).
//
// Package ros is the wire format only; this package is the transport, kept
// apart so that generated handles, which import ros, do not pull it in.
package tcpros

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// MaxHeader bounds the connection headers ReadHeader
// accepts (ROS's own are a few kilobytes: the message definition dominates).
const MaxHeader = 1 << 20

// ErrHeader wraps every error of a malformed connection header.
var ErrHeader = errors.New("tcpros: malformed connection header")

// AppendHeader appends the TCPROS connection header of fields
// (keys in sorted order, so that the bytes are deterministic) to dst.
func AppendHeader(dst []byte, fields map[string]string) []byte {
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

// ParseHeader parses the fields of a connection header (the
// bytes after its byte count). A field without '=' or a count that runs
// past the end is an error wrapping ErrHeader; a repeated key
// keeps its last value.
func ParseHeader(b []byte) (map[string]string, error) {
	fields := make(map[string]string)
	for len(b) > 0 {
		if len(b) < 4 {
			return nil, fmt.Errorf("%w: %d bytes left, want a 4-byte field length", ErrHeader, len(b))
		}
		n := binary.LittleEndian.Uint32(b)
		b = b[4:]
		if uint64(n) > uint64(len(b)) {
			return nil, fmt.Errorf("%w: field of %d bytes with %d left", ErrHeader, n, len(b))
		}
		k, v, ok := strings.Cut(string(b[:n]), "=")
		if !ok {
			return nil, fmt.Errorf("%w: field %q has no '='", ErrHeader, b[:min(n, 64)])
		}
		fields[k] = v
		b = b[n:]
	}
	return fields, nil
}

// ReadHeader reads one connection header from r. A header longer than
// MaxHeader is refused before it is read, and the memory it takes grows with
// the bytes that arrive, never with what the byte count claims.
func ReadHeader(r io.Reader) (map[string]string, error) {
	b, err := readPrefixed(r, nil, MaxHeader)
	switch {
	case errors.Is(err, errTooLong):
		return nil, fmt.Errorf("%w: %w", ErrHeader, err)
	case err != nil:
		return nil, fmt.Errorf("tcpros: read connection header: %w", err)
	}
	return ParseHeader(b)
}

// ErrFrameSize wraps the error of a frame longer than the reader accepts.
var ErrFrameSize = errors.New("tcpros: frame too long")

// ReadFrame reads one length-prefixed TCPROS message from r into buf
// (grown as needed) and returns it. A message longer than max bytes is
// refused before it is read (an error wrapping ErrFrameSize). When buf has
// room for the message, ReadFrame allocates nothing; otherwise the buffer
// grows with the bytes that arrive, so a length prefix the peer never backs
// with data costs no memory. At the end of r before a frame starts it
// returns io.EOF; inside one, io.ErrUnexpectedEOF.
func ReadFrame(r io.Reader, buf []byte, max int) ([]byte, error) {
	b, err := readPrefixed(r, buf, max)
	switch {
	case errors.Is(err, errTooLong):
		return nil, fmt.Errorf("%w: %w", ErrFrameSize, err)
	case err == io.EOF:
		return nil, err
	case err != nil:
		return nil, fmt.Errorf("tcpros: read message: %w", err)
	}
	return b, nil
}

var errTooLong = errors.New("length prefix over the limit")

// growStep is how far readPrefixed grows a buffer ahead of the bytes that
// have arrived.
const growStep = 64 << 10

// readPrefixed reads a little-endian uint32 byte count and that many bytes
// into buf[:0], refusing a count over limit. The buffer grows at most to
// twice the bytes received plus growStep.
func readPrefixed(r io.Reader, buf []byte, limit int) ([]byte, error) {
	buf = slices.Grow(buf[:0], 4)[:4] // the count, read into buf: no escaping local array
	if _, err := io.ReadFull(r, buf); err != nil {
		return nil, err
	}
	size := binary.LittleEndian.Uint32(buf)
	if uint64(size) > uint64(limit) {
		return nil, fmt.Errorf("%w: %d bytes (at most %d)", errTooLong, size, limit)
	}
	n := int(size)
	buf = buf[:0]
	for len(buf) < n {
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, min(n, max(2*len(buf), len(buf)+growStep))-len(buf))
		}
		end := min(n, cap(buf))
		k, err := io.ReadFull(r, buf[len(buf):end])
		buf = buf[:len(buf)+k]
		if err != nil {
			return nil, io.ErrUnexpectedEOF
		}
	}
	return buf, nil
}

// AppendFrame appends msg as a length-prefixed TCPROS message to dst.
func AppendFrame(dst, msg []byte) []byte {
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(msg)))
	return append(dst, msg...)
}
