package timestamppbphaser_test

import (
	"fmt"
	"math"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/phaser-go/phaser/types/known/timestamppbphaser"
)

// TestTimeHelpers checks AsTime, CheckValid and FromTime against
// timestamppb's, valid and invalid values alike.
func TestTimeHelpers(t *testing.T) {
	for _, secs := range []int64{0, 1, -1, 1700000000, -62135596800, -62135596801, 253402300799, 253402300800, math.MaxInt64, math.MinInt64} {
		for _, nanos := range []int32{0, 1, 999999999, 1e9, -1, math.MaxInt32} {
			x := timestamppbphaser.NewTimestamp()
			x.SetSeconds(secs)
			x.SetNanos(nanos)
			ref := &timestamppb.Timestamp{Seconds: secs, Nanos: nanos}
			if got, want := x.AsTime(), ref.AsTime(); !got.Equal(want) || got.Location() != time.UTC {
				t.Errorf("(%d, %d).AsTime() = %v, want %v", secs, nanos, got, want)
			}
			if got, want := x.CheckValid() == nil, ref.CheckValid() == nil; got != want || x.IsValid() != want {
				t.Errorf("(%d, %d): CheckValid = %v, timestamppb's %v", secs, nanos, x.CheckValid(), ref.CheckValid())
			}
		}
	}
	for _, tm := range []time.Time{time.Unix(0, 0), time.Date(2026, 12, 1, 12, 0, 0, 5, time.FixedZone("x", 3600)), time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC), time.Unix(-1, 999999999)} {
		x := timestamppbphaser.FromTime(tm)
		ref := timestamppb.New(tm)
		if x.Seconds() != ref.Seconds || x.Nanos() != ref.Nanos || !x.AsTime().Equal(tm) || x.Failed() {
			t.Errorf("FromTime(%v) = (%d, %d), want (%d, %d)", tm, x.Seconds(), x.Nanos(), ref.Seconds, ref.Nanos)
		}
	}
}

func ExampleFromTime() {
	stamp := timestamppbphaser.FromTime(time.Date(2026, 12, 1, 12, 30, 0, 250, time.UTC))
	fmt.Println(stamp.Seconds(), stamp.Nanos(), stamp.AsTime().Format(time.RFC3339Nano), stamp.IsValid())
	// Output: 1796128200 250 2026-12-01T12:30:00.00000025Z true
}
