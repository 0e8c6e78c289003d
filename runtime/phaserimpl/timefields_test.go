package phaserimpl

import (
	"testing"

	"github.com/phaser-go/phaser/internal/impl"
)

// TestTimeLayout checks timeFields' constants against the runtime's
// fields of Timestamp and Duration.
func TestTimeLayout(t *testing.T) {
	for _, c := range []struct {
		f           impl.Field
		off         uint32
		byte_, mask uint8
	}{
		{impl.SecondsField, timeSeconds, timePresence, timeHasSeconds},
		{impl.NanosField, timeNanos, timePresence, timeHasNanos},
	} {
		if c.f.Offset != c.off || c.f.Byte != c.byte_ || c.f.Mask != c.mask {
			t.Errorf("field %d: impl has offset %d, presence %d/%#x; timeFields reads %d, %d/%#x",
				c.f.Number, c.f.Offset, c.f.Byte, c.f.Mask, c.off, c.byte_, c.mask)
		}
	}
	if timeExtent != impl.NanosField.Offset+4 {
		t.Errorf("timeExtent %d, want nanos's end %d", timeExtent, impl.NanosField.Offset+4)
	}
}
