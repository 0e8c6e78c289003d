// Package rostime converts between ROS1 time and duration and protobuf's
// google.protobuf.Timestamp and Duration, for package ros and for the ROS1
// codecs of generated code (through runtime/phaserimpl), which must agree
// to the bit.
//
// ROS writes both canonically, as genpy does: 0 <= nsec < 1e9, the sign in
// sec (a duration of -4.0000005 s is sec -5, nsec 999999500). protobuf keeps
// seconds and nanos of one sign with |nanos| < 1e9. Both sides are
// normalized when converting, so either form converts to the same value. A
// ROS time's seconds are a uint32 (1970 to 2106) and a duration's an int32,
// as genpy packs them ("<2I", "<2i"): a value outside is an error, not one
// that wraps.
package rostime

import "math"

// NsPerSec is the number of nanoseconds in a second.
const NsPerSec = 1_000_000_000

// Canonical returns the canonical ROS (sec, nsec) of protobuf seconds and
// nanos: 0 <= nsec < 1e9. (Folding the nanos into seconds at the edge of
// int64 wraps; the result is then far outside what ROS holds.)
func Canonical(seconds int64, nanos int32) (sec int64, nsec uint32) {
	if uint32(nanos) < NsPerSec { // 0 <= nanos < 1e9: canonical already
		return seconds, uint32(nanos)
	}
	sec, n := seconds+int64(nanos)/NsPerSec, int64(nanos)%NsPerSec
	if n < 0 {
		sec--
		n += NsPerSec
	}
	return sec, uint32(n)
}

// TimeWords returns the two words of the ROS time of a Timestamp, and
// whether ROS time holds it.
func TimeWords(seconds int64, nanos int32) (sec, nsec uint32, ok bool) {
	s, n := Canonical(seconds, nanos)
	return uint32(s), n, uint64(s) <= math.MaxUint32
}

// DurationWords returns the two words of the ROS duration of a Duration
// (int32 bits), and whether ROS duration holds it.
func DurationWords(seconds int64, nanos int32) (sec, nsec uint32, ok bool) {
	s, n := Canonical(seconds, nanos)
	return uint32(s), n, s >= math.MinInt32 && s <= math.MaxInt32
}

// FromTime returns the protobuf Timestamp of a ROS time.
func FromTime(sec, nsec uint32) (seconds int64, nanos int32) {
	if nsec < NsPerSec {
		return int64(sec), int32(nsec)
	}
	return int64(sec) + int64(nsec/NsPerSec), int32(nsec % NsPerSec)
}

// FromDuration returns the protobuf Duration of a ROS duration: seconds and
// nanos of one sign.
func FromDuration(sec, nsec int32) (seconds int64, nanos int32) {
	total := int64(sec)*NsPerSec + int64(nsec)
	return total / NsPerSec, int32(total % NsPerSec)
}
