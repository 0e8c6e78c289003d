package ros

import (
	"fmt"
	"math"
)

// ROS time and duration against google.protobuf.Timestamp and Duration.
//
// ROS writes both canonically, as genpy does: 0 <= nsec < 1e9, the sign in
// sec (a duration of -4.0000005 s is sec -5, nsec 999999500). protobuf keeps
// seconds and nanos of one sign with |nanos| < 1e9. Both sides are
// normalized when converting, so either form converts to the same value.

const nsPerSec = 1_000_000_000

// toROS returns the canonical ROS (sec, nsec) of protobuf seconds and
// nanos.
func toROS(seconds int64, nanos int32) (sec int64, nsec uint32) {
	sec, n := seconds+int64(nanos)/nsPerSec, int64(nanos)%nsPerSec
	if n < 0 {
		sec--
		n += nsPerSec
	}
	return sec, uint32(n)
}

// fromROSTime returns the protobuf Timestamp of a ROS time.
func fromROSTime(sec, nsec uint32) (seconds int64, nanos int32) {
	return int64(sec) + int64(nsec/nsPerSec), int32(nsec % nsPerSec)
}

// fromROSDuration returns the protobuf Duration of a ROS duration: seconds
// and nanos of one sign.
func fromROSDuration(sec, nsec int32) (seconds int64, nanos int32) {
	total := int64(sec)*nsPerSec + int64(nsec)
	return total / nsPerSec, int32(total % nsPerSec)
}

// rosPair converts the two uint32 words of a ROS time or duration to
// protobuf seconds and nanos.
func rosPair(rt Type, sec, nsec uint32) (int64, int32) {
	if rt == Duration {
		return fromROSDuration(int32(sec), int32(nsec))
	}
	return fromROSTime(sec, nsec)
}

// rosWords returns the two uint32 words of the ROS time (rt Time) or
// duration (rt Duration) of protobuf seconds and nanos, canonical, and
// whether ROS can hold it: a time's seconds are a uint32 (from 1970 to
// 2106), a duration's an int32, as genpy packs them ("<2I", "<2i"); a
// negative time or one past 2106 is an error there, not a value that
// wraps.
func rosWords(rt Type, seconds int64, nanos int32) (sec, nsec uint32, ok bool) {
	s, n := toROS(seconds, nanos)
	if rt == Duration {
		return uint32(s), n, s >= math.MinInt32 && s <= math.MaxInt32
	}
	return uint32(s), n, s >= 0 && s <= math.MaxUint32
}

// timeError is the error of a time or duration ROS cannot hold.
func timeError(name string, rt Type, seconds int64, nanos int32) error {
	what := "ROS time (uint32 seconds since 1970)"
	if rt == Duration {
		what = "ROS duration (int32 seconds)"
	}
	return fmt.Errorf("ros: %s: %ds %dns does not fit %s: %w", name, seconds, nanos, what, ErrRange)
}
