package ros

import (
	"fmt"

	"github.com/phaser-go/phaser/internal/rostime"
)

// ROS time and duration against google.protobuf.Timestamp and Duration:
// the conversions are package rostime's, which generated code shares.

// rosPair converts the two uint32 words of a ROS time or duration to
// protobuf seconds and nanos.
func rosPair(rt Type, sec, nsec uint32) (int64, int32) {
	if rt == Duration {
		return rostime.FromDuration(int32(sec), int32(nsec))
	}
	return rostime.FromTime(sec, nsec)
}

// rosWords returns the two uint32 words of the ROS time (rt Time) or
// duration (rt Duration) of protobuf seconds and nanos, canonical, and
// whether ROS can hold it.
func rosWords(rt Type, seconds int64, nanos int32) (sec, nsec uint32, ok bool) {
	if rt == Duration {
		return rostime.DurationWords(seconds, nanos)
	}
	return rostime.TimeWords(seconds, nanos)
}

// timeError is the error of a time or duration ROS cannot hold.
func timeError(name string, rt Type, seconds int64, nanos int32) error {
	what := "ROS time (uint32 seconds since 1970)"
	if rt == Duration {
		what = "ROS duration (int32 seconds)"
	}
	return fmt.Errorf("ros: %s: %ds %dns does not fit %s: %w", name, seconds, nanos, what, ErrRange)
}
