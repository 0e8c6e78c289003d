package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/phaser-go/phaser/internal/rostest"
	"github.com/phaser-go/phaser/ros/node"
)

// TestE2EExample runs the example against a real rosmaster: every
// published message comes back through the ROS graph with the values the
// producer wrote.
func TestE2EExample(t *testing.T) {
	m := rostest.StartMaster(t)
	var out bytes.Buffer
	if err := run(12, 0, &out, node.Options{MasterURI: m.URI, Host: "127.0.0.1", Args: []string{}}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 12 {
		t.Fatalf("%d messages arrived, want 12:\n%s", len(lines), out.String())
	}
	for i, l := range lines {
		want := fmt.Sprintf("seq %d stamp %d.%09d frame imu_link: yaw %.2f rad", i, 1_700_000_000+i, i*1_000_000, 0.1*float64(i))
		if !strings.HasPrefix(l, want) {
			t.Errorf("message %d: %q, want it to start with %q", i, l, want)
		}
	}
}
