package tcpros_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"maps"
	"runtime"
	"strings"
	"testing"

	"github.com/phaser-go/phaser/ros/tcpros"
)

// TestHeader round-trips a header and checks its bytes against
// the ROS wiki's example layout (a 4-byte count, then count-prefixed
// "key=value" fields).
func TestHeader(t *testing.T) {
	fields := map[string]string{"topic": "/imu", "md5sum": "6a62c6daae103f4ff57a132d6f95cec2", "type": "sensor_msgs/Imu", "callerid": "/bridge"}
	b := tcpros.AppendHeader(nil, fields)
	var body []byte
	for _, kv := range []string{"callerid=/bridge", "md5sum=6a62c6daae103f4ff57a132d6f95cec2", "topic=/imu", "type=sensor_msgs/Imu"} {
		body = append(body, byte(len(kv)), 0, 0, 0)
		body = append(body, kv...)
	}
	want := append([]byte{byte(len(body)), 0, 0, 0}, body...)
	if !bytes.Equal(b, want) {
		t.Fatalf("header\n% x\nwant\n% x", b, want)
	}
	got, err := tcpros.ReadHeader(bytes.NewReader(b))
	if err != nil || !maps.Equal(got, fields) {
		t.Fatalf("read back %v (%v)", got, err)
	}
}

func TestHeaderErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   []byte
	}{
		{"short length", []byte{1, 0}},
		{"field past the end", []byte{9, 0, 0, 0, 'a', '=', 'b'}},
		{"no equals sign", []byte{3, 0, 0, 0, 'a', 'b', 'c'}},
	} {
		if _, err := tcpros.ParseHeader(tc.in); !errors.Is(err, tcpros.ErrHeader) {
			t.Errorf("%s: error %v, want ErrHeader", tc.name, err)
		}
	}
	huge := []byte{0xff, 0xff, 0xff, 0x7f}
	if _, err := tcpros.ReadHeader(bytes.NewReader(huge)); !errors.Is(err, tcpros.ErrHeader) {
		t.Errorf("a 2 GiB header: %v, want ErrHeader without reading it", err)
	}
	if _, err := tcpros.ReadHeader(bytes.NewReader([]byte{8, 0, 0, 0, 1})); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("truncated header: %v", err)
	}
}

func TestFrame(t *testing.T) {
	var stream []byte
	for _, m := range []string{"", "a", strings.Repeat("x", 1000)} {
		stream = tcpros.AppendFrame(stream, []byte(m))
	}
	r := bytes.NewReader(stream)
	var buf []byte
	for _, m := range []string{"", "a", strings.Repeat("x", 1000)} {
		got, err := tcpros.ReadFrame(r, buf, 4096)
		if err != nil || string(got) != m {
			t.Fatalf("frame %q: %q (%v)", m, got, err)
		}
		buf = got
	}
	if _, err := tcpros.ReadFrame(r, buf, 4096); err != io.EOF {
		t.Fatalf("after the last frame: %v, want io.EOF", err)
	}
	if _, err := tcpros.ReadFrame(bytes.NewReader(tcpros.AppendFrame(nil, make([]byte, 100))), nil, 99); !errors.Is(err, tcpros.ErrFrameSize) {
		t.Fatalf("a frame over the limit: %v, want ErrFrameSize", err)
	}
	if _, err := tcpros.ReadFrame(bytes.NewReader([]byte{10, 0, 0, 0, 1}), nil, 99); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("truncated frame: %v", err)
	}
}

// FuzzHeader: any bytes parse or fail cleanly, and what parses
// re-encodes to a header that parses to the same fields.
func FuzzHeader(f *testing.F) {
	f.Add(tcpros.AppendHeader(nil, map[string]string{"topic": "/a", "type": "std_msgs/String"})[4:])
	f.Add([]byte{3, 0, 0, 0, 'a', '=', 'b'})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, b []byte) {
		fields, err := tcpros.ParseHeader(b)
		if err != nil {
			return
		}
		again, err := tcpros.ParseHeader(tcpros.AppendHeader(nil, fields)[4:])
		if err != nil || !maps.Equal(again, fields) {
			t.Fatalf("%v re-encoded parses to %v (%v)", fields, again, err)
		}
	})
}

// TestFrameLengthPrefixes: a length prefix of 2^31 (or any over the
// limit) is refused without reading or allocating; one under the limit that
// the peer never backs with bytes costs memory in proportion to the bytes
// that came, not to the prefix.
func TestFrameLengthPrefixes(t *testing.T) {
	for _, n := range []uint32{1 << 31, 1<<32 - 1, 1<<30 + 1} {
		in := binary.LittleEndian.AppendUint32(nil, n)
		if _, err := tcpros.ReadFrame(bytes.NewReader(in), nil, 1<<30); !errors.Is(err, tcpros.ErrFrameSize) {
			t.Errorf("prefix %d: %v, want ErrFrameSize", n, err)
		}
		if _, err := tcpros.ReadHeader(bytes.NewReader(in)); !errors.Is(err, tcpros.ErrHeader) {
			t.Errorf("header prefix %d: %v, want ErrHeader", n, err)
		}
	}
	// 900 MiB announced, 10 bytes sent.
	lying := append(binary.LittleEndian.AppendUint32(nil, 900<<20), "0123456789"...)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := tcpros.ReadFrame(bytes.NewReader(lying), nil, 1<<30)
	runtime.ReadMemStats(&after)
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("truncated 900 MiB frame: %v, want io.ErrUnexpectedEOF", err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 1<<20 {
		t.Fatalf("a 900 MiB prefix backed by 10 bytes allocated %d bytes", got)
	}
	// The same for a header (1 MiB limit) backed by 10 bytes.
	lying = append(binary.LittleEndian.AppendUint32(nil, tcpros.MaxHeader), "0123456789"...)
	runtime.ReadMemStats(&before)
	_, err = tcpros.ReadHeader(bytes.NewReader(lying))
	runtime.ReadMemStats(&after)
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("truncated header: %v, want io.ErrUnexpectedEOF", err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 256<<10 {
		t.Fatalf("a 1 MiB header prefix backed by 10 bytes allocated %d bytes", got)
	}
}

// TestReadFrameAllocs: reading into a buffer with room allocates nothing;
// a large frame read into an empty buffer grows it step by step and still
// arrives whole.
func TestReadFrameAllocs(t *testing.T) {
	stream := tcpros.AppendFrame(nil, bytes.Repeat([]byte{7}, 320))
	r := bytes.NewReader(stream)
	buf := make([]byte, 0, 512)
	allocs := testing.AllocsPerRun(100, func() {
		r.Reset(stream)
		var err error
		if buf, err = tcpros.ReadFrame(r, buf, 1<<20); err != nil || len(buf) != 320 {
			t.Fatalf("%d bytes (%v)", len(buf), err)
		}
	})
	if allocs != 0 {
		t.Errorf("ReadFrame into a buffer with room: %v allocations, want 0", allocs)
	}
	big := make([]byte, 3<<20+17)
	for i := range big {
		big[i] = byte(i * 7)
	}
	got, err := tcpros.ReadFrame(bytes.NewReader(tcpros.AppendFrame(nil, big)), nil, 4<<20)
	if err != nil || !bytes.Equal(got, big) {
		t.Fatalf("3 MiB frame: %d bytes (%v)", len(got), err)
	}
}

// FuzzReadFrame: any stream reads as frames or fails cleanly, and no read
// grows its buffer past what the bytes that arrived justify.
func FuzzReadFrame(f *testing.F) {
	f.Add(tcpros.AppendFrame(tcpros.AppendFrame(nil, []byte("abc")), nil))
	f.Add([]byte{0, 0, 0, 0x80})
	f.Add([]byte{0xff, 0xff, 0, 0, 1, 2, 3})
	f.Add([]byte{3, 0, 0})
	f.Fuzz(func(t *testing.T, stream []byte) {
		r := bytes.NewReader(stream)
		var buf []byte
		for {
			got, err := tcpros.ReadFrame(r, buf, 1<<24)
			if err != nil {
				return
			}
			if cap(got) > 2*len(stream)+64<<10 {
				t.Fatalf("a %d-byte stream grew the buffer to %d", len(stream), cap(got))
			}
			buf = got
		}
	})
}
