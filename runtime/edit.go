package runtime

import "math"

// Editing list handles in place (spec 8.15): Insert, Erase, Swap, AppendN.

// insertBytes inserts count elements of size bytes at index i of repeated
// field f and returns their stored bytes for the caller to fill, or nil
// (count 0, i out of range or the buffer full).
func (m Msg) insertBytes(f Field, i, count, size int) []byte {
	if count == 0 {
		return nil
	}
	at := m.InsertElems(f, i, count, size)
	if at == 0 {
		return nil
	}
	return m.p.mem[at : at+uint32(count*size)]
}

// appendScalars adds n values of size bytes to repeated field f with at
// most one allocation, value k given as stored bits by bits(k).
func (m Msg) appendScalars(f Field, n, size int, bits func(k int) uint64) bool {
	at := m.AppendElems(f, n, size)
	if at == 0 {
		return n <= 0
	}
	m.storeScalars(at, n, size, bits)
	return true
}

// storeScalars writes count little-endian values of size bytes from at.
func (m Msg) storeScalars(at uint32, count, size int, bits func(k int) uint64) {
	for k := range count {
		o := at + uint32(k*size)
		switch v := bits(k); size {
		case 1:
			m.p.mem[o] = uint8(v)
		case 4:
			le.PutUint32(m.p.mem[o:], uint32(v))
		default:
			le.PutUint64(m.p.mem[o:], v)
		}
	}
}

// Insert inserts vs at index i (0 <= i <= Len). It reports false if i is
// out of range or the buffer is full; the list is then unchanged.
func (l Int32List[T]) Insert(i int, vs ...T) bool {
	b := l.m.insertBytes(l.f, i, len(vs), 4)
	if b == nil {
		return len(vs) == 0
	}
	for k, v := range vs {
		le.PutUint32(b[4*k:], uint32(int32(v)))
	}
	return true
}

// Erase removes elements [i, j).
func (l Int32List[T]) Erase(i, j int) bool { return l.m.EraseElems(l.f, i, j, 4) }

// Swap exchanges the contents of l and o in O(1); both must live in the
// same payload.
func (l Int32List[T]) Swap(o Int32List[T]) bool { return l.m.SwapRepeated(l.f, o.m, o.f) }

// AppendN adds n elements with at most one allocation, element i set to
// fill(i).
func (l Int32List[T]) AppendN(n int, fill func(i int) T) bool {
	return l.m.appendScalars(l.f, n, 4, func(k int) uint64 { v := fill(k); return uint64(uint32(int32(v))) })
}

// Insert inserts vs at index i (0 <= i <= Len). It reports false if i is
// out of range or the buffer is full; the list is then unchanged.
func (l Uint32List) Insert(i int, vs ...uint32) bool {
	b := l.m.insertBytes(l.f, i, len(vs), 4)
	if b == nil {
		return len(vs) == 0
	}
	for k, v := range vs {
		le.PutUint32(b[4*k:], v)
	}
	return true
}

// Erase removes elements [i, j).
func (l Uint32List) Erase(i, j int) bool { return l.m.EraseElems(l.f, i, j, 4) }

// Swap exchanges the contents of l and o in O(1); both must live in the
// same payload.
func (l Uint32List) Swap(o Uint32List) bool { return l.m.SwapRepeated(l.f, o.m, o.f) }

// AppendN adds n elements with at most one allocation, element i set to
// fill(i).
func (l Uint32List) AppendN(n int, fill func(i int) uint32) bool {
	return l.m.appendScalars(l.f, n, 4, func(k int) uint64 { v := fill(k); return uint64(v) })
}

// Insert inserts vs at index i (0 <= i <= Len). It reports false if i is
// out of range or the buffer is full; the list is then unchanged.
func (l Int64List) Insert(i int, vs ...int64) bool {
	b := l.m.insertBytes(l.f, i, len(vs), 8)
	if b == nil {
		return len(vs) == 0
	}
	for k, v := range vs {
		le.PutUint64(b[8*k:], uint64(v))
	}
	return true
}

// Erase removes elements [i, j).
func (l Int64List) Erase(i, j int) bool { return l.m.EraseElems(l.f, i, j, 8) }

// Swap exchanges the contents of l and o in O(1); both must live in the
// same payload.
func (l Int64List) Swap(o Int64List) bool { return l.m.SwapRepeated(l.f, o.m, o.f) }

// AppendN adds n elements with at most one allocation, element i set to
// fill(i).
func (l Int64List) AppendN(n int, fill func(i int) int64) bool {
	return l.m.appendScalars(l.f, n, 8, func(k int) uint64 { v := fill(k); return uint64(v) })
}

// Insert inserts vs at index i (0 <= i <= Len). It reports false if i is
// out of range or the buffer is full; the list is then unchanged.
func (l Uint64List) Insert(i int, vs ...uint64) bool {
	b := l.m.insertBytes(l.f, i, len(vs), 8)
	if b == nil {
		return len(vs) == 0
	}
	for k, v := range vs {
		le.PutUint64(b[8*k:], v)
	}
	return true
}

// Erase removes elements [i, j).
func (l Uint64List) Erase(i, j int) bool { return l.m.EraseElems(l.f, i, j, 8) }

// Swap exchanges the contents of l and o in O(1); both must live in the
// same payload.
func (l Uint64List) Swap(o Uint64List) bool { return l.m.SwapRepeated(l.f, o.m, o.f) }

// AppendN adds n elements with at most one allocation, element i set to
// fill(i).
func (l Uint64List) AppendN(n int, fill func(i int) uint64) bool {
	return l.m.appendScalars(l.f, n, 8, func(k int) uint64 { v := fill(k); return v })
}

// Insert inserts vs at index i (0 <= i <= Len). It reports false if i is
// out of range or the buffer is full; the list is then unchanged.
func (l Float32List) Insert(i int, vs ...float32) bool {
	b := l.m.insertBytes(l.f, i, len(vs), 4)
	if b == nil {
		return len(vs) == 0
	}
	for k, v := range vs {
		le.PutUint32(b[4*k:], math.Float32bits(v))
	}
	return true
}

// Erase removes elements [i, j).
func (l Float32List) Erase(i, j int) bool { return l.m.EraseElems(l.f, i, j, 4) }

// Swap exchanges the contents of l and o in O(1); both must live in the
// same payload.
func (l Float32List) Swap(o Float32List) bool { return l.m.SwapRepeated(l.f, o.m, o.f) }

// AppendN adds n elements with at most one allocation, element i set to
// fill(i).
func (l Float32List) AppendN(n int, fill func(i int) float32) bool {
	return l.m.appendScalars(l.f, n, 4, func(k int) uint64 { v := fill(k); return uint64(math.Float32bits(v)) })
}

// Insert inserts vs at index i (0 <= i <= Len). It reports false if i is
// out of range or the buffer is full; the list is then unchanged.
func (l Float64List) Insert(i int, vs ...float64) bool {
	b := l.m.insertBytes(l.f, i, len(vs), 8)
	if b == nil {
		return len(vs) == 0
	}
	for k, v := range vs {
		le.PutUint64(b[8*k:], math.Float64bits(v))
	}
	return true
}

// Erase removes elements [i, j).
func (l Float64List) Erase(i, j int) bool { return l.m.EraseElems(l.f, i, j, 8) }

// Swap exchanges the contents of l and o in O(1); both must live in the
// same payload.
func (l Float64List) Swap(o Float64List) bool { return l.m.SwapRepeated(l.f, o.m, o.f) }

// AppendN adds n elements with at most one allocation, element i set to
// fill(i).
func (l Float64List) AppendN(n int, fill func(i int) float64) bool {
	return l.m.appendScalars(l.f, n, 8, func(k int) uint64 { v := fill(k); return math.Float64bits(v) })
}

// Insert inserts vs at index i (0 <= i <= Len). It reports false if i is
// out of range or the buffer is full; the list is then unchanged.
func (l BoolList) Insert(i int, vs ...bool) bool {
	b := l.m.insertBytes(l.f, i, len(vs), 1)
	if b == nil {
		return len(vs) == 0
	}
	for k, v := range vs {
		b[k] = b2u(v)
	}
	return true
}

// Erase removes elements [i, j).
func (l BoolList) Erase(i, j int) bool { return l.m.EraseElems(l.f, i, j, 1) }

// Swap exchanges the contents of l and o in O(1); both must live in the
// same payload.
func (l BoolList) Swap(o BoolList) bool { return l.m.SwapRepeated(l.f, o.m, o.f) }

// AppendN adds n elements with at most one allocation, element i set to
// fill(i).
func (l BoolList) AppendN(n int, fill func(i int) bool) bool {
	return l.m.appendScalars(l.f, n, 1, func(k int) uint64 { v := fill(k); return uint64(b2u(v)) })
}

// Insert inserts ss at index i (0 <= i <= Len).
func (l StringList) Insert(i int, ss ...string) bool {
	for k, s := range ss {
		if !l.m.InsertString(l.f, i+k, s) {
			return false
		}
	}
	return true
}

// Erase removes elements [i, j), freeing their strings.
func (l StringList) Erase(i, j int) bool { return l.m.EraseStrings(l.f, i, j) }

// Swap exchanges the contents of l and o in O(1); both must live in the
// same payload.
func (l StringList) Swap(o StringList) bool { return l.m.SwapRepeated(l.f, o.m, o.f) }

// AppendN adds n elements, element i set to fill(i).
func (l StringList) AppendN(n int, fill func(i int) string) bool {
	l.Reserve(l.Len() + n)
	for k := range n {
		l.m.PushString(l.f, fill(k))
	}
	return !l.m.Failed()
}

// Insert inserts a new, empty element at index i and returns it.
func (l MessageList) Insert(i int) Msg { return l.m.InsertMessage(l.f, i, l.t) }

// Erase removes elements [i, j), clearing and freeing them.
func (l MessageList) Erase(i, j int) bool { return l.m.EraseMessages(l.f, i, j, l.t) }

// Swap exchanges the contents of l and o in O(1); both must live in the
// same payload.
func (l MessageList) Swap(o MessageList) bool {
	return l.t == o.t && l.m.SwapRepeated(l.f, o.m, o.f)
}

// AppendN adds n new elements and calls fill for each.
func (l MessageList) AppendN(n int, fill func(i int, elem Msg)) bool {
	l.Reserve(l.Len() + n)
	for k := range n {
		e := l.Append()
		if !e.IsPresent() {
			return false
		}
		fill(k, e)
	}
	return true
}
