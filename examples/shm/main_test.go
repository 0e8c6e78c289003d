package main

import (
	"bufio"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The tests run this test binary as the example's main: the example itself
// starts its subscriber as a second process of the same binary.
const envMain = "PHASER_SHM_EXAMPLE_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(envMain) != "" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func example(t *testing.T, args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), envMain+"=1")
	return cmd
}

// TestExample runs publisher and subscriber processes end to end.
func TestExample(t *testing.T) {
	path := filepath.Join(t.TempDir(), "robots")
	out, err := example(t, "-path", path, "-paced", "300", "-rate", "20000", "-burst", "3000", "-slots", "64").CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	t.Logf("\n%s", out)
	for _, want := range []string{
		`publisher \(pid \d+\): created .*robots, 64 slots x 4096 B`,
		`subscriber: attached \(pid \d+\) to .*: example.quickstart.Robot, 64 slots x 4096 B`,
		`subscriber: .*channel closed by its publisher`,
		`subscriber: paced +\d+ intact, \d+ missed; latency p50 \S+ p99 \S+ max \S+`,
		`subscriber: flat-out +\d+ intact, \d+ missed; latency`,
	} {
		if !regexp.MustCompile(want).Match(out) {
			t.Errorf("output lacks %q", want)
		}
	}
	// Every message is intact or reported missed.
	for phase, n := range map[string]int{"paced": 300, "flat-out": 3000} {
		m := regexp.MustCompile(phase + ` +(\d+) intact, (\d+) missed`).FindSubmatch(out)
		if m == nil || atoi(m[1])+atoi(m[2]) != n {
			t.Errorf("%s messages do not add up to %d: %q", phase, n, m)
		}
	}
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the channel file is left behind: %v", err)
	}
}

func atoi(b []byte) int {
	n := 0
	for _, c := range b {
		n = 10*n + int(c-'0')
	}
	return n
}

// TestInterrupt: SIGINT stops the publisher cleanly, removing the channel
// file, and the subscriber (started first, waiting) exits cleanly too, on
// the closed channel.
func TestInterrupt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "robots")
	sub := example(t, "-role", "sub", "-path", path)
	subOut, _ := sub.StdoutPipe()
	if err := sub.Start(); err != nil {
		t.Fatal(err)
	}
	defer sub.Process.Kill()
	pub := example(t, "-role", "pub", "-path", path, "-paced", "1000000", "-rate", "1000")
	pubOut, _ := pub.StdoutPipe()
	if err := pub.Start(); err != nil {
		t.Fatal(err)
	}
	defer pub.Process.Kill()
	waitLine(t, pubOut, "publisher (pid")
	waitLine(t, bufio.NewReader(subOut), "subscriber: attached")
	time.Sleep(50 * time.Millisecond)
	if _, err := os.Stat(path); err != nil {
		t.Fatal(err)
	}
	pub.Process.Signal(syscall.SIGINT)
	if err := pub.Wait(); err != nil {
		t.Fatalf("publisher after SIGINT: %v", err)
	}
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("SIGINT left the channel file: %v", err)
	}
	// The subscriber sees the channel closed and exits by itself. A SIGINT
	// now could land after its handler is gone, while it exits, and kill it:
	// send one only if it is still waiting after a while.
	done := make(chan error, 1)
	go func() { done <- sub.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("subscriber after the publisher closed the channel: %v", err)
		}
	case <-time.After(10 * time.Second):
		sub.Process.Signal(syscall.SIGINT)
		if err := <-done; err != nil {
			t.Fatalf("subscriber after SIGINT: %v", err)
		}
	}
}

func waitLine(t *testing.T, r interface{ Read([]byte) (int, error) }, prefix string) {
	t.Helper()
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), prefix) {
			return
		}
	}
	t.Fatalf("no line starting with %q", prefix)
}
