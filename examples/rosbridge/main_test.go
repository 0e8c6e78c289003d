package main

import (
	"bytes"
	"fmt"
	"net"
	"strings"
	"testing"

	"github.com/phaser-go/phaser/ros/tcpros"
)

// TestBridge runs the example end to end: every published message arrives
// through TCPROS and reads back with the values the producer wrote.
func TestBridge(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skipf("no loopback TCP: %v", err)
	}
	var out bytes.Buffer
	if err := run(ln, 12, &out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 12 {
		t.Fatalf("%d messages arrived, want 12:\n%s", len(lines), out.String())
	}
	for i, l := range lines {
		want := fmt.Sprintf("seq %d stamp %d.%09d frame imu_link: yaw %.2f rad, 320 ROS bytes", i, 1_700_000_000+i, i*1_000_000, 0.1*float64(i))
		if !strings.HasPrefix(l, want) {
			t.Errorf("message %d: %q, want it to start with %q", i, l, want)
		}
	}
}

// TestBridgeRefusesWrongType: a subscriber asking for another message type
// gets an error header, as TCPROS publishers answer.
func TestBridgeRefusesWrongType(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skipf("no loopback TCP: %v", err)
	}
	b := newBridge(ln)
	defer b.close()
	go b.serve()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.Write(tcpros.AppendHeader(nil, map[string]string{"topic": topic, "md5sum": "992ce8a1687cec8c8bd883ec73ca41d1", "type": "std_msgs/String", "callerid": "/x"}))
	fields, err := tcpros.ReadHeader(c)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(fields["error"], "md5sum") {
		t.Fatalf("answer %v, want an error about the md5sum", fields)
	}
	// And garbage instead of a header is refused without a panic.
	c2, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	c2.Write([]byte{5, 0, 0, 0, 9, 9, 9, 9, 9})
	fields, err = tcpros.ReadHeader(c2)
	if err != nil || !strings.Contains(fields["error"], "connection header") {
		t.Fatalf("answer to garbage %v (%v)", fields, err)
	}
}
