package impl_test

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/phaser-go/phaser/internal/impl"
	"github.com/phaser-go/phaser/payloadbuffer"
)

// TestAllocateMessagesV3 checks that Allocate(n) on a v3 message vector
// leaves the bytes that Reserve(n) then n Appends leave (its model), for
// vectors that were empty and that held elements, in fixed buffers of
// every size around the point where they stop fitting.
func TestAllocateMessagesV3(t *testing.T) {
	header, _, arrays := testTypes(t)
	items, seq := field(arrays, "items"), field(header, "seq")
	build := func(mem []byte, before, n int, allocate bool) []byte {
		m, err := impl.NewIn(arrays, mem)
		if err != nil {
			return nil
		}
		l := impl.NewMessageList(m, items.Field, items.Type)
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
	check := func(name string, m impl.Msg) {
		t.Helper()
		l := impl.NewMessageList(m, items.Field, items.Type)
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
		k := 0 // MessagesOf is the same walk, through the FieldInfo
		for i, e := range m.MessagesOf(items) {
			if i != k || e != l.At(i) {
				t.Fatalf("%s: MessagesOf gave element %d (want index %d) %+v, At gives %+v", name, i, k, e, l.At(i))
			}
			k++
		}
		if k != n {
			t.Fatalf("%s: MessagesOf gave %d elements, All %d", name, k, n)
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
		m := impl.New(arrays, impl.Options{Version: v})
		l := impl.NewMessageList(m, items.Field, items.Type)
		check("empty", m)
		for i := range 23 { // chunks of 2, 4, 8, 16
			l.Append().Set32(seq.Field, uint32(i+1))
		}
		check("written", m)
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
			r, err := impl.Read(arrays, data[:n:n])
			if err != nil {
				continue
			}
			check("read", r)
		}
	}
	check("zero", impl.Msg{})
}

// TestMessageAppenderIsAddMessage runs one random script of writes twice on
// twin messages, appending elements with AddMessage in one and with a
// MessageAppender in the other, interleaved with writes that change the
// vector behind the appender's back (appends through the holder, Reserve,
// Erase, Clear of the field and of the root, other fields, elements whose
// strings grow an owned buffer): after every write both payloads hold the
// same bytes, the same failure and the same element offsets. Fixed buffers
// of many sizes cover running out of room in the middle; both formats.
func TestMessageAppenderIsAddMessage(t *testing.T) {
	for _, fe := range []impl.Frontend{impl.ProtobufFrontend, impl.ROSFrontend} {
		header, _, arrays := testTypesFor(t, fe)
		items, values := field(arrays, "items"), field(arrays, "values")
		seq, frame := field(header, "seq"), field(header, "frame_id")
		for _, v := range []payloadbuffer.Version{payloadbuffer.V3, payloadbuffer.V2} {
			for _, tu := range []payloadbuffer.Tuning{payloadbuffer.Performance, payloadbuffer.Size} {
				opts := impl.Options{Version: v, Tuning: tu}
				for size := -1; size <= 12000; size += 397 { // -1: owned
					for seed := range uint64(3) {
						name := fmt.Sprintf("%s/%s/%s/size %d/seed %d", fe, v, tu, size, seed)
						twins := [2]impl.Msg{}
						mems := [2][]byte{}
						for j := range twins {
							if size < 0 {
								twins[j] = impl.New(arrays, opts)
								continue
							}
							mems[j] = bytes.Repeat([]byte{0xA5}, size+64)
							clear(mems[j][:size])
							m, err := impl.NewIn(arrays, mems[j][:size:size], opts)
							if err != nil {
								break
							}
							twins[j] = m
						}
						if !twins[1].IsPresent() {
							continue
						}
						app := impl.NewMessageList(twins[1], items.Field, items.Type).Appender()
						rng := rand.New(rand.NewPCG(seed, uint64(size)))
						for step := range 600 {
							op := rng.IntN(40)
							arg := rng.IntN(9)
							var offs [2]uint32
							for j, m := range twins {
								switch {
								case op < 30: // append, then write the element
									var e impl.Msg
									if j == 0 {
										e = m.AddMessage(items.Field, items.Type)
									} else {
										e = app.Append()
									}
									offs[j] = e.Offset()
									e.Set32(seq.Field, uint32(step))
									if arg < 3 {
										e.SetString(frame.Field, fmt.Sprint("frame ", step, bytes.Repeat([]byte{'x'}, 8*arg)))
									}
								case op < 32:
									offs[j] = m.AddMessage(items.Field, items.Type).Offset()
								case op < 34:
									m.Push32(values.Field, uint32(step))
								case op < 35:
									m.ReserveMessages(items.Field, m.MessagesLen(items.Field)+arg*5, items.Type)
								case op < 37:
									if n := m.MessagesLen(items.Field); n > 0 {
										m.EraseMessages(items.Field, arg%n, n, items.Type)
									}
								case op < 38:
									m.ClearMessages(items.Field, items.Type)
								case op < 39:
									m.ResizeMessages(items.Field, arg, items.Type)
								default:
									if arg == 0 {
										m.Clear(arrays)
									}
								}
							}
							if offs[0] != offs[1] {
								t.Fatalf("%s: step %d (op %d): element at %d, AddMessage's at %d", name, step, op, offs[1], offs[0])
							}
							if !bytes.Equal(twins[0].PayloadBytes(), twins[1].PayloadBytes()) || !bytes.Equal(mems[0], mems[1]) {
								t.Fatalf("%s: step %d (op %d): payloads differ", name, step, op)
							}
							if twins[0].Failed() != twins[1].Failed() {
								t.Fatalf("%s: step %d (op %d): Failed %v, AddMessage's %v", name, step, op, twins[1].Failed(), twins[0].Failed())
							}
						}
					}
				}
			}
		}
	}
	// The zero appender and one on a read-only message write nothing.
	var zero impl.MessageAppender
	if zero.Append().IsPresent() {
		t.Fatal("the zero MessageAppender appended")
	}
	m := impl.New(arrays3(t))
	m.AddMessage(field(arrays3(t), "items").Field, field(arrays3(t), "items").Type)
	data := bytes.Clone(m.PayloadBytes())
	ro, err := impl.Read(arrays3(t), data)
	if err != nil {
		t.Fatal(err)
	}
	a := impl.NewMessageList(ro, field(arrays3(t), "items").Field, field(arrays3(t), "items").Type).Appender()
	if a.Append().IsPresent() || a.Append().IsPresent() || !bytes.Equal(data, m.PayloadBytes()) {
		t.Fatal("an appender wrote into a read-only payload")
	}
}

func arrays3(t *testing.T) *impl.Type {
	_, _, arrays := testTypes(t)
	return arrays
}

// TestAddMessageChunkMissing: a payload continued with Open whose message
// vector has lost its first chunk (pointer 0) must refuse the append, not
// write the new element at offset 0 over the payload's header.
func TestAddMessageChunkMissing(t *testing.T) {
	header, _, arrays := testTypes(t)
	items, seq := field(arrays, "items"), field(header, "seq")
	mem := make([]byte, 4096)
	m, err := impl.NewIn(arrays, mem)
	if err != nil {
		t.Fatal(err)
	}
	impl.NewMessageList(m, items.Field, items.Type).Append().Set32(seq.Field, 1)
	root := binaryLE.Uint32(mem[4:])
	data := binaryLE.Uint32(mem[root+items.Offset+4:]) // the vector header's block
	if binaryLE.Uint32(mem[data+16:]) == 0 {
		t.Fatal("the first chunk's pointer is already 0")
	}
	binaryLE.PutUint32(mem[data+16:], 0)
	head := bytes.Clone(mem[:16])

	w, err := impl.Open(arrays, mem)
	if err != nil {
		t.Fatal(err)
	}
	e := impl.NewMessageList(w, items.Field, items.Type).Append()
	if !sameHeader(mem, head) {
		t.Fatalf("the append rewrote the payload header:\n% x\nwas\n% x", mem[:16], head)
	}
	if !errors.Is(w.Err(), impl.ErrCorrupt) {
		t.Errorf("Err() = %v, want ErrCorrupt", w.Err())
	}
	if e.IsPresent() {
		t.Errorf("an element with no chunk to live in is present at %d", e.Offset())
	}
	if _, err := impl.Read(arrays, mem); err != nil {
		t.Errorf("the payload no longer reads: %v", err)
	}
}

// TestEditChunkMissing: inserting and erasing elements of a message vector
// whose second chunk a received payload lost (pointer 0) must leave the
// payload's header alone: elements without a chunk are not moved or
// cleared at offset 0.
func TestEditChunkMissing(t *testing.T) {
	header, _, arrays := testTypes(t)
	items, seq := field(arrays, "items"), field(header, "seq")
	for _, edit := range []string{"insert", "erase"} {
		mem := make([]byte, 8192)
		m, err := impl.NewIn(arrays, mem)
		if err != nil {
			t.Fatal(err)
		}
		l := impl.NewMessageList(m, items.Field, items.Type)
		for i := range 5 { // chunks of 2 and 4 elements
			l.Append().Set32(seq.Field, uint32(i+1))
		}
		root := binaryLE.Uint32(mem[4:])
		data := binaryLE.Uint32(mem[root+items.Offset+4:])
		if binaryLE.Uint32(mem[data+12:]) < 2 || binaryLE.Uint32(mem[data+20:]) == 0 {
			t.Fatal("the vector has no second chunk")
		}
		binaryLE.PutUint32(mem[data+20:], 0)
		head := bytes.Clone(mem[:16])
		w, err := impl.Open(arrays, mem)
		if err != nil {
			t.Fatal(err)
		}
		if edit == "insert" {
			w.InsertMessage(items.Field, 0, items.Type)
		} else {
			w.EraseMessages(items.Field, 0, 1, items.Type)
		}
		if !sameHeader(mem, head) {
			t.Errorf("%s rewrote the payload header:\n% x\nwas\n% x", edit, mem[:16], head)
		}
	}
}

// sameHeader reports whether the first 16 header bytes of mem are head's,
// but for the format-3 failed flag (a refused write fails the buffer with
// ErrCorrupt, which sets it).
func sameHeader(mem, head []byte) bool {
	const failed = 1 << 2
	return bytes.Equal(mem[:2], head[:2]) && mem[2]&^failed == head[2]&^failed && bytes.Equal(mem[3:16], head[3:16])
}

// FuzzMessageElem compares MessageList.At on a format-3 message vector
// (ElemMessage's one-function path, mvbElem) with its model, the steps it
// fused (impl.ElemMessageModel: mvbLen, elem, bind), on payloads of n
// elements (one chunk from Allocate, or chunks of 2, 4, 8... from Append)
// whose bytes the input then changes: every index from -2 to past the end,
// and a few far off, must give the same handle (offset, access) read-only,
// read as any type and continued with Open.
func FuzzMessageElem(f *testing.F) {
	header, _, arrays := testTypes(f)
	items, seq := field(arrays, "items"), field(header, "seq")
	f.Add(uint8(0), false, []byte{})
	f.Add(uint8(23), false, []byte{})
	f.Add(uint8(5), true, []byte{})
	f.Add(uint8(23), false, []byte{0x80, 0, 0xff})            // a byte of the tables
	f.Add(uint8(9), false, []byte{0xa4, 0, 0x00, 0xb0, 0, 7}) // the vector's block
	f.Fuzz(func(t *testing.T, n uint8, allocate bool, edits []byte) {
		n %= 64
		m := impl.New(arrays, impl.Options{Version: payloadbuffer.V3})
		l := impl.NewMessageList(m, items.Field, items.Type)
		if allocate {
			l.Allocate(int(n))
		}
		for i := range int(n) {
			e := l.Mutable(i)
			e.Set32(seq.Field, uint32(i+1))
		}
		data := bytes.Clone(m.PayloadBytes())
		// Each edit is 3 bytes: a 16-bit offset into the payload and the
		// byte to store there.
		for len(edits) >= 3 && len(data) > 0 {
			data[int(binaryLE.Uint16(edits))%len(data)] = edits[2]
			edits = edits[3:]
		}
		compare := func(how string, m impl.Msg) {
			l := impl.NewMessageList(m, items.Field, items.Type)
			for _, i := range append([]int{math.MinInt, -1 << 31, 1 << 31, 1<<32 + 1, math.MaxInt}, seqInts(-2, int(n)+3)...) {
				if got, want := l.At(i), impl.ElemMessageModel(m, items.Field, i, items.Type); got != want {
					t.Fatalf("%s: At(%d) = %+v, the model gives %+v", how, i, got, want)
				}
			}
		}
		if r, err := impl.Read(arrays, bytes.Clone(data)); err == nil {
			compare("read", r)
		}
		if r, err := impl.ReadAsAny(arrays, bytes.Clone(data)); err == nil {
			compare("read as any", r)
		}
		mem := make([]byte, len(data)+256)
		copy(mem, data)
		if w, err := impl.Open(arrays, mem); err == nil {
			compare("open", w)
		}
	})
}

// seqInts returns the integers from lo to hi, both included.
func seqInts(lo, hi int) []int {
	s := make([]int, 0, hi-lo+1)
	for i := lo; i <= hi; i++ {
		s = append(s, i)
	}
	return s
}

// TestRuns: the runs of a list cover its elements in order, each element
// the one At gives; a received payload's runs hold at most maxRun
// elements each (their table words are checked before the run is
// returned), a payload's own whole chunks; and All stops at a break.
func TestRuns(t *testing.T) {
	_, _, arrays := testTypes(t)
	items := field(arrays, "items")
	m := impl.New(arrays, impl.Options{Version: payloadbuffer.V3})
	l := impl.NewMessageList(m, items.Field, items.Type)
	const n = 300
	l.Allocate(n)
	r, err := impl.Read(arrays, m.PayloadBytes())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name    string
		m       impl.Msg
		longest int // the longest run allowed
	}{{"written", m, n}, {"read", r, impl.MaxRun}} {
		rl := impl.NewMessageList(c.m, items.Field, items.Type)
		runs := c.m.Runs(items.Field, items.Type)
		i, longest := 0, 0
		for {
			run, ok := runs.Next()
			if !ok {
				break
			}
			longest = max(longest, run.Len())
			for k := range run.Len() {
				if e := run.At(k); e != rl.At(i) {
					t.Fatalf("%s: run element %d is %+v, At(%d) %+v", c.name, k, e, i, rl.At(i))
				}
				i++
			}
		}
		if i != n {
			t.Errorf("%s: the runs hold %d elements, want %d", c.name, i, n)
		}
		if longest > c.longest || longest < 2 {
			t.Errorf("%s: the longest run has %d elements, want 2 to %d", c.name, longest, c.longest)
		}
	}
}
