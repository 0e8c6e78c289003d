package layout

import (
	"bytes"
	"math"
	"testing"
)

// testMessageTable is the foo.bar.TestMessage table (spec A.1).
func testMessageTable() []byte {
	return words(HybridMagic, 100, 18, 1,
		8, 16|1<<24, 24, 28, 40|2<<24, 48|2<<24, 56|2<<24,
		96, 96|1<<24, 108, 108|1<<24, 120, 120|1<<24,
		64, 68|2<<24, 72|3<<24, 80|4<<24, 88|5<<24,
		200, 32)
}

var anyTable = words(2, 1, 4, 2, 8)

func TestLookup(t *testing.T) {
	type hit struct {
		number uint32
		offset uint32
		id     uint8
	}
	for _, tc := range []struct {
		name   string
		table  []byte
		hits   []hit
		misses []uint32
	}{
		{
			name:   "hybrid",
			table:  testMessageTable(),
			hits:   []hit{{100, 8, 0}, {101, 16, 1}, {108, 96, 1}, {117, 88, 5}, {200, 32, 0}},
			misses: []uint32{0, 1, 99, 118, 199, 201, 1 << 29, math.MaxUint32},
		},
		{
			name:   "hybrid with hole",
			table:  words(HybridMagic, 10, 3, 2, 8, 0, 12|1<<24, 5, 20, 1000, 24|3<<24),
			hits:   []hit{{5, 20, 0}, {10, 8, 0}, {12, 12, 1}, {1000, 24, 3}},
			misses: []uint32{0, 4, 6, 9, 11, 13, 999, 1001},
		},
		{
			// The dense range wins even if the sparse array has the number.
			name:   "dense zero hides sparse",
			table:  words(HybridMagic, 10, 2, 1, 0, 12, 10, 99),
			hits:   []hit{{11, 12, 0}},
			misses: []uint32{10},
		},
		{
			name:   "only sparse",
			table:  words(HybridMagic, 0, 0, 3, 1000, 8, 3000000, 12, 536870000, 16|2<<24),
			hits:   []hit{{1000, 8, 0}, {3000000, 12, 0}, {536870000, 16, 2}},
			misses: []uint32{0, 1, 999, 1001, 536870001},
		},
		{
			name:   "empty hybrid",
			table:  words(HybridMagic, 0, 0, 0),
			misses: []uint32{0, 1, 100},
		},
		{
			name:   "legacy Any",
			table:  anyTable,
			hits:   []hit{{1, 4, 0}, {2, 8, 0}},
			misses: []uint32{0, 3, math.MaxUint32},
		},
		{
			name:   "empty legacy",
			table:  words(0),
			misses: []uint32{0, 1},
		},
		{
			name:   "dense range at the top",
			table:  words(HybridMagic, math.MaxUint32-1, 2, 0, 8, 12|1<<24),
			hits:   []hit{{math.MaxUint32 - 1, 8, 0}, {math.MaxUint32, 12, 1}},
			misses: []uint32{0, math.MaxUint32 - 2},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n, ok := TableSize(tc.table)
			if !ok || n != len(tc.table) {
				t.Errorf("TableSize = %d, %v; want %d", n, ok, len(tc.table))
			}
			// Trailing bytes do not change anything.
			padded := append(bytes.Clone(tc.table), 0xEE, 0xEE, 0xEE, 0xEE, 1, 2, 3, 4)
			if n, ok := TableSize(padded); !ok || n != len(tc.table) {
				t.Errorf("TableSize(padded) = %d, %v; want %d", n, ok, len(tc.table))
			}
			for _, h := range tc.hits {
				for _, tab := range [][]byte{tc.table, padded} {
					off, id, ok := Lookup(tab, h.number)
					if !ok || off != h.offset || id != h.id {
						t.Errorf("Lookup(%d) = %d, %d, %v; want %d, %d", h.number, off, id, ok, h.offset, h.id)
					}
				}
			}
			for _, n := range tc.misses {
				if off, id, ok := Lookup(tc.table, n); ok {
					t.Errorf("Lookup(%d) = %d, %d, true; want not found", n, off, id)
				}
			}
			// Every truncation is rejected as a whole.
			for l := range len(tc.table) {
				if n, ok := TableSize(tc.table[:l]); ok {
					t.Errorf("TableSize(table[:%d]) = %d, true", l, n)
				}
				for _, h := range tc.hits {
					if _, _, ok := Lookup(tc.table[:l], h.number); ok {
						t.Errorf("Lookup(table[:%d], %d) found", l, h.number)
					}
				}
			}
		})
	}
}

func TestLookupHostile(t *testing.T) {
	for _, table := range [][]byte{
		nil,
		{0x31, 0x44, 0x48},
		words(HybridMagic),
		words(HybridMagic, 0, 0),
		words(HybridMagic, 0, math.MaxUint32, 0),
		words(HybridMagic, 0, 0, math.MaxUint32),
		words(HybridMagic, 0, math.MaxUint32, math.MaxUint32, 1, 2, 3, 4),
		words(HybridMagic, math.MaxUint32, math.MaxUint32, math.MaxUint32),
		words(HybridMagic, 1, 1<<30, 0, 8),
		words(math.MaxUint32, 1, 8),
		words(1<<29, 1, 8),
		words(3, 1, 8, 2, 12),
	} {
		for _, n := range []uint32{0, 1, 2, 100, 1 << 30, math.MaxUint32} {
			if off, id, ok := Lookup(table, n); ok {
				t.Errorf("Lookup(% x, %d) = %d, %d, true", table, n, off, id)
			}
		}
		if n, ok := TableSize(table); ok {
			t.Errorf("TableSize(% x) = %d, true", table, n)
		}
	}
}

func TestTableEncoding(t *testing.T) {
	// Entries are sorted by the encoders.
	entries := []entry{{200, 32}, {3, 12}, {1, 8}, {2, pack(10, 1)}}
	if got, want := hybridTable(entries), words(HybridMagic, 1, 3, 1, 8, 10|1<<24, 12, 200, 32); !bytes.Equal(got, want) {
		t.Errorf("hybridTable = % x, want % x", got, want)
	}
	if got, want := legacyTable(entries), words(4, 1, 8, 2, 10|1<<24, 3, 12, 200, 32); !bytes.Equal(got, want) {
		t.Errorf("legacyTable = % x, want % x", got, want)
	}
	if got := hybridTable(nil); !bytes.Equal(got, words(HybridMagic, 0, 0, 0)) {
		t.Errorf("hybridTable(nil) = % x", got)
	}
}

// FuzzLookup checks that arbitrary table bytes never make Lookup or
// TableSize panic or read outside the table, and that they agree.
func FuzzLookup(f *testing.F) {
	f.Add(testMessageTable(), uint32(117))
	f.Add(anyTable, uint32(2))
	f.Add(words(HybridMagic, 10, 3, 2, 8, 0, 12|1<<24, 5, 20, 1000, 24|3<<24), uint32(1000))
	f.Add(words(HybridMagic, 0, math.MaxUint32, math.MaxUint32), uint32(5))
	f.Add([]byte{}, uint32(0))
	f.Fuzz(func(t *testing.T, table []byte, number uint32) {
		// A copy with no spare capacity, so that any read past the end
		// panics.
		exact := bytes.Clone(table)[:len(table):len(table)]
		off, id, ok := Lookup(exact, number)
		n, sizeOK := TableSize(exact)
		if sizeOK && (n < 4 || n > len(exact)) {
			t.Fatalf("TableSize = %d for %d bytes", n, len(exact))
		}
		if ok && !sizeOK {
			t.Fatal("Lookup found a field in a table TableSize rejects")
		}
		if ok && off > MaxOffset {
			t.Fatalf("offset %#x exceeds 24 bits", off)
		}
		if sizeOK {
			// Bytes after the table do not matter.
			off2, id2, ok2 := Lookup(exact[:n:n], number)
			if off2 != off || id2 != id || ok2 != ok {
				t.Fatalf("Lookup(table[:%d]) = %d, %d, %v; Lookup(table) = %d, %d, %v", n, off2, id2, ok2, off, id, ok)
			}
		}
	})
}
