package testpbphaser_test

import (
	"bytes"
	"fmt"
	"testing"

	pb "github.com/phaser-go/phaser/internal/testpb/testpbphaser"
)

// TestConcurrentReaders reads one payload from many goroutines at once, a
// received one (whose tables the readers verify, and remember, as they go)
// and one written here and only read meanwhile: every reader sees the whole
// message, and, under the race detector (scripts/test runs it), nothing
// races.
func TestConcurrentReaders(t *testing.T) {
	w := pb.NewEverything()
	fillEverything(t, w)
	for _, tc := range []struct {
		name string
		x    pb.Everything
	}{
		{"received", must(pb.ReadEverything(bytes.Clone(w.Bytes())))},
		{"written", w},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantPB, err := w.MarshalProto()
			if err != nil {
				t.Fatal(err)
			}
			for i := range 8 {
				t.Run(fmt.Sprint("reader", i), func(t *testing.T) {
					t.Parallel()
					for range 20 {
						checkEverything(t, tc.x)
						if got, err := tc.x.MarshalProto(); err != nil || !bytes.Equal(got, wantPB) {
							t.Fatalf("MarshalProto: %v, %d bytes, want %d", err, len(got), len(wantPB))
						}
						if _, err := tc.x.ToProto(); err != nil {
							t.Fatal(err)
						}
					}
				})
			}
		})
	}
}
