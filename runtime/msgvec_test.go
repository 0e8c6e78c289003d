package runtime_test

import (
	"bytes"
	"testing"

	"github.com/phaser-go/phaser/payloadbuffer"
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
		return append([]byte{byte(l.Len()), byte(l.Len() >> 8), b2u(m.Failed())}, m.PayloadBytes()...)
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

// TestMessageListAll compares All with At (its model: the same handles,
// index by index) on v2 and v3 lists spanning several chunks, written,
// read back, truncated at every length, and absent, and checks that
// breaking out of the loop stops it.
func TestMessageListAll(t *testing.T) {
	header, _, arrays := testTypes(t)
	items, seq := field(arrays, "items"), field(header, "seq")
	check := func(name string, l runtime.MessageList) {
		t.Helper()
		n := 0
		for i, e := range l.All() {
			if i != n || e != l.At(i) {
				t.Fatalf("%s: All gave element %d (want index %d) %+v, At gives %+v", name, i, n, e, l.At(i))
			}
			n++
		}
		if n != l.Len() {
			t.Fatalf("%s: All gave %d elements, Len is %d", name, n, l.Len())
		}
		if n > 1 {
			k := 0
			for range l.All() {
				if k++; k == 1 {
					break
				}
			}
			if k != 1 {
				t.Fatalf("%s: All went on after break", name)
			}
		}
	}
	for _, v := range []payloadbuffer.Version{payloadbuffer.V3, payloadbuffer.V2} {
		m := runtime.New(arrays, runtime.Options{Version: v})
		l := runtime.NewMessageList(m, items.Field, items.Type)
		check("empty", l)
		for i := range 23 { // chunks of 2, 4, 8, 16
			l.Append().Set32(seq.Field, uint32(i+1))
		}
		check("written", l)
		var sum uint32
		if a := testing.AllocsPerRun(10, func() {
			for _, e := range l.All() {
				sum += e.Get32(seq.Field)
			}
		}); a != 0 {
			t.Fatalf("v%d: ranging over All allocates %v", v, a)
		}
		for i, e := range l.All() { // writing the elements is fine
			e.Set32(seq.Field, uint32(2*i))
		}
		for i := range l.Len() {
			if got := l.At(i).Get32(seq.Field); got != uint32(2*i) {
				t.Fatalf("v%d: element %d seq %d after writing through All", v, i, got)
			}
		}
		data := bytes.Clone(m.PayloadBytes())
		for n := 0; n <= len(data); n++ {
			r, err := runtime.Read(arrays, data[:n:n])
			if err != nil {
				continue
			}
			check("read", runtime.NewMessageList(r, items.Field, items.Type))
		}
	}
	check("zero", runtime.NewMessageList(runtime.Msg{}, items.Field, items.Type))
}
