package phaserimpl

import (
	"encoding/binary"
	"math"
	"slices"

	"github.com/phaser-go/phaser/internal/impl"
	"github.com/phaser-go/phaser/internal/rostime"
)

// The generated ROS1 codecs.
//
// For each message whose ROS1 form is known when the code is generated,
// protoc-gen-phaser-go writes three functions, straight-line per field:
//
//	size(m Msg, left int) (n, left int, ok bool)
//	append(dst []byte, m Msg, left int) ([]byte, int, bool)
//	read(data []byte, m Msg) (rest []byte, ok bool)
//
// m is a message of the type or absent (which is written as the default
// message); left is the work budget (ROSBudget), which each function
// charges what it reads against, as package ros does, and returns. A
// function reports false, having done what it did, when anything is not
// as the straight-line code expects: a message with a layout other than
// its type's compiled one, a value its ROS type cannot hold, a spent
// budget, a short input, a full buffer. The generated MarshalROS,
// AppendROS, ROSSize and UnmarshalROS then do it again with package ros,
// which handles every layout and reports the error: the generated code is
// the fast path, package ros the reference it must agree with.
//
// Messages of other files are reached through their Type: each generated
// file registers its codecs with RegisterROS, and the code of a file that
// refers to a message of another file finds them with ROSCodecOf.

// ROSCodec is the generated ROS1 codec of a message type.
type ROSCodec struct {
	Size   func(m Msg, left int) (int, int, bool)
	Append func(dst []byte, m Msg, left int) ([]byte, int, bool)
	Read   func(data []byte, m Msg) ([]byte, bool)
}

// RegisterROS records c as the ROS1 codec of t, unless t has one already
// (two packages generated from one .proto), and returns t's codec.
func RegisterROS(t *Type, c *ROSCodec) *ROSCodec {
	return t.StorePlan(impl.GeneratedROS, c).(*ROSCodec)
}

// ROSCodecOf returns the generated ROS1 codec of t, or nil if none was
// registered.
func ROSCodecOf(t *Type) *ROSCodec {
	c, _ := t.Plan(impl.GeneratedROS).(*ROSCodec)
	return c
}

// PrepareDecode readies m, of type t, for a generated ROS1 decoder: a root
// of a payload this process wrote, of a type of strings, scalars and flat
// messages, keeps its blocks for the decoder to reuse (see StartDecode),
// and PrepareDecode reports true; any other message is cleared. The
// decoder calls FinishDecode with the result when it returns.
func PrepareDecode(m Msg, t *Type) bool {
	if m.BeginReuse(t) {
		return true
	}
	m.Clear(t)
	return false
}

// FinishDecode ends the decoding PrepareDecode readied: it frees the
// blocks the decoder did not reuse.
func FinishDecode(m Msg, reused bool) {
	if reused {
		m.EndReuse()
	}
}

// ROSBudget returns the work budget of serializing m, a message of its
// payload: the payload's length and impl.WorkBudgetSlack.
func ROSBudget(m Msg) int { return m.WorkBudget() }

// ROSGrow extends dst by n bytes and returns it and the n new bytes.
func ROSGrow(dst []byte, n int) ([]byte, []byte) {
	l := len(dst)
	if cap(dst)-l < n {
		dst = slices.Grow(dst, n)
	}
	dst = dst[:l+n]
	return dst, dst[l:]
}

// ROSZeros appends n zero bytes to dst: the ROS1 form of a default
// message of n bytes (its smallest size), of n/4 empty strings, ...
func ROSZeros(dst []byte, n int) []byte {
	dst, w := ROSGrow(dst, n)
	clear(w)
	return dst
}

// ROSAppendString appends s as a ROS1 string: a uint32 length, the bytes.
func ROSAppendString(dst, s []byte) []byte {
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(s)))
	return append(dst, s...)
}

// ROSString reads a ROS1 string (a uint32 length, the bytes) at the start
// of data, aliasing it, and returns the bytes after it.
func ROSString(data []byte) (s, rest []byte, ok bool) {
	if len(data) < 4 {
		return nil, data, false
	}
	n := binary.LittleEndian.Uint32(data)
	if uint64(n) > uint64(len(data)-4) {
		return nil, data, false
	}
	return data[4 : 4+n : 4+n], data[4+n:], true
}

// ROSTime returns the ROS time of the google.protobuf.Timestamp m (absent:
// 0), and whether ROS time holds it.
func ROSTime(m Msg) (sec, nsec uint32, ok bool) {
	s, n := timeFields(m)
	return rostime.TimeWords(int64(s), int32(n))
}

// The compiled layout of Timestamp and Duration, as impl.SecondsField and
// impl.NanosField have it: seconds at 8, nanos at 16 (the extent's end),
// their presence bits 0 and 1 of byte 4.
const (
	timeSeconds, timeNanos, timeExtent         = 8, 16, 20
	timePresence, timeHasSeconds, timeHasNanos = 4, 1 << 0, 1 << 1
)

// timeFields returns the seconds and nanos of the Timestamp or Duration m
// (absent: 0): read at their compiled offsets, in line, when m is
// compiled, else through the accessors.
func timeFields(m Msg) (seconds uint64, nanos uint32) {
	b, _, ok := m.CompiledBytes(timeExtent)
	if !ok {
		return m.Get64(impl.SecondsField), m.Get32(impl.NanosField)
	}
	return timeBytes(b)
}

// ROSTimeAt is ROSTime of the Timestamp of type t whose offset s the
// compiled message m holds in a (non-inline) message slot: the
// generated ROS1 encoders' call, which reads a received payload's
// Timestamp with its bytes and table checked in line (Msg.NestedBytes),
// and takes NestedAt for anything else (absent, another layout).
func ROSTimeAt(m Msg, s uint32, t *Type) (sec, nsec uint32, ok bool) {
	if b, ok := m.NestedBytes(s, t, timeExtent); ok {
		seconds, nanos := timeBytes(b)
		return rostime.TimeWords(int64(seconds), int32(nanos))
	}
	return ROSTime(m.NestedAt(s, t))
}

// ROSTimeIn is ROSTime of the compiled Timestamp whose bytes b Msg.NestedBytes
// returned with ok: the generated ROS1 encoders' common path, which
// inlines. It reports false, for ROSTimeAt to decide, unless ok and the
// time is canonical (0 <= nanos < 1e9) with seconds in ROS time's range:
// the only times whose ROS form is their stored words.
func ROSTimeIn(b []byte, ok bool) (sec, nsec uint32, _ bool) {
	if !ok || len(b) < timeExtent {
		return 0, 0, false
	}
	seconds, nanos := timeWords((*[timeExtent]byte)(b))
	return uint32(seconds), nanos, seconds <= math.MaxUint32 && nanos < rostime.NsPerSec
}

// ROSDurationIn is ROSTimeIn for a Duration (ROSDurationAt decides what
// it does not take: seconds outside int32, nanos not canonical).
func ROSDurationIn(b []byte, ok bool) (sec, nsec uint32, _ bool) {
	if !ok || len(b) < timeExtent {
		return 0, 0, false
	}
	seconds, nanos := timeWords((*[timeExtent]byte)(b))
	inInt32 := seconds+1<<31 <= math.MaxUint32 // -1<<31 <= int64(seconds) < 1<<31
	return uint32(seconds), nanos, inInt32 && nanos < rostime.NsPerSec
}

// timeWords is timeBytes without branches: each field's bits masked by
// its presence bit.
func timeWords(p *[timeExtent]byte) (seconds uint64, nanos uint32) {
	pres := p[timePresence]
	seconds = le.Uint64(p[timeSeconds:]) & -uint64(pres&timeHasSeconds)
	nanos = le.Uint32(p[timeNanos:]) & -(uint32(pres&timeHasNanos) >> 1)
	return seconds, nanos
}

// ROSDurationAt is ROSTimeAt for a Duration (ROSDuration).
func ROSDurationAt(m Msg, s uint32, t *Type) (sec, nsec uint32, ok bool) {
	if b, ok := m.NestedBytes(s, t, timeExtent); ok {
		seconds, nanos := timeBytes(b)
		return rostime.DurationWords(int64(seconds), int32(nanos))
	}
	return ROSDuration(m.NestedAt(s, t))
}

// timeBytes returns the seconds and nanos of the compiled Timestamp or
// Duration whose first bytes are b.
func timeBytes(b []byte) (seconds uint64, nanos uint32) {
	if len(b) < timeExtent {
		return 0, 0 // never: for the compiler's bounds checks
	}
	p := (*[timeExtent]byte)(b)
	if p[timePresence]&timeHasSeconds != 0 {
		seconds = le.Uint64(p[timeSeconds:])
	}
	if p[timePresence]&timeHasNanos != 0 {
		nanos = le.Uint32(p[timeNanos:])
	}
	return seconds, nanos
}

// ROSDuration returns the ROS duration of the google.protobuf.Duration m
// (absent: 0), and whether ROS duration holds it.
func ROSDuration(m Msg) (sec, nsec uint32, ok bool) {
	s, n := timeFields(m)
	return rostime.DurationWords(int64(s), int32(n))
}

// SetROSTime stores the ROS time (sec, nsec) in the
// google.protobuf.Timestamp m, and reports whether m is present.
func SetROSTime(m Msg, sec, nsec uint32) bool {
	if !m.IsPresent() {
		return false
	}
	s, n := rostime.FromTime(sec, nsec)
	m.Set64(impl.SecondsField, uint64(s))
	m.Set32(impl.NanosField, uint32(n))
	return true
}

// SetROSDuration stores the ROS duration (sec, nsec: int32 bits) in the
// google.protobuf.Duration m, and reports whether m is present.
func SetROSDuration(m Msg, sec, nsec uint32) bool {
	if !m.IsPresent() {
		return false
	}
	s, n := rostime.FromDuration(int32(sec), int32(nsec))
	m.Set64(impl.SecondsField, uint64(s))
	m.Set32(impl.NanosField, uint32(n))
	return true
}

// ROSPutString writes s as a ROS1 string at w[o:] and returns the offset
// after it.
func ROSPutString(w []byte, o int, s []byte) int {
	binary.LittleEndian.PutUint32(w[o:], uint32(len(s)))
	return o + 4 + copy(w[o+4:], s)
}

// present returns 1 if the presence bit of scalar field f is set in the
// message bytes b, else 0, without a branch.
func present(b []byte, f Field) uint64 { return (uint64(b[f.Byte()]&f.Mask()) + 0xFF) >> 8 }

// ROSGet8 returns the 1-byte value of scalar field f in the message bytes
// b (View.Bytes), or 0 if it is absent: what ROS1 writes for it. b must
// hold the field (the generated code checks its length once).
func ROSGet8(b []byte, f Field) uint8 { return b[f.Offset] & -uint8(present(b, f)) }

// ROSGet32 is ROSGet8 for a 4-byte value.
func ROSGet32(b []byte, f Field) uint32 {
	return binary.LittleEndian.Uint32(b[f.Offset:]) & -uint32(present(b, f))
}

// ROSGet64 is ROSGet8 for an 8-byte value.
func ROSGet64(b []byte, f Field) uint64 {
	return binary.LittleEndian.Uint64(b[f.Offset:]) & -present(b, f)
}

// ROSBool returns the ROS1 bool of a stored bool byte: 1 for any byte but
// 0.
func ROSBool(v uint8) uint8 { return uint8((uint16(v) + 0xFF) >> 8) }

// ROSFloat32 returns the float32 bits of the float64 bits v, rounded, or
// 1<<32 (not a float32) when v is finite and beyond float32's range.
func ROSFloat32(v uint64) uint64 {
	d := math.Float64frombits(v)
	f := float32(d)
	if math.IsInf(float64(f), 0) && !math.IsInf(d, 0) {
		return 1 << 32
	}
	return uint64(math.Float32bits(f))
}
