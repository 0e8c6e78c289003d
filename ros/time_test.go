package ros

import "testing"

func TestCanonicalTime(t *testing.T) {
	for _, tc := range []struct {
		seconds int64
		nanos   int32
		sec     int64
		nsec    uint32
	}{
		{0, 0, 0, 0},
		{12, 345, 12, 345},
		{-4, -500, -5, 999999500}, // genpy: Duration(-4, -500).canon()
		{-1, 0, -1, 0},
		{0, -1, -1, 999999999},
		{3, 1_500_000_000, 4, 500_000_000}, // out-of-range nanos are folded in
	} {
		sec, nsec := toROS(tc.seconds, tc.nanos)
		if sec != tc.sec || nsec != tc.nsec {
			t.Errorf("toROS(%d, %d) = (%d, %d), want (%d, %d)", tc.seconds, tc.nanos, sec, nsec, tc.sec, tc.nsec)
		}
		if tc.nanos > -nsPerSec && tc.nanos < nsPerSec && (tc.seconds >= 0) == (tc.nanos >= 0) || tc.nanos == 0 {
			s, n := fromROSDuration(int32(sec), int32(nsec))
			if s != tc.seconds || n != tc.nanos {
				t.Errorf("fromROSDuration(%d, %d) = (%d, %d), want (%d, %d)", sec, nsec, s, n, tc.seconds, tc.nanos)
			}
		}
	}
	if s, n := fromROSTime(5, 2_000_000_001); s != 7 || n != 1 {
		t.Errorf("fromROSTime(5, 2000000001) = (%d, %d), want (7, 1)", s, n)
	}
}
