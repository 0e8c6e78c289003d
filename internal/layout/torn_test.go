//go:build !race

// The race detector reports what this test does on purpose (a goroutine
// writing the bytes Lookup reads); scripts/test runs it without it.

package layout

import (
	"encoding/binary"
	"sync"
	"sync/atomic"
	"testing"
)

// TestLookupTorn calls Lookup on tables whose header words another
// goroutine toggles between their value and a lie, the table ending where
// the slice does (as a table at the end of a received payload): Lookup must
// read each word once, so that the size it checked is the size it indexes
// with, and never panic.
func TestLookupTorn(t *testing.T) {
	table := testMessageTable()
	legacy := words(3, 1, 8, 7, 12|1<<24, 900, 16|2<<24)
	for _, tc := range []struct {
		name  string
		table []byte
		word  int    // byte offset of the toggled word
		lie   uint32 // the value it toggles to
	}{
		{"hybrid span", table, 8, 0xFFFFFFFF},
		{"hybrid span, large", table, 8, 1 << 20},
		{"hybrid base", table, 4, 0},
		{"hybrid count", table, 12, 0xFFFFFFFF},
		{"hybrid magic", table, 0, 1000},
		{"legacy count", legacy, 0, 0xFFFFFFFF},
		{"legacy magic", legacy, 0, HybridMagic},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mem := append([]byte(nil), tc.table...)
			truth := binary.LittleEndian.Uint32(mem[tc.word:])
			var stop atomic.Bool
			var wg sync.WaitGroup
			wg.Add(1)
			go func() {
				defer wg.Done()
				// One store per iteration, chosen by the counter (two stores
				// in a row would be one: the compiler drops the first).
				for i := 0; !stop.Load(); i++ {
					v := truth
					if i&1 != 0 {
						v = tc.lie
					}
					binary.LittleEndian.PutUint32(mem[tc.word:], v)
				}
				binary.LittleEndian.PutUint32(mem[tc.word:], truth)
			}()
			defer func() {
				stop.Store(true)
				wg.Wait()
			}()
			numbers := []uint32{1, 7, 100, 105, 117, 118, 200, 900, 1 << 19, 1<<20 + 50}
			for i := range 5_000_000 {
				Lookup(mem, numbers[i%len(numbers)])
			}
		})
	}
}
