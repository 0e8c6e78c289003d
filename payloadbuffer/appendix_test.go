package payloadbuffer

import (
	"bytes"
	"encoding/binary"
	"testing"
)

// The tests in this file replay the allocator call sequences behind the
// verified C++ Phaser 2.1 hex dumps of spec Appendix A (TestMessage:
// BinarySize 140, a 96-byte hybrid table, control block of capacity 4) and
// pin the resulting offsets and bytes.

const (
	testMessageSize = 140 // foo.bar.TestMessage BinarySize (2.1)
	testTableSize   = 96
	innerSize       = 56 // foo.bar.InnerMessage
	innerTableSize  = 60
)

// createTestMessage performs CreateMutable's allocations (spec 3.4) and
// returns root, control block, table and name offsets.
func createTestMessage(t *testing.T, b *Buffer) (root, cb, table, name uint32) {
	t.Helper()
	root = b.Allocate(testMessageSize, Zero|Small)
	b.SetMessage(root)
	cb = b.Allocate(20+12*4, Zero|Small)
	b.SetMetadata(cb)
	table = b.Allocate(testTableSize, Small)
	b.PutUint32(root, table)
	name = b.Allocate(len("foo.bar.TestMessage"), Small)
	copy(b.Slice(name, 19), "foo.bar.TestMessage")
	if root == 0 || cb == 0 || table == 0 || name == 0 {
		t.Fatalf("creation failed: %v", b)
	}
	return root, cb, table, name
}

func header(b *Buffer) [10]uint32 {
	var h [10]uint32
	for i := range h {
		h[i] = b.Uint32(uint32(4 * i))
	}
	return h
}

func TestAppendixA1SizeTuning(t *testing.T) {
	mem := bytes.Repeat([]byte{0xEE}, 1024)
	b, err := NewFixed(mem, Options{Version: V2, Tuning: Size})
	if err != nil {
		t.Fatal(err)
	}
	root, cb, table, name := createTestMessage(t, b)
	if root != 48 || cb != 200 || table != 280 || name != 384 {
		t.Fatalf("offsets root=%d cb=%d table=%d name=%d, want 48 200 280 384", root, cb, table, name)
	}
	want := [10]uint32{0xE5F6F1C4, 48, 416, 1024, 408, 200, 0, 0, 0, 0}
	if got := header(b); got != want {
		t.Fatalf("header %#x, want %#x", got, want)
	}
	wantWords := map[uint32]uint64{40: 144, 192: 72, 272: 96, 376: 24, 408: 616}
	for off, w := range wantWords {
		if got := binary.LittleEndian.Uint64(mem[off:]); got != w {
			t.Errorf("word @%d = %#x, want %#x", off, got, w)
		}
	}
	// Table and name blocks are not zero-filled: the 0xEE fill shows.
	if !bytes.Equal(mem[403:408], bytes.Repeat([]byte{0xEE}, 5)) {
		t.Errorf("name slack = % x, want ee (no zero fill)", mem[403:408])
	}
	// The root message is zero-filled.
	if !bytes.Equal(mem[52:48+144], make([]byte, 140)) {
		t.Errorf("root not zeroed")
	}

	// set_x, set_s("hello"), add_vi32(7), mutable_m()->set_str("in").
	b.PutUint32(root+4, 1)
	b.PutUint32(root+8, 0x11223344)
	if !b.SetString(root+24, "hello") {
		t.Fatal("SetString failed")
	}
	e := b.VectorPush(root+40, 4)
	b.PutUint32(e, 7)
	m := b.Allocate(innerSize, Zero|Small)
	b.PutUint32(root+28, m)
	mt := b.Allocate(innerTableSize, Small)
	b.PutUint32(m, mt)
	mn := b.Allocate(len("foo.bar.InnerMessage"), Small)
	if !b.SetString(m+8, "in") {
		t.Fatal("SetString failed")
	}
	if s := b.Uint32(root + 24); s != 416 || !bytes.Equal(mem[416:424], []byte("\x05\x00\x00\x00hello")[:8]) {
		t.Errorf("s block @%d = % x", s, mem[416:424])
	}
	if got := [2]uint32{b.Uint32(root + 40), b.Uint32(root + 44)}; got != [2]uint32{1, 440} || e != 440 {
		t.Errorf("vi32 header %v, element @%d; want {1 440} @440", got, e)
	}
	if m != 456 || mt != 520 || mn != 592 {
		t.Errorf("m=%d table=%d name=%d, want 456 520 592", m, mt, mn)
	}
	if s := b.Uint32(m + 8); s != 624 || b.Uint32(624) != 2 || string(mem[628:630]) != "in" {
		t.Errorf("str block @%d", s)
	}
	if got := header(b); got[2] != 640 || got[4] != 632 || b.Uint32(632) != 392 {
		t.Errorf("hwm=%d free=%d len=%d, want 640 632 392", got[2], got[4], b.Uint32(632))
	}
}

func TestAppendixA2PerformanceTuning(t *testing.T) {
	mem := make([]byte, 4096)
	b, err := NewFixed(mem, Options{Version: V2, Tuning: Performance})
	if err != nil {
		t.Fatal(err)
	}
	root, cb, table, name := createTestMessage(t, b)
	if root != 48 || cb != 272 || table != 408 || name != 616 {
		t.Fatalf("offsets root=%d cb=%d table=%d name=%d, want 48 272 408 616", root, cb, table, name)
	}
	want := [10]uint32{0xE5F6F1C5, 48, 1016, 4096, 1008, 272, 0, 544, 0, 200}
	if got := header(b); got != want {
		t.Fatalf("header %v, want %v", got, want)
	}
	check32 := func(what string, off, want uint32) {
		t.Helper()
		if got := b.Uint32(off); got != want {
			t.Errorf("%s @%d = %#x, want %#x", what, off, got, want)
		}
	}
	check32("class-128 vector num", 200, 1)
	check32("class-128 vector data", 204, 216)
	check32("class-128 run", 216, 256)
	check32("run bits", 256, 3)
	if got := mem[260:263]; !bytes.Equal(got, []byte{128, 2, 0}) {
		t.Errorf("run size/num/free = %v", got)
	}
	check32("slot 0 word", 264, 0x80000080)
	check32("slot 1 word", 400, 0x84000080)
	check32("class-32 vector data", 548, 560)
	check32("class-32 run", 560, 600)
	if got := mem[604:607]; !bytes.Equal(got, []byte{32, 10, 9}) {
		t.Errorf("class-32 run = %v", got)
	}
	check32("class-32 slot 0 word", 608, 0x80000020)
	check32("free block length", 1008, 3088)

	// set_s("hello") takes a regular block at 1008; add_vi32(7) then
	// creates the class-16 machinery.
	if !b.SetString(root+24, "hello") || b.Uint32(root+24) != 1016 {
		t.Fatalf("string @%d, want 1016", b.Uint32(root+24))
	}
	e := b.VectorPush(root+40, 4)
	if e != 1112 {
		t.Errorf("vi32 element @%d, want 1112", e)
	}
	check32("class-16 vector", 24, 1040)
	check32("class-16 array", 1044, 1056)
	check32("class-16 run", 1056, 1096)
	if got := mem[1100:1103]; !bytes.Equal(got, []byte{16, 20, 19}) {
		t.Errorf("class-16 run = %v", got)
	}
	// mutable_m(): class-64 run at 0x670 holds the message and its table;
	// the name goes to class-32 slot 1.
	m := b.Allocate(innerSize, Zero|Small)
	mt := b.Allocate(innerTableSize, Small)
	mn := b.Allocate(20, Small)
	if m != 0x680 || mt != 0x6C8 || mn != 0x290 {
		t.Errorf("m=%#x table=%#x name=%#x, want 0x680 0x6c8 0x290", m, mt, mn)
	}
	check32("class-64 run bits", 0x670, 3)
	if got := mem[0x674:0x677]; !bytes.Equal(got, []byte{64, 6, 4}) {
		t.Errorf("class-64 run = %v", got)
	}
	check32("class-64 slot 1 word", 0x6C0, 0x84000040)
	check32("class-32 slot 1 word", 0x288, 0x84000020)
}

func TestAppendixA4DynamicGrowth(t *testing.T) {
	b := New(256, Options{Version: V2, Tuning: Size})
	if got := b.Uint32(0); got != 0xC5F6F1C4 {
		t.Fatalf("magic %#x", got)
	}
	root, _, _, _ := createTestMessage(t, b)
	if root != 56 || b.Len() != 512 {
		t.Fatalf("root @%d len %d, want 56 512", root, b.Len())
	}
	if got := header(b); got[4] != 416 || b.Uint32(416) != 96 {
		t.Fatalf("free list %d len %d, want 416 96", got[4], b.Uint32(416))
	}
	// 300 bytes do not fit: the buffer doubles to 1024 and the last free
	// block, which ended at the old size, is extended in place.
	if !b.SetString(root+24, string(bytes.Repeat([]byte{'a'}, 300))) {
		t.Fatal("SetString failed")
	}
	if got := header(b); b.Len() != 1024 || got[3] != 1024 || b.Uint32(root+24) != 424 || got[4] != 728 || got[2] != 736 {
		t.Fatalf("len=%d header=%v string@%d, want 1024, free 728, hwm 736, string 424", b.Len(), got, b.Uint32(root+24))
	}
}

// Appendix A.6 shows C++ 2.1's allocator bugs; phaser-go writes what the
// corrected allocator writes (goldens_fixed).
func TestAppendixA6Corrected(t *testing.T) {
	t.Run("hwm covers a whole last block", func(t *testing.T) {
		b, _ := NewFixed(make([]byte, 256), Options{Tuning: Size})
		p := b.Allocate(16, Zero)  // block 40..64, free 64..256
		p = b.Realloc(p, 32, Zero) // expand above: free 80.., hwm 80
		if got := b.HWM(); p != 48 || got != 80 {
			t.Fatalf("p=%d hwm=%d, want 48 80", p, got)
		}
		q := b.Allocate(256-80-8, 0) // exactly the rest: whole block
		if q != 88 || b.HWM() != 256 {
			t.Fatalf("q=%d hwm=%d, want 88 256 (2.1 leaves 80)", q, b.HWM())
		}
	})
	for _, tc := range []struct {
		name     string
		version  Version
		grow     int
		moved    uint32
		word     uint64
		freeHead uint32
	}{
		{"merge below keeps the data", V2, 24, 48, 24, 72},
		// 2.1 links a zero-length block here; corrected 2.1 moves instead.
		{"v2 exact fit below moves", V2, 40, 112, 40, 40},
		{"v3 merge below absorbs an exact fit", V3, 40, 48, 40, 104},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, _ := NewFixed(make([]byte, 256), Options{Version: tc.version, Tuning: Size})
			a := b.Allocate(16, Zero) // block 40..64
			c := b.Allocate(16, Zero) // block 64..88
			_ = b.Allocate(8, Zero)   // block 88..104: c cannot grow above
			copy(b.Slice(c, 16), "0123456789abcdef")
			b.Free(a)
			c2 := b.Realloc(c, tc.grow, Zero) // 2.1 writes a free header into the data here
			if c2 != tc.moved {
				t.Fatalf("moved to %d, want %d", c2, tc.moved)
			}
			if got := string(b.Slice(c2, 16)); got != "0123456789abcdef" {
				t.Fatalf("data %q", got)
			}
			if w := b.word(c2); w != tc.word {
				t.Fatalf("word %d, want %d", w, tc.word)
			}
			if got := b.Uint32(offFreeList); got != tc.freeHead {
				t.Fatalf("free list %d, want %d", got, tc.freeHead)
			}
			if !bytes.Equal(b.Slice(c2+16, uint32(tc.word)-16), make([]byte, tc.word-16)) {
				t.Fatalf("grown tail not zeroed")
			}
		})
	}
	t.Run("same-class small realloc", func(t *testing.T) {
		b, _ := NewFixed(make([]byte, 1024), Options{Tuning: Performance})
		p := b.Allocate(16, Zero|Small)
		if w := b.word(p); w != 0x0000000080000010 {
			t.Fatalf("word %#016x", w)
		}
		if q := b.Realloc(p, 12, Zero|Small); q != p {
			t.Fatalf("moved")
		}
		if w := b.word(p); w != 0xffffffff8000000c {
			t.Fatalf("word %#016x, want ffffffff8000000c", w)
		}
	})
}

// TestSetBytesSourceRunsPastOldString replaces a string by a longer one
// taken from a source that starts inside the old string and runs on into
// the next block: the block moves, and the bytes must still be the source's.
func TestSetBytesSourceRunsPastOldString(t *testing.T) {
	for _, v := range []Version{V2, V3} {
		b := New(256, Options{Version: v, Tuning: Size})
		slot := b.Allocate(8, Zero)
		if !b.SetString(slot, "0123456789") { // block of 16: length + 10 bytes + padding
			t.Fatal("SetString failed")
		}
		next := b.Allocate(16, Zero)
		copy(b.Slice(next, 16), "ABCDEFGHIJKLMNOP")
		s := b.Uint32(slot)
		// From '5' in the old string through the padding and into next's
		// length word and data: 24 bytes.
		src := b.Memory()[s+4+5 : s+4+5+24]
		want := string(src)
		if !b.SetBytes(slot, src) {
			t.Fatal("SetBytes failed")
		}
		if got := string(b.StringAt(slot)); got != want {
			t.Fatalf("%s: got %q, want %q", v, got, want)
		}
	}
}
