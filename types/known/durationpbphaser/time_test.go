package durationpbphaser_test

import (
	"fmt"
	"math"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/phaser-go/phaser/types/known/durationpbphaser"
)

// TestDurationHelpers checks AsDuration, CheckValid and FromDuration
// against durationpb's, saturation and invalid values included.
func TestDurationHelpers(t *testing.T) {
	for _, secs := range []int64{0, 1, -1, 9223372036, -9223372036, 9223372037, -9223372037, 315576000000, 315576000001, -315576000001, math.MaxInt64, math.MinInt64} {
		for _, nanos := range []int32{0, 1, -1, 854775807, 854775808, -854775808, -854775809, 999999999, -999999999, 1e9, -1e9} {
			x := durationpbphaser.NewDuration()
			x.SetSeconds(secs)
			x.SetNanos(nanos)
			ref := &durationpb.Duration{Seconds: secs, Nanos: nanos}
			if got, want := x.AsDuration(), ref.AsDuration(); got != want {
				t.Errorf("(%d, %d).AsDuration() = %v, want %v", secs, nanos, got, want)
			}
			if got, want := x.CheckValid() == nil, ref.CheckValid() == nil; got != want || x.IsValid() != want {
				t.Errorf("(%d, %d): CheckValid = %v, durationpb's %v", secs, nanos, x.CheckValid(), ref.CheckValid())
			}
		}
	}
	for _, d := range []time.Duration{0, 1, -1, 1500 * time.Millisecond, -1500 * time.Millisecond, math.MaxInt64, math.MinInt64} {
		x := durationpbphaser.FromDuration(d)
		ref := durationpb.New(d)
		if x.Seconds() != ref.Seconds || x.Nanos() != ref.Nanos || x.AsDuration() != d || x.Failed() {
			t.Errorf("FromDuration(%v) = (%d, %d), want (%d, %d)", d, x.Seconds(), x.Nanos(), ref.Seconds, ref.Nanos)
		}
	}
}

func ExampleFromDuration() {
	d := durationpbphaser.FromDuration(-1500 * time.Millisecond)
	fmt.Println(d.Seconds(), d.Nanos(), d.AsDuration(), d.IsValid())
	// Output: -1 -500000000 -1.5s true
}
