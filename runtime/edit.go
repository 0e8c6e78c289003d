package runtime

import "math"

// Editing list handles in place (spec 8.15): Insert, Erase, Swap, AppendN.

// Insert inserts vs at index i (0 <= i <= Len). It reports false if i is
// out of range or the buffer is full; the list is then unchanged.
func (l Int32List[T]) Insert(i int, vs ...T) bool {
	if len(vs) == 0 {
		return true
	}
	at := l.m.InsertElems(l.f, i, len(vs), 4)
	if at == 0 {
		return false
	}
	for k, v := range vs {
		le.PutUint32(l.m.p.mem[at+4*uint32(k):], uint32(int32(v)))
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
	at := l.m.AppendElems(l.f, n, 4)
	if at == 0 {
		return n <= 0
	}
	for k := range n {
		v := fill(k)
		le.PutUint32(l.m.p.mem[at+4*uint32(k):], uint32(int32(v)))
	}
	return true
}

// Insert inserts vs at index i (0 <= i <= Len). It reports false if i is
// out of range or the buffer is full; the list is then unchanged.
func (l Uint32List) Insert(i int, vs ...uint32) bool {
	if len(vs) == 0 {
		return true
	}
	at := l.m.InsertElems(l.f, i, len(vs), 4)
	if at == 0 {
		return false
	}
	for k, v := range vs {
		le.PutUint32(l.m.p.mem[at+4*uint32(k):], v)
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
	at := l.m.AppendElems(l.f, n, 4)
	if at == 0 {
		return n <= 0
	}
	for k := range n {
		v := fill(k)
		le.PutUint32(l.m.p.mem[at+4*uint32(k):], v)
	}
	return true
}

// Insert inserts vs at index i (0 <= i <= Len). It reports false if i is
// out of range or the buffer is full; the list is then unchanged.
func (l Int64List) Insert(i int, vs ...int64) bool {
	if len(vs) == 0 {
		return true
	}
	at := l.m.InsertElems(l.f, i, len(vs), 8)
	if at == 0 {
		return false
	}
	for k, v := range vs {
		le.PutUint64(l.m.p.mem[at+8*uint32(k):], uint64(v))
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
	at := l.m.AppendElems(l.f, n, 8)
	if at == 0 {
		return n <= 0
	}
	for k := range n {
		v := fill(k)
		le.PutUint64(l.m.p.mem[at+8*uint32(k):], uint64(v))
	}
	return true
}

// Insert inserts vs at index i (0 <= i <= Len). It reports false if i is
// out of range or the buffer is full; the list is then unchanged.
func (l Uint64List) Insert(i int, vs ...uint64) bool {
	if len(vs) == 0 {
		return true
	}
	at := l.m.InsertElems(l.f, i, len(vs), 8)
	if at == 0 {
		return false
	}
	for k, v := range vs {
		le.PutUint64(l.m.p.mem[at+8*uint32(k):], v)
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
	at := l.m.AppendElems(l.f, n, 8)
	if at == 0 {
		return n <= 0
	}
	for k := range n {
		v := fill(k)
		le.PutUint64(l.m.p.mem[at+8*uint32(k):], v)
	}
	return true
}

// Insert inserts vs at index i (0 <= i <= Len). It reports false if i is
// out of range or the buffer is full; the list is then unchanged.
func (l Float32List) Insert(i int, vs ...float32) bool {
	if len(vs) == 0 {
		return true
	}
	at := l.m.InsertElems(l.f, i, len(vs), 4)
	if at == 0 {
		return false
	}
	for k, v := range vs {
		le.PutUint32(l.m.p.mem[at+4*uint32(k):], math.Float32bits(v))
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
	at := l.m.AppendElems(l.f, n, 4)
	if at == 0 {
		return n <= 0
	}
	for k := range n {
		v := fill(k)
		le.PutUint32(l.m.p.mem[at+4*uint32(k):], math.Float32bits(v))
	}
	return true
}

// Insert inserts vs at index i (0 <= i <= Len). It reports false if i is
// out of range or the buffer is full; the list is then unchanged.
func (l Float64List) Insert(i int, vs ...float64) bool {
	if len(vs) == 0 {
		return true
	}
	at := l.m.InsertElems(l.f, i, len(vs), 8)
	if at == 0 {
		return false
	}
	for k, v := range vs {
		le.PutUint64(l.m.p.mem[at+8*uint32(k):], math.Float64bits(v))
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
	at := l.m.AppendElems(l.f, n, 8)
	if at == 0 {
		return n <= 0
	}
	for k := range n {
		v := fill(k)
		le.PutUint64(l.m.p.mem[at+8*uint32(k):], math.Float64bits(v))
	}
	return true
}

// Insert inserts vs at index i (0 <= i <= Len). It reports false if i is
// out of range or the buffer is full; the list is then unchanged.
func (l BoolList) Insert(i int, vs ...bool) bool {
	if len(vs) == 0 {
		return true
	}
	at := l.m.InsertElems(l.f, i, len(vs), 1)
	if at == 0 {
		return false
	}
	for k, v := range vs {
		l.m.p.mem[at+1*uint32(k)] = b2u(v)
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
	at := l.m.AppendElems(l.f, n, 1)
	if at == 0 {
		return n <= 0
	}
	for k := range n {
		v := fill(k)
		l.m.p.mem[at+1*uint32(k)] = b2u(v)
	}
	return true
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
