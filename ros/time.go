package ros

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
