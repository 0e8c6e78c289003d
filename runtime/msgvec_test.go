package runtime_test

import (
	"bytes"
	"testing"

	"github.com/phaser-go/phaser/runtime"
)

// TestAllocateMessagesV3 checks that Allocate(n) on a v3 message vector
// leaves the bytes that Reserve(n) then n Appends leave (its model), for
// vectors that were empty and that held elements, in fixed buffers of
// every size around the point where they stop fitting.
func TestAllocateMessagesV3(t *testing.T) {
	header, _, arrays := testTypes(t)
	items, seq := field(arrays, "items"), field(header, "seq")
	build := func(mem []byte, before, n int, allocate bool) []byte {
		m, err := runtime.NewIn(arrays, mem)
		if err != nil {
			return nil
		}
		l := runtime.NewMessageList(m, items.Field, items.Type)
		for i := range before {
			l.Append().Set32(seq.Field, uint32(i+1))
		}
		if allocate {
			l.Allocate(n)
		} else {
			l.Clear()
			l.Reserve(n)
			for range n {
				l.Append()
			}
		}
		for i := range l.Len() {
			if e := l.At(i); !e.IsPresent() || e.Get32(seq.Field) != 0 {
				t.Fatalf("element %d of %d: present %v, seq %d", i, l.Len(), e.IsPresent(), e.Get32(seq.Field))
			}
		}
		return append([]byte{byte(l.Len()), byte(l.Len() >> 8), b2b(m.Failed())}, m.PayloadBytes()...)
	}
	for _, n := range []int{1, 2, 7, 300} {
		for _, before := range []int{0, 3} {
			for size := 256; size <= 16384; size += 8 {
				want := build(make([]byte, size), before, n, false)
				got := build(make([]byte, size), before, n, true)
				if !bytes.Equal(got, want) {
					t.Fatalf("n %d after %d in %d bytes: Allocate gave\n% x\nReserve+Append gave\n% x", n, before, size, got, want)
				}
			}
		}
	}
}

func b2b(v bool) byte {
	if v {
		return 1
	}
	return 0
}
