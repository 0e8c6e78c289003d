package durationpbphaser

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/phaser-go/phaser/runtime"
)

// maxSeconds bounds a valid Duration, as google/protobuf/duration.proto
// defines it: about ±10,000 years.
const maxSeconds = 315576000000

// FromDuration returns a new Duration holding d, as durationpb.New does.
func FromDuration(d time.Duration, opts ...runtime.Options) Duration {
	x := NewDuration(opts...)
	x.SetDuration(d)
	return x
}

// SetDuration stores d in x: whole seconds and the nanoseconds left, of the
// same sign.
func (x Duration) SetDuration(d time.Duration) {
	nanos := d.Nanoseconds()
	x.SetSeconds(nanos / 1e9)
	x.SetNanos(int32(nanos % 1e9))
}

// AsDuration returns x as a time.Duration, as durationpb's AsDuration does:
// a value beyond time.Duration's range saturates to its minimum or maximum.
func (x Duration) AsDuration() time.Duration {
	secs, nanos := x.Seconds(), int64(x.Nanos())
	d := time.Duration(secs) * time.Second
	overflow := d/time.Second != time.Duration(secs)
	d += time.Duration(nanos)
	overflow = overflow || secs < 0 && nanos < 0 && d > 0 || secs > 0 && nanos > 0 && d < 0
	if overflow {
		if secs < 0 {
			return time.Duration(math.MinInt64)
		}
		return time.Duration(math.MaxInt64)
	}
	return d
}

// IsValid reports whether x is a valid Duration (CheckValid is nil).
func (x Duration) IsValid() bool { return x.CheckValid() == nil }

// CheckValid reports why x is not a valid Duration: seconds beyond ±10,000
// years, nanos outside (-1e9, 1e9), or seconds and nanos of opposite signs.
func (x Duration) CheckValid() error {
	secs, nanos := x.Seconds(), x.Nanos()
	switch {
	case secs < -maxSeconds || secs > maxSeconds:
		return fmt.Errorf("duration (%d, %d) beyond ±10000 years: %w", secs, nanos, errInvalid)
	case nanos <= -1e9 || nanos >= 1e9:
		return fmt.Errorf("duration (%d, %d) has nanos out of range: %w", secs, nanos, errInvalid)
	case secs > 0 && nanos < 0 || secs < 0 && nanos > 0:
		return fmt.Errorf("duration (%d, %d) has seconds and nanos of opposite signs: %w", secs, nanos, errInvalid)
	}
	return nil
}

var errInvalid = errors.New("invalid google.protobuf.Duration")
