// Package rostest is test support for talking to a real ROS1 graph: it
// runs Debian's rosmaster and rospy-based tools and scripts on loopback,
// each on a free port, bounded in time, and cleaned up when the test ends.
//
// The tools come from Debian's python3-rosmaster, python3-rospy,
// python3-rostopic, python3-rosnode and python3-*-msgs packages, run with
// /usr/bin/python3. When they are missing, tests skip with a message, or
// fail when PHASER_REQUIRE_INTEROP=1 (as CI sets).
package rostest

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Python is the interpreter Debian's ROS packages are installed for.
const Python = "/usr/bin/python3"

// Tools are the ROS programs the tests run, by name.
var Tools = map[string]string{
	"rosmaster": "/usr/bin/rosmaster",
	"rostopic":  "/usr/bin/rostopic",
	"rosnode":   "/usr/bin/rosnode",
}

var (
	checkOnce sync.Once
	missing   string
)

// Need skips the test for a missing tool, or fails it when
// PHASER_REQUIRE_INTEROP=1.
func Need(t testing.TB, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if os.Getenv("PHASER_REQUIRE_INTEROP") == "1" {
		t.Fatalf("%s (required: PHASER_REQUIRE_INTEROP=1)", msg)
	}
	t.Skipf("%s; skipping (set PHASER_REQUIRE_INTEROP=1 to fail instead)", msg)
}

// Require checks that the ROS tools and Python modules are installed, and
// skips or fails the test (see Need) when they are not.
func Require(t testing.TB) {
	t.Helper()
	checkOnce.Do(func() {
		for _, p := range append([]string{Python}, Tools["rosmaster"], Tools["rostopic"], Tools["rosnode"]) {
			if _, err := os.Stat(p); err != nil {
				missing = p + " is not installed"
				return
			}
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		out, err := exec.CommandContext(ctx, Python, "-c", "import rospy, rosgraph, rostopic, rosnode, std_msgs.msg, geometry_msgs.msg, sensor_msgs.msg").CombinedOutput()
		if err != nil {
			missing = fmt.Sprintf("%s cannot import the ROS modules (%v: %s)", Python, err, bytes.TrimSpace(out))
		}
	})
	if missing != "" {
		Need(t, "ROS1 (python3-rosmaster python3-rospy python3-rostopic python3-rosnode python3-*-msgs): %s", missing)
	}
}

// FreePort returns a TCP port on 127.0.0.1 that was free a moment ago.
func FreePort(t testing.TB) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("no loopback TCP: %v", err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// Master is a rosmaster process on loopback.
type Master struct {
	t    testing.TB
	Port int
	URI  string
	dir  string // ROS_HOME and ROS_LOG_DIR of everything the test runs
	cmd  *Proc
}

// StartMaster runs `rosmaster --core -p PORT` on a free port and waits
// until it answers; the test's cleanup stops it.
func StartMaster(t testing.TB) *Master {
	t.Helper()
	Require(t)
	m := &Master{t: t, dir: t.TempDir()}
	for attempt := 0; ; attempt++ {
		m.Port = FreePort(t)
		m.URI = fmt.Sprintf("http://127.0.0.1:%d/", m.Port)
		if err := m.start(); err == nil {
			break
		} else if attempt == 2 {
			t.Fatalf("rosmaster did not start: %v", err)
		}
	}
	t.Cleanup(m.Stop)
	return m
}

func (m *Master) start() error {
	m.cmd = m.Start("rosmaster", 0, "--core", "-p", strconv.Itoa(m.Port))
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if m.ping() {
			return nil
		}
		if m.cmd.Exited() {
			return fmt.Errorf("rosmaster exited: %s", m.cmd.Output())
		}
		time.Sleep(50 * time.Millisecond)
	}
	m.cmd.Kill()
	return fmt.Errorf("rosmaster on port %d did not answer in 20s: %s", m.Port, m.cmd.Output())
}

// ping reports whether the master answers getPid.
func (m *Master) ping() bool {
	c := http.Client{Timeout: time.Second}
	body := `<?xml version="1.0"?><methodCall><methodName>getPid</methodName><params><param><value><string>/rostest</string></value></param></params></methodCall>`
	res, err := c.Post(m.URI, "text/xml", strings.NewReader(body))
	if err != nil {
		return false
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(res.Body, 1<<16))
	return res.StatusCode == 200 && bytes.Contains(b, []byte("<int>1</int>"))
}

// Stop kills the master.
func (m *Master) Stop() {
	if m.cmd != nil {
		m.cmd.Kill()
	}
}

// Restart kills the master and starts a new one on the same port, which
// knows nothing of the nodes the old one had registered.
func (m *Master) Restart() {
	m.t.Helper()
	m.cmd.Kill()
	var err error
	for range 3 {
		if err = m.start(); err == nil {
			return
		}
		time.Sleep(500 * time.Millisecond) // the port may linger
	}
	m.t.Fatalf("rosmaster did not restart: %v", err)
}

// Env returns the environment of a ROS process talking to m on loopback.
func (m *Master) Env() []string {
	env := []string{}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "ROS_") {
			env = append(env, kv)
		}
	}
	return append(env,
		"ROS_MASTER_URI="+m.URI,
		"ROS_HOSTNAME=127.0.0.1",
		"ROS_HOME="+m.dir,
		"ROS_LOG_DIR="+filepath.Join(m.dir, "log"),
		"PYTHONDONTWRITEBYTECODE=1",
		"PYTHONUNBUFFERED=1",
	)
}

// Proc is a process a test started: its output is collected, and it is
// killed (with its process group) at the latest when its time is up or the
// test ends.
type Proc struct {
	cmd    *exec.Cmd
	cancel context.CancelFunc
	done   chan struct{}
	err    error

	mu    sync.Mutex
	out   bytes.Buffer
	lines chan string
}

// Start runs a ROS tool (a key of Tools) or, for "python", a script given
// as the first argument, with m's environment. timeout 0 means until the
// test ends.
func (m *Master) Start(tool string, timeout time.Duration, args ...string) *Proc {
	m.t.Helper()
	var argv []string
	if tool == "python" {
		argv = append([]string{"-c"}, args...)
	} else {
		argv = append([]string{Tools[tool]}, args...)
	}
	ctx, cancel := context.Background(), context.CancelFunc(func() {})
	if timeout > 0 {
		ctx, cancel = context.WithTimeout(ctx, timeout)
	} else {
		ctx, cancel = context.WithCancel(ctx)
	}
	cmd := exec.CommandContext(ctx, Python, argv...)
	cmd.Env = m.Env()
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 2 * time.Second
	p := &Proc{cmd: cmd, cancel: cancel, done: make(chan struct{}), lines: make(chan string, 4096)}
	pr, pw := io.Pipe()
	cmd.Stdout = pw
	cmd.Stderr = pw
	if err := cmd.Start(); err != nil {
		cancel()
		m.t.Fatalf("start %s: %v", tool, err)
	}
	scanned := make(chan struct{})
	go func() {
		defer close(scanned)
		sc := bufio.NewScanner(pr)
		sc.Buffer(make([]byte, 64<<10), 4<<20)
		for sc.Scan() {
			p.mu.Lock()
			p.out.Write(sc.Bytes())
			p.out.WriteByte('\n')
			p.mu.Unlock()
			select {
			case p.lines <- sc.Text():
			default: // nobody reads lines: Output still has them
			}
		}
		io.Copy(io.Discard, pr)
	}()
	go func() {
		p.err = cmd.Wait()
		pw.Close()
		<-scanned
		close(p.done)
	}()
	m.t.Cleanup(p.Kill)
	return p
}

// Run runs a tool to its end (at most timeout) and returns its output.
func (m *Master) Run(timeout time.Duration, tool string, args ...string) (string, error) {
	m.t.Helper()
	p := m.Start(tool, timeout, args...)
	err := p.Wait()
	return p.Output(), err
}

// Wait waits for the process to end.
func (p *Proc) Wait() error {
	<-p.done
	p.cancel()
	return p.err
}

// Exited reports whether the process has ended.
func (p *Proc) Exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// Kill kills the process and its group, and waits for it.
func (p *Proc) Kill() {
	p.cancel()
	<-p.done
}

// Output returns what the process printed so far.
func (p *Proc) Output() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.out.String()
}

// WaitLine waits at most timeout for a line with the given prefix and
// returns it.
func (p *Proc) WaitLine(prefix string, timeout time.Duration) (string, error) {
	deadline := time.After(timeout)
	for {
		select {
		case l := <-p.lines:
			if strings.HasPrefix(l, prefix) {
				return l, nil
			}
		case <-deadline:
			return "", fmt.Errorf("no line %q in %v; output:\n%s", prefix, timeout, p.Output())
		case <-p.done:
			// drain what is left
			for {
				select {
				case l := <-p.lines:
					if strings.HasPrefix(l, prefix) {
						return l, nil
					}
				default:
					return "", fmt.Errorf("exited (%v) without a line %q; output:\n%s", p.err, prefix, p.Output())
				}
			}
		}
	}
}

// Eventually calls f every 50ms until it returns nil or timeout passes,
// and returns its last error.
func Eventually(timeout time.Duration, f func() error) error {
	deadline := time.Now().Add(timeout)
	for {
		err := f()
		if err == nil || time.Now().After(deadline) {
			return err
		}
		time.Sleep(50 * time.Millisecond)
	}
}
