package rostime

import (
	"math"
	"testing"
)

func TestCanonical(t *testing.T) {
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
		{-3, math.MinInt32, -6, 852516352},
	} {
		sec, nsec := Canonical(tc.seconds, tc.nanos)
		if sec != tc.sec || nsec != tc.nsec {
			t.Errorf("Canonical(%d, %d) = (%d, %d), want (%d, %d)", tc.seconds, tc.nanos, sec, nsec, tc.sec, tc.nsec)
		}
		if tc.nanos > -NsPerSec && tc.nanos < NsPerSec && (tc.seconds >= 0) == (tc.nanos >= 0) || tc.nanos == 0 {
			s, n := FromDuration(int32(sec), int32(nsec))
			if s != tc.seconds || n != tc.nanos {
				t.Errorf("FromDuration(%d, %d) = (%d, %d), want (%d, %d)", sec, nsec, s, n, tc.seconds, tc.nanos)
			}
		}
	}
	if s, n := FromTime(5, 2_000_000_001); s != 7 || n != 1 {
		t.Errorf("FromTime(5, 2000000001) = (%d, %d), want (7, 1)", s, n)
	}
}

func TestWordsRange(t *testing.T) {
	for _, tc := range []struct {
		seconds     int64
		nanos       int32
		time, durOK bool
	}{
		{0, 0, true, true},
		{-5, 0, false, true},
		{1 << 40, 0, false, false},
		{math.MaxUint32, 999_999_999, true, false},
		{math.MaxUint32, 1_000_000_000, false, false},
		{math.MaxInt32, 0, true, true},
		{math.MinInt32, 0, false, true},
		{math.MinInt32, -1, false, false},
		{0, -1, false, true},
		{math.MaxInt64, 2_000_000_000, false, false}, // folding wraps
		{math.MinInt64, -1, false, false},
	} {
		if _, _, ok := TimeWords(tc.seconds, tc.nanos); ok != tc.time {
			t.Errorf("TimeWords(%d, %d): ok %v, want %v", tc.seconds, tc.nanos, ok, tc.time)
		}
		if _, _, ok := DurationWords(tc.seconds, tc.nanos); ok != tc.durOK {
			t.Errorf("DurationWords(%d, %d): ok %v, want %v", tc.seconds, tc.nanos, ok, tc.durOK)
		}
	}
}
