package gen

import "testing"

// TestCopyCuts: the pieces of a copy cover its bytes in order, none
// overlapping, each a multiple of 16 bytes (only the first) or one of 8,
// 4, 2 and 1, smaller as they go.
func TestCopyCuts(t *testing.T) {
	for n := 1; n <= 300; n++ {
		ps := copyCuts(n)
		at := 0
		for i, p := range ps {
			if p.off != at || p.size <= 0 {
				t.Fatalf("n=%d: piece %d is %+v, want one at offset %d", n, i, p, at)
			}
			if p.size%16 == 0 && i != 0 || p.size%16 != 0 && p.size&(p.size-1) != 0 || i > 0 && p.size >= ps[i-1].size {
				t.Fatalf("n=%d: pieces %+v", n, ps)
			}
			at += p.size
		}
		if at != n {
			t.Fatalf("n=%d: pieces %+v cover %d bytes", n, ps, at)
		}
	}
}
