package timestamppbphaser

import (
	"errors"
	"fmt"
	"time"

	"github.com/phaser-go/phaser/runtime"
)

// The range of a valid Timestamp, as google/protobuf/timestamp.proto
// defines it: from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999999Z.
const (
	minSeconds = -62135596800
	maxSeconds = 253402300799
)

// FromTime returns a new Timestamp holding t, as timestamppb.New does.
func FromTime(t time.Time, opts ...runtime.Options) Timestamp {
	x := NewTimestamp(opts...)
	x.SetTime(t)
	return x
}

// SetTime stores t in x (seconds and nanoseconds since the Unix epoch, UTC).
func (x Timestamp) SetTime(t time.Time) {
	x.SetSeconds(t.Unix())
	x.SetNanos(int32(t.Nanosecond()))
}

// AsTime returns x as a time.Time in UTC, as timestamppb's AsTime does: an
// invalid Timestamp (CheckValid) gives a time outside the valid range,
// never an error.
func (x Timestamp) AsTime() time.Time {
	return time.Unix(x.Seconds(), int64(x.Nanos())).UTC()
}

// IsValid reports whether x is a valid Timestamp (CheckValid is nil).
func (x Timestamp) IsValid() bool { return x.CheckValid() == nil }

// CheckValid reports why x is not a valid Timestamp: seconds before year 1
// or after year 9999, or nanos outside [0, 1e9).
func (x Timestamp) CheckValid() error {
	secs, nanos := x.Seconds(), x.Nanos()
	switch {
	case secs < minSeconds:
		return fmt.Errorf("timestamp (%d, %d) before 0001-01-01: %w", secs, nanos, errInvalid)
	case secs > maxSeconds:
		return fmt.Errorf("timestamp (%d, %d) after 9999-12-31: %w", secs, nanos, errInvalid)
	case nanos < 0 || nanos >= 1e9:
		return fmt.Errorf("timestamp (%d, %d) has nanos out of range: %w", secs, nanos, errInvalid)
	}
	return nil
}

var errInvalid = errors.New("invalid google.protobuf.Timestamp")
