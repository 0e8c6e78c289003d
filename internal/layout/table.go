package layout

import (
	"cmp"
	"encoding/binary"
	"math"
	"slices"
)

// entry is one table entry: a field number and its packed value
// offset | id<<24.
type entry struct {
	number uint32
	packed uint32
}

func pack(offset uint32, id uint8) uint32 { return offset | uint32(id)<<24 }

// denseRange chooses the dense interval [i, j] of the sorted field numbers
// nums exactly as the generator does (spec 4.2): it maximises
// 8*(j-i+1) - 4*(nums[j]-nums[i]+1) in one left-to-right pass with strict
// comparisons, so ties keep the earlier start and the earlier end. ok is
// false when no interval saves anything.
func denseRange(nums []uint32) (i, j int, ok bool) {
	var (
		bestStart      int
		bestStartScore int64 = math.MinInt64
		bestSaving     int64
	)
	for e, n := range nums {
		if s := 4*int64(n) - 8*int64(e); s > bestStartScore {
			bestStart, bestStartScore = e, s
		}
		endScore := 8*int64(e+1) - 4*(int64(n)+1)
		if saving := endScore + bestStartScore; saving > bestSaving {
			bestSaving = saving
			i, j, ok = bestStart, e, true
		}
	}
	return i, j, ok
}

// hybridTable encodes entries (in any order; numbers must be distinct) as a
// hybrid table.
func hybridTable(entries []entry) []byte {
	entries = slices.Clone(entries)
	slices.SortFunc(entries, func(a, b entry) int { return cmp.Compare(a.number, b.number) })
	nums := make([]uint32, len(entries))
	for k, e := range entries {
		nums[k] = e.number
	}
	var base, span uint32
	lo, hi, ok := denseRange(nums)
	if ok {
		base = nums[lo]
		span = nums[hi] - nums[lo] + 1
	} else {
		lo, hi = 0, -1
	}
	sparse := len(entries) - (hi - lo + 1)
	b := make([]byte, 0, 16+4*int(span)+8*sparse)
	b = binary.LittleEndian.AppendUint32(b, HybridMagic)
	b = binary.LittleEndian.AppendUint32(b, base)
	b = binary.LittleEndian.AppendUint32(b, span)
	b = binary.LittleEndian.AppendUint32(b, uint32(sparse))
	dense := make([]uint32, span)
	for _, e := range entries[lo : hi+1] {
		dense[e.number-base] = e.packed
	}
	for _, v := range dense {
		b = binary.LittleEndian.AppendUint32(b, v)
	}
	for k, e := range entries {
		if k < lo || k > hi {
			b = binary.LittleEndian.AppendUint32(b, e.number)
			b = binary.LittleEndian.AppendUint32(b, e.packed)
		}
	}
	return b
}

// legacyTable encodes entries (in any order) as a legacy FieldData table:
// the count, then {number, packed} sorted by number.
func legacyTable(entries []entry) []byte {
	entries = slices.Clone(entries)
	slices.SortFunc(entries, func(a, b entry) int { return cmp.Compare(a.number, b.number) })
	b := make([]byte, 0, 4+8*len(entries))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(entries)))
	for _, e := range entries {
		b = binary.LittleEndian.AppendUint32(b, e.number)
		b = binary.LittleEndian.AppendUint32(b, e.packed)
	}
	return b
}

// tableSize returns the size a table declares in its header, in 64 bits so
// that hostile counts cannot overflow, and where the sorted {number, packed}
// pairs start (the sparse array, or the legacy entries) and how many there
// are. ok is false when b is too short for the header.
func tableSize(b []byte) (size, pairs, count uint64, ok bool) {
	if len(b) < 4 {
		return 0, 0, 0, false
	}
	if binary.LittleEndian.Uint32(b) == HybridMagic {
		if len(b) < 16 {
			return 0, 0, 0, false
		}
		span := uint64(binary.LittleEndian.Uint32(b[8:]))
		count = uint64(binary.LittleEndian.Uint32(b[12:]))
		pairs = 16 + 4*span
		return pairs + 8*count, pairs, count, true
	}
	count = uint64(binary.LittleEndian.Uint32(b))
	return 4 + 8*count, 4, count, true
}

// TableSize returns the length in bytes of the field-metadata table (hybrid
// or legacy) that starts at b[0], as its header declares it. b may extend
// past the table. ok is false when b is too short for the header or for the
// declared table.
func TableSize(b []byte) (n int, ok bool) {
	size, _, _, ok := tableSize(b)
	if !ok || size > uint64(len(b)) {
		return 0, false
	}
	return int(size), true
}

// Lookup resolves a field number through the field-metadata table at
// table[0] (hybrid or legacy, told apart by the first word; spec 4.3, 4.4)
// and returns the field's offset within its message and its id. ok is
// false when the table has no entry for number, when the number falls in
// the dense range on an empty (zero) slot, and when the table is truncated
// or malformed. Lookup never reads outside table. A table whose entries are
// not sorted gives unspecified (but safe) results.
func Lookup(table []byte, number uint32) (offset uint32, id uint8, ok bool) {
	size, pairs, count, ok := tableSize(table)
	if !ok || size > uint64(len(table)) {
		return 0, 0, false
	}
	if binary.LittleEndian.Uint32(table) == HybridMagic {
		base := uint64(binary.LittleEndian.Uint32(table[4:]))
		span := uint64(binary.LittleEndian.Uint32(table[8:]))
		if n := uint64(number); n >= base && n-base < span {
			v := binary.LittleEndian.Uint32(table[16+4*(n-base):])
			if v == 0 {
				return 0, 0, false
			}
			return v & MaxOffset, uint8(v >> 24), true
		}
	}
	// Binary search of the sorted {number, packed} pairs.
	lo, hi := uint64(0), count
	for lo < hi {
		mid := lo + (hi-lo)/2
		p := table[pairs+8*mid:]
		switch n := binary.LittleEndian.Uint32(p); {
		case n == number:
			v := binary.LittleEndian.Uint32(p[4:])
			return v & MaxOffset, uint8(v >> 24), true
		case n < number:
			lo = mid + 1
		default:
			hi = mid
		}
	}
	return 0, 0, false
}

// NextOffset returns the smallest offset greater than offset that an entry
// of the field-metadata table at table[0] gives, and whether there is one.
// The value of the field at offset lies before it (fields do not overlap):
// this bounds how wide the value is, which the table does not record (a
// reader of another version of the .proto, where the field had another
// type, needs it). A truncated or malformed table has no entries. It reads
// every entry: O(entries).
func NextOffset(table []byte, offset uint32) (next uint32, ok bool) {
	size, pairs, count, valid := tableSize(table)
	if !valid || size > uint64(len(table)) {
		return 0, false
	}
	next = ^uint32(0)
	consider := func(v uint32) {
		if o := v & MaxOffset; o > offset && o < next {
			next = o
		}
	}
	if binary.LittleEndian.Uint32(table) == HybridMagic {
		for p := uint64(16); p < pairs; p += 4 {
			if v := binary.LittleEndian.Uint32(table[p:]); v != 0 {
				consider(v)
			}
		}
	}
	for k := uint64(0); k < count; k++ {
		consider(binary.LittleEndian.Uint32(table[pairs+8*k+4:]))
	}
	return next, next != ^uint32(0)
}
