package tcpros_test

import (
	"bytes"
	"errors"
	"io"
	"maps"
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
	if _, err := tcpros.ReadFrame(bytes.NewReader(tcpros.AppendFrame(nil, make([]byte, 100))), nil, 99); err == nil {
		t.Fatal("a frame over the limit was accepted")
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
