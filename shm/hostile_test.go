//go:build linux && (amd64 || arm64)

package shm

import (
	"context"
	"errors"
	"os"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/phaser-go/phaser/internal/testpb/testpbphaser"
	"github.com/phaser-go/phaser/runtime"
)

// validHeader returns the header bytes of a channel of the given geometry.
func validHeader(slotSize, slots uint32) ([]byte, geometry) {
	g := geometry{slotSize: slotSize, slots: slots, stride: strideOf(slotSize),
		size: fileSizeOf(slotSize, slots), incarnation: 7, pid: 1, typeName: scalarsType}
	hdr := make([]byte, readHeader)
	encodeHeader(hdr, g)
	return hdr, g
}

func TestDecodeHeader(t *testing.T) {
	hdr, g := validHeader(1024, 8)
	got, err := decodeHeader(hdr, int64(g.size), 0)
	if err != nil || got != g {
		t.Fatalf("valid header: %+v, %v (want %+v)", got, err, g)
	}
	type edit func(b []byte)
	put32 := func(off int, v uint32) edit { return func(b []byte) { le.PutUint32(b[off:], v) } }
	put64 := func(off int, v uint64) edit { return func(b []byte) { le.PutUint64(b[off:], v) } }
	for _, tc := range []struct {
		name string
		edit edit
		size int64
		want error
	}{
		{"magic", func(b []byte) { b[3] ^= 1 }, 0, ErrNotChannel},
		{"version", put32(offVersion, 2), 0, ErrNotChannel},
		{"header size", put32(offHeaderSize, 4096), 0, ErrCorrupt},
		{"slot size 0", put32(offSlotSize, 0), 0, ErrCorrupt},
		{"slot size max", put32(offSlotSize, 1<<32-1), 0, ErrCorrupt},
		{"slot size vs file", put32(offSlotSize, 2048), 0, ErrCorrupt},
		{"one slot", put32(offSlots, 1), 0, ErrCorrupt},
		{"too many slots", put32(offSlots, MaxSlots+1), 0, ErrCorrupt},
		{"file size", put64(offFileSize, g.size+64), 0, ErrCorrupt},
		{"huge geometry", func(b []byte) {
			le.PutUint32(b[offSlotSize:], MaxSlotSize)
			le.PutUint32(b[offSlots:], MaxSlots)
			le.PutUint64(b[offFileSize:], fileSizeOf(MaxSlotSize, MaxSlots))
		}, int64(fileSizeOf(MaxSlotSize, MaxSlots)), ErrTooLarge},
		{"name length 0", func(b []byte) { le.PutUint16(b[offNameLen:], 0) }, 0, ErrCorrupt},
		{"name length long", func(b []byte) { le.PutUint16(b[offNameLen:], MaxTypeName+1) }, 0, ErrCorrupt},
		{"name length short", func(b []byte) { le.PutUint16(b[offNameLen:], 3) }, 0, ErrCorrupt},
		{"name control byte", func(b []byte) { b[offName+2] = '\n' }, 0, ErrCorrupt},
		{"name invalid UTF-8", func(b []byte) { b[offName+2] = 0xff }, 0, ErrCorrupt},
		{"file shorter", nil, int64(g.size) - 1, ErrCorrupt},
		{"file longer", nil, int64(g.size) + 4096, ErrCorrupt},
		{"file tiny", nil, 100, ErrNotChannel},
	} {
		b := append([]byte(nil), hdr...)
		if tc.edit != nil {
			tc.edit(b)
		}
		size := tc.size
		if size == 0 {
			size = int64(g.size)
		}
		if _, err := decodeHeader(b, size, 0); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
	if _, err := decodeHeader(hdr[:100], int64(g.size), 0); !errors.Is(err, ErrNotChannel) {
		t.Errorf("short header: %v", err)
	}
}

// A file at the path that is not a channel is an error at once, not a wait.
func TestSubscribeNotChannel(t *testing.T) {
	path := channelPath(t)
	for _, content := range [][]byte{nil, []byte("hello"), make([]byte, 1<<17)} {
		if err := os.WriteFile(path, content, 0o600); err != nil {
			t.Fatal(err)
		}
		f, _ := os.OpenFile(path, os.O_RDWR, 0)
		lockWrite(f) // looks alive
		_, err := Subscribe(context.Background(), path, Options{})
		f.Close()
		if !errors.Is(err, ErrNotChannel) {
			t.Errorf("%d bytes: %v, want ErrNotChannel", len(content), err)
		}
	}
}

// Slot words written by a hostile process give errors and skipped
// messages, never a panic, a hang or an out-of-range Data.
func TestHostileSlots(t *testing.T) {
	path := channelPath(t)
	p := mustCreate(t, path, testConfig(4))
	s := mustSubscribe(t, path, Options{Type: scalarsType})
	publish(t, p, 1)
	// Message 1 claims more bytes than a slot holds.
	le.PutUint32(p.mem[headerSize+offSlotLen:], testSlotSize+1)
	if _, err := poll(s); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("oversized message: %v, want ErrCorrupt", err)
	}
	publish(t, p, 1)
	if m := next(t, s); m.Seq != 2 || m.Missed != 1 {
		t.Fatalf("after a corrupt message: %d (missed %d)", m.Seq, m.Missed)
	}
	// Message 3's slot claims message 1000 while head says 2.
	le.PutUint64(p.mem[headerSize+2*p.g.stride+offSlotState:], 1000<<1)
	if _, err := poll(s); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("slot ahead of head: %v, want ErrCorrupt", err)
	}
	// A huge head and a slot claiming it: the subscriber skips, reports
	// the count, and stays within the ring.
	le.PutUint64(p.mem[offHead:], maxSeq-1)
	le.PutUint64(p.mem[headerSize+3*p.g.stride+offSlotState:], (maxSeq-1)<<1)
	for range 8 {
		m, err := poll(s)
		if err == nil && len(m.Data) > testSlotSize {
			t.Fatalf("bad message %+v", m)
		}
	}
	// The header's geometry changed under an attached subscriber: ignored.
	le.PutUint32(p.mem[offSlots:], 1<<20)
	le.PutUint32(p.mem[offSlotSize:], 1<<31)
	for range 4 {
		poll(s)
	}
}

// seedChannel returns the bytes of a small channel file holding two
// published messages, split as FuzzAttach takes them.
func seedChannel(t testing.TB) (hdr, slots []byte) {
	path := channelPath(t)
	p := mustCreate(t, path, Config{Type: scalarsType, SlotSize: 512, Slots: 2})
	for seq := uint64(1); seq <= 2; seq++ {
		slot, _ := p.Loan()
		x, err := newSmall(slot, seq)
		if err != nil {
			t.Fatal(err)
		}
		p.Publish(x)
	}
	return append([]byte(nil), p.mem[:readHeader]...), append([]byte(nil), p.mem[headerSize:]...)
}

// newSmall builds a small message (the fuzz seeds stay small).
func newSmall(slot []byte, seq uint64) (int, error) {
	x, err := testpbphaser.NewScalarsIn(slot)
	if err != nil {
		return 0, err
	}
	x.SetFInt64(int64(seq))
	x.SetFString("m")
	return len(x.Bytes()), x.Err()
}

// FuzzAttach attaches to channel files made of a fuzzed header (padded to
// the header region) and fuzzed slots, or of the fuzzed header alone
// (short), then reads from the first message on: attach must fail with an
// error or map exactly the file; reads must give errors or in-range
// messages; nothing may panic or hang.
func FuzzAttach(f *testing.F) {
	hdr, slots := seedChannel(f)
	f.Add(hdr, slots, false)
	f.Add(hdr[:64], []byte{}, true)
	f.Fuzz(func(t *testing.T, hdr, slots []byte, short bool) {
		if len(hdr) > readHeader || len(slots) > 1<<16 {
			return
		}
		fd, err := unix.MemfdCreate("fuzz", unix.MFD_CLOEXEC)
		if err != nil {
			t.Skip(err)
		}
		file := os.NewFile(uintptr(fd), "fuzz")
		size := int64(len(hdr))
		if !short {
			size = headerSize + int64(len(slots))
		}
		if err := file.Truncate(size); err != nil {
			t.Fatal(err)
		}
		file.WriteAt(hdr, 0)
		if !short {
			file.WriteAt(slots, headerSize)
		}
		s, err := SubscribeFile(file, Options{})
		if err != nil {
			return
		}
		defer s.Close()
		if s.cur.g.size != uint64(size) {
			t.Fatalf("mapped %d bytes of a %d-byte file", s.cur.g.size, size)
		}
		s.seek(1)
		var pl runtime.Payload
		for range 2 * int(s.cur.g.slots) {
			m, err := poll(s)
			if err != nil {
				continue
			}
			if len(m.Data) > s.SlotSize() {
				t.Fatalf("message of %d bytes in a slot of %d", len(m.Data), s.SlotSize())
			}
			if x, err := testpbphaser.ReadScalarsInto(&pl, m.Data); err == nil {
				_ = x.FString()
			}
			m.Check()
		}
	})
}

// The fuzzer's valid seed is a channel a subscriber reads both messages of.
func TestAttachSeed(t *testing.T) {
	hdr, slots := seedChannel(t)
	fd, err := unix.MemfdCreate("seed", unix.MFD_CLOEXEC)
	if err != nil {
		t.Fatal(err)
	}
	file := os.NewFile(uintptr(fd), "seed")
	file.Truncate(headerSize + int64(len(slots)))
	file.WriteAt(hdr, 0)
	file.WriteAt(slots, headerSize)
	s, err := SubscribeFile(file, Options{Type: scalarsType})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.seek(1)
	var pl runtime.Payload
	for seq := uint64(1); seq <= 2; seq++ {
		m, err := poll(s)
		if err != nil {
			t.Fatal(err)
		}
		x, err := testpbphaser.ReadScalarsInto(&pl, m.Data)
		if err != nil || x.FInt64() != int64(seq) || m.Check() != nil {
			t.Fatalf("message %d: %v %d", seq, err, x.FInt64())
		}
	}
}
