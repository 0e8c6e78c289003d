package phaserimpl_test

import (
	"bytes"
	"testing"

	"github.com/phaser-go/phaser/runtime/phaserimpl"
)

// TestAppendBytes checks AppendBytes against append for every length of s
// from 0 to 24 and every spare capacity of b around it: the same bytes,
// and nothing written past them in b's backing array.
func TestAppendBytes(t *testing.T) {
	src := []byte("abcdefghijklmnopqrstuvwxyz")
	for n := 0; n <= 24; n++ {
		for spare := 0; spare <= n+8; spare++ {
			const prefix = 3
			back := bytes.Repeat([]byte{0xEE}, prefix+spare+8)
			b := back[: prefix : prefix+spare]
			got := phaserimpl.AppendBytes(b, src[:n])
			want := append([]byte("\xee\xee\xee"), src[:n]...)
			if !bytes.Equal(got, want) {
				t.Fatalf("n=%d spare=%d: got %q, want %q", n, spare, got, want)
			}
			if spare >= n { // appended in place: b's array holds them, and nothing after
				if &got[0] != &back[0] {
					t.Fatalf("n=%d spare=%d: reallocated with room to spare", n, spare)
				}
				for i := prefix + n; i < len(back); i++ {
					if back[i] != 0xEE {
						t.Fatalf("n=%d spare=%d: byte %d past the appended bytes written", n, spare, i)
					}
				}
			}
		}
	}
}

// TestAppendBytesAllocs checks that a string of 8 to 16 bytes appended
// within b's capacity allocates nothing.
func TestAppendBytesAllocs(t *testing.T) {
	b, s := make([]byte, 0, 64), []byte("frame_id_12")
	if n := testing.AllocsPerRun(100, func() { b = phaserimpl.AppendBytes(b[:0], s) }); n != 0 {
		t.Errorf("AppendBytes: %v allocations, want 0", n)
	}
}
