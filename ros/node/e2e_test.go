package node_test

// End-to-end tests against Debian's real ROS1: rosmaster, rospy nodes,
// rostopic and rosnode, on loopback (see internal/rostest). They skip
// when ROS is not installed, and fail then in CI (PHASER_REQUIRE_INTEROP=1).

import (
	"crypto/md5"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/phaser-go/phaser/internal/rostest"
	"github.com/phaser-go/phaser/ros/msgs/sensor_msgs/sensor_msgsphaser"
	"github.com/phaser-go/phaser/ros/node"
)

// pyFill is the Python twin of fillImu2 and fillImage: message i of a test
// stream, with values exact in binary floating point so that both sides
// compute the same bits.
const pyFill = `
import sys, time, hashlib, io, rospy
from sensor_msgs.msg import Imu, Image

IMG_W, IMG_H = 512, 512  # rgba8: 1 MiB of pixels
BASE = bytes(range(256)) * (IMG_W * IMG_H * 4 // 256 + 1)

def fill(kind, i):
    if kind == 'imu':
        m = Imu()
        m.header.seq = i
        m.header.stamp = rospy.Time(1700000000 + i, i * 1000)
        m.header.frame_id = 'imu_link'
        m.orientation.z = i * 0.25
        m.orientation.w = 1.0 - i * 0.125
        m.orientation_covariance = [k + i * 0.5 for k in range(9)]
        m.angular_velocity.z = -0.5 * i
        m.linear_acceleration.z = 9.75
        m.linear_acceleration_covariance[8] = float(i)
        return m
    m = Image()
    m.header.seq = i
    m.header.stamp = rospy.Time(1700000000 + i, 0)
    m.header.frame_id = 'camera'
    m.height, m.width, m.encoding, m.step = IMG_H, IMG_W, 'rgba8', IMG_W * 4
    m.data = BASE[i % 256 : i % 256 + IMG_W * IMG_H * 4]
    return m

def kind_type(kind):
    return Imu if kind == 'imu' else Image

def digest(m):
    b = io.BytesIO()
    m.serialize(b)
    return hashlib.md5(b.getvalue()).hexdigest()
`

// pyTalker publishes COUNT messages of KIND on TOPIC at RATE Hz (0: as
// fast as it can) once SUBS subscribers are connected; with COUNT 0 it
// publishes until killed.
const pyTalker = pyFill + `
kind, topic, count, rate, subs = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])
rospy.init_node('pytalker', anonymous=True, disable_signals=True)
pub = rospy.Publisher(topic, kind_type(kind), queue_size=1000)
deadline = time.time() + 20
while pub.get_num_connections() < subs and time.time() < deadline:
    time.sleep(0.01)
print('connected', pub.get_num_connections(), flush=True)
i = 0
while count == 0 or i < count:
    pub.publish(fill(kind, i))
    i += 1
    if rate > 0:
        time.sleep(1.0 / rate)
time.sleep(3)  # rospy drops what it still queues when it shuts down
print('done', i, flush=True)
rospy.signal_shutdown('done')
`

// pyListener prints "msg SEQ MD5" for each message of KIND on TOPIC (the
// md5 of rospy's own serialization of what it decoded), and exits after
// COUNT of them.
const pyListener = pyFill + `
kind, topic, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
rospy.init_node('pylistener', anonymous=True, disable_signals=True)
got = [0]
def cb(m):
    print('msg', m.header.seq, digest(m), flush=True)
    got[0] += 1
    if got[0] >= count:
        rospy.signal_shutdown('done')
rospy.Subscriber(topic, kind_type(kind), cb, tcp_nodelay=True)
print('subscribed', flush=True)
deadline = time.time() + 60
while not rospy.is_shutdown() and time.time() < deadline:
    time.sleep(0.05)
print('done', got[0], flush=True)
`

const (
	imgW, imgH = 512, 512
)

// fillImu2 is pyFill's Imu i.
func fillImu2(m sensor_msgsphaser.Imu, i int) {
	m.Clear()
	h := m.MutableHeader()
	h.SetSeq(uint32(i))
	h.MutableStamp().SetSeconds(1_700_000_000 + int64(i))
	h.MutableStamp().SetNanos(int32(i) * 1000)
	h.SetFrameId("imu_link")
	m.MutableOrientation().SetZ(float64(i) * 0.25)
	m.MutableOrientation().SetW(1.0 - float64(i)*0.125)
	for k := range 9 {
		m.OrientationCovariance().Append(float64(k) + float64(i)*0.5)
	}
	m.MutableAngularVelocity().SetZ(-0.5 * float64(i))
	m.AngularVelocityCovariance().Resize(9)
	m.MutableLinearAcceleration().SetZ(9.75)
	m.LinearAccelerationCovariance().Resize(9)
	m.LinearAccelerationCovariance().Set(8, float64(i))
}

// fillImage is pyFill's Image i.
func fillImage(m sensor_msgsphaser.Image, i int) {
	m.Clear()
	h := m.MutableHeader()
	h.SetSeq(uint32(i))
	h.MutableStamp().SetSeconds(1_700_000_000 + int64(i))
	h.SetFrameId("camera")
	m.SetHeight(imgH)
	m.SetWidth(imgW)
	m.SetEncoding("rgba8")
	m.SetStep(imgW * 4)
	d := m.AllocateData(imgW * imgH * 4)
	for k := range d {
		d[k] = byte(k + i)
	}
}

func rosDigest(b []byte, err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	s := md5.Sum(b)
	return hex.EncodeToString(s[:])
}

// testPublisher publishes message i of a test stream and returns the
// digest of its ROS1 bytes; it is closed when the test ends.
type testPublisher struct {
	publish     func(i int) (string, error)
	subscribers func() int
}

func newTestPublisher[T interface {
	node.Message
	MarshalROS() ([]byte, error)
}](t *testing.T, n *node.Node, topic string, msg T, fill func(T, int)) *testPublisher {
	pub, err := node.Advertise[T](n, topic)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pub.Close() })
	return &testPublisher{
		publish: func(i int) (string, error) {
			fill(msg, i)
			return rosDigest(msg.MarshalROS()), pub.Publish(msg)
		},
		subscribers: pub.NumSubscribers,
	}
}

// TestE2ERospyToGo: a rospy publisher's Imu and 1 MiB Image messages reach
// the Go node with the values rospy sent (the Go node's ROS1 bytes of what
// it decoded equal those of the same message built in Go).
func TestE2ERospyToGo(t *testing.T) {
	m := rostest.StartMaster(t)
	n := newNode(t, m, "golistener")
	const count = 20
	for _, kind := range []string{"imu", "image"} {
		t.Run(kind, func(t *testing.T) {
			topic := "/py_" + kind
			var mu sync.Mutex
			var seqs []uint32
			var bad []string
			// rospy numbers the messages it publishes from 1, replacing
			// header.seq; the stamp says which message it is. The digests
			// are computed first, so that the callback keeps up with rospy
			// (which drops what it still queues when it exits).
			want := make([]string, count)
			for i := range count {
				if kind == "imu" {
					w := sensor_msgsphaser.NewImu()
					fillImu2(w, i)
					w.MutableHeader().SetSeq(uint32(i + 1))
					want[i] = rosDigest(w.MarshalROS())
				} else {
					w := sensor_msgsphaser.NewImage()
					fillImage(w, i)
					w.MutableHeader().SetSeq(uint32(i + 1))
					want[i] = rosDigest(w.MarshalROS())
				}
			}
			check := func(seq uint32, stamp int64, got []byte, err error) {
				g := rosDigest(got, err)
				mu.Lock()
				defer mu.Unlock()
				i := int(stamp - 1_700_000_000)
				seqs = append(seqs, seq)
				if i < 0 || i >= count || g != want[i] {
					bad = append(bad, fmt.Sprintf("stamp %d: %s", stamp, g))
				}
			}
			var sub *node.Subscriber
			var err error
			if kind == "imu" {
				sub, err = node.Subscribe(n, topic, sensor_msgsphaser.NewImu(), func(m sensor_msgsphaser.Imu) {
					b, err := m.MarshalROS()
					check(m.Header().Seq(), m.Header().Stamp().Seconds(), b, err)
				})
			} else {
				sub, err = node.Subscribe(n, topic, sensor_msgsphaser.NewImage(), func(m sensor_msgsphaser.Image) {
					b, err := m.MarshalROS()
					check(m.Header().Seq(), m.Header().Stamp().Seconds(), b, err)
				})
			}
			if err != nil {
				t.Fatal(err)
			}
			defer sub.Close()
			py := m.Start("python", 60*time.Second, pyTalker, kind, topic, strconv.Itoa(count), "50", "1")
			if _, err := py.WaitLine("connected 1", 30*time.Second); err != nil {
				t.Fatal(err)
			}
			if _, err := py.WaitLine("done", 30*time.Second); err != nil {
				t.Fatal(err)
			}
			if err := rostest.Eventually(5*time.Second, func() error {
				mu.Lock()
				defer mu.Unlock()
				if len(seqs) != count {
					return fmt.Errorf("%d of %d messages from rospy arrived", len(seqs), count)
				}
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			mu.Lock()
			defer mu.Unlock()
			for i, s := range seqs {
				if s != uint32(i+1) {
					t.Fatalf("message %d has seq %d", i, s)
				}
			}
			if len(bad) > 0 {
				t.Fatalf("%d messages differ: %v", len(bad), bad)
			}
			t.Logf("rospy -> Go: %d %s messages, equal values", len(seqs), kind)
		})
	}
}

// TestE2EGoToRospy: the Go node's Imu and 1 MiB Image messages reach a rospy
// subscriber, which decodes them to the values Go wrote (rospy's own
// serialization of what it decoded equals the Go node's bytes).
func TestE2EGoToRospy(t *testing.T) {
	m := rostest.StartMaster(t)
	n := newNode(t, m, "gotalker")
	const count = 20
	for _, kind := range []string{"imu", "image"} {
		t.Run(kind, func(t *testing.T) {
			topic := "/go_" + kind
			var p *testPublisher
			if kind == "imu" {
				p = newTestPublisher(t, n, topic, sensor_msgsphaser.NewImu(), fillImu2)
			} else {
				p = newTestPublisher(t, n, topic, sensor_msgsphaser.NewImage(), fillImage)
			}
			publish, subscribers := p.publish, p.subscribers
			py := m.Start("python", 90*time.Second, pyListener, kind, topic, strconv.Itoa(count))
			if err := rostest.Eventually(30*time.Second, func() error {
				if subscribers() != 1 {
					return fmt.Errorf("%d rospy subscribers connected; rospy output:\n%s", subscribers(), py.Output())
				}
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			want := map[string]string{}
			for i := range count {
				d, err := publish(i)
				if err != nil {
					t.Fatal(err)
				}
				want[strconv.Itoa(i)] = d
				time.Sleep(20 * time.Millisecond)
			}
			for range count {
				l, err := py.WaitLine("msg ", 30*time.Second)
				if err != nil {
					t.Fatal(err)
				}
				f := strings.Fields(l)
				if len(f) != 3 || want[f[1]] != f[2] {
					t.Fatalf("rospy got %q, want digest %s", l, want[f[1]])
				}
				delete(want, f[1])
			}
			if len(want) != 0 {
				t.Fatalf("messages rospy did not get: %v", want)
			}
			t.Logf("Go -> rospy: %d %s messages, equal values", count, kind)
		})
	}
}

// TestE2ETools: rostopic and rosnode see the Go node as they see any node:
// rostopic info lists it, rostopic type and rosnode info describe it (the
// latter through the slave API's getBusInfo and getPid), rostopic echo (a
// "*" md5sum subscriber) prints its messages, rostopic pub feeds its raw
// subscriber.
func TestE2ETools(t *testing.T) {
	m := rostest.StartMaster(t)
	n := newNode(t, m, "gonode")
	pub, err := node.Advertise[sensor_msgsphaser.Imu](n, "/imu", node.PublishOptions{Latch: true})
	if err != nil {
		t.Fatal(err)
	}
	raw := make(chan node.RawMessage, 16)
	sub, err := n.SubscribeRaw("/cmd", node.Any, func(m node.RawMessage) {
		m.Data = append([]byte(nil), m.Data...)
		select {
		case raw <- m:
		default:
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	msg := sensor_msgsphaser.NewImu()
	fillImu2(msg, 7)
	if err := pub.Publish(msg); err != nil {
		t.Fatal(err)
	}

	out, err := m.Run(30*time.Second, "rostopic", "info", "/imu")
	if err != nil || !strings.Contains(out, "Type: sensor_msgs/Imu") || !strings.Contains(out, "* /gonode ("+n.URI()+")") {
		t.Fatalf("rostopic info /imu (%v):\n%s", err, out)
	}
	t.Logf("rostopic info /imu:\n%s", out)
	out, err = m.Run(30*time.Second, "rostopic", "type", "/imu")
	if err != nil || strings.TrimSpace(out) != "sensor_msgs/Imu" {
		t.Fatalf("rostopic type /imu (%v): %q", err, out)
	}
	out, err = m.Run(30*time.Second, "rosnode", "list")
	if err != nil || !strings.Contains(out, "/gonode") {
		t.Fatalf("rosnode list (%v):\n%s", err, out)
	}
	out, err = m.Run(30*time.Second, "rostopic", "echo", "-n", "1", "/imu")
	if err != nil || !strings.Contains(out, "seq: 7") || !strings.Contains(out, "frame_id: \"imu_link\"") || !strings.Contains(out, "z: 9.75") {
		t.Fatalf("rostopic echo -n 1 /imu (%v):\n%s", err, out)
	}
	out, err = m.Run(30*time.Second, "rosnode", "info", "/gonode")
	if err != nil || !strings.Contains(out, "Publications: \n * /imu [sensor_msgs/Imu]") || !strings.Contains(out, "Pid: ") ||
		!strings.Contains(out, " * /cmd [unknown type]") { // the master's word for "*"
		t.Fatalf("rosnode info /gonode (%v):\n%s", err, out)
	}
	t.Logf("rosnode info /gonode:\n%s", out)

	// rostopic pub, a rospy publisher, feeds the "*" subscriber.
	rp := m.Start("rostopic", 30*time.Second, "pub", "-r", "10", "/cmd", "std_msgs/String", "data: hello")
	defer rp.Kill()
	select {
	case r := <-raw:
		want := append([]byte{5, 0, 0, 0}, "hello"...)
		if r.Type.Name != "std_msgs/String" || r.Type.MD5 != "992ce8a1687cec8c8bd883ec73ca41d1" || string(r.Data) != string(want) ||
			!strings.HasPrefix(r.Publisher, "/rostopic_") || r.Type.Definition != "string data\n" {
			t.Fatalf("raw message %+v", r)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("no message from rostopic pub; stats %+v; output:\n%s", sub.Stats(), rp.Output())
	}
}

// TestE2ERosnodeKill: rosnode kill shuts the Go node down cleanly: Done
// closes, Err says who asked, and the master no longer lists the node.
func TestE2ERosnodeKill(t *testing.T) {
	m := rostest.StartMaster(t)
	n := newNode(t, m, "victim")
	if _, err := node.Advertise[sensor_msgsphaser.Imu](n, "/imu"); err != nil {
		t.Fatal(err)
	}
	out, err := m.Run(30*time.Second, "rosnode", "kill", "/victim")
	if err != nil || !strings.Contains(out, "killed") {
		t.Fatalf("rosnode kill (%v):\n%s", err, out)
	}
	select {
	case <-n.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the node did not shut down")
	}
	if err := n.Err(); !errors.Is(err, node.ErrShutdown) || !strings.Contains(err.Error(), "/rosnode") {
		t.Fatalf("Err after rosnode kill: %v", err)
	}
	if _, err := node.Advertise[sensor_msgsphaser.Imu](n, "/other"); !errors.Is(err, node.ErrClosed) {
		t.Fatalf("Advertise on a killed node: %v", err)
	}
	// The node unregistered its only topic: the master forgot both.
	out, _ = m.Run(30*time.Second, "rostopic", "info", "/imu")
	if !strings.Contains(out, "ERROR: Unknown topic /imu") {
		t.Fatalf("rostopic info /imu after the kill:\n%s", out)
	}
	out, err = m.Run(30*time.Second, "rosnode", "list")
	if err != nil || strings.Contains(out, "/victim") {
		t.Fatalf("rosnode list after the kill (%v):\n%s", err, out)
	}
}

// TestE2EPeerDiesMidStream: a rospy publisher killed mid-stream, and a rospy
// subscriber killed mid-stream, leave the Go node working: the next
// publisher's messages arrive, and the next subscriber gets the Go node's.
func TestE2EPeerDiesMidStream(t *testing.T) {
	m := rostest.StartMaster(t)
	n := newNode(t, m, "survivor")
	var mu sync.Mutex
	got := map[string]int{}
	sub, err := n.SubscribeRaw("/py_imu", node.TypeOf[sensor_msgsphaser.Imu](), func(r node.RawMessage) {
		mu.Lock()
		got[r.Publisher]++
		mu.Unlock()
	})
	if err != nil {
		t.Fatal(err)
	}
	received := func(pub string) int {
		mu.Lock()
		defer mu.Unlock()
		return got[pub]
	}
	publishers := func() []string {
		mu.Lock()
		defer mu.Unlock()
		var out []string
		for p := range got {
			out = append(out, p)
		}
		return out
	}
	first := m.Start("python", 60*time.Second, pyTalker, "imu", "/py_imu", "0", "200", "1")
	if err := rostest.Eventually(30*time.Second, func() error {
		if p := publishers(); len(p) != 1 || received(p[0]) < 50 {
			return fmt.Errorf("from %v; rospy:\n%s", p, first.Output())
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	firstName := publishers()[0]
	first.Kill() // SIGKILL: no unregistration, the socket just closes
	second := m.Start("python", 60*time.Second, pyTalker, "imu", "/py_imu", "0", "200", "1")
	if err := rostest.Eventually(30*time.Second, func() error {
		for _, p := range publishers() {
			if p != firstName && received(p) >= 50 {
				return nil
			}
		}
		return fmt.Errorf("from %v, stats %+v; rospy:\n%s", publishers(), sub.Stats(), second.Output())
	}); err != nil {
		t.Fatal(err)
	}
	second.Kill()

	// The other direction: rospy subscribers that die while the Go node
	// publishes at full speed.
	pub, err := node.Advertise[sensor_msgsphaser.Imu](n, "/go_imu")
	if err != nil {
		t.Fatal(err)
	}
	msg := sensor_msgsphaser.NewImu()
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			fillImu2(msg, i%1000)
			if err := pub.Publish(msg); err != nil {
				t.Error(err)
				return
			}
			time.Sleep(time.Millisecond)
		}
	})
	defer func() { close(stop); wg.Wait() }()
	for round := range 2 {
		l := m.Start("python", 60*time.Second, pyListener, "imu", "/go_imu", "1000000")
		if _, err := l.WaitLine("msg ", 30*time.Second); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		l.Kill()
		if err := rostest.Eventually(10*time.Second, func() error {
			if k := pub.NumSubscribers(); k != 0 {
				return fmt.Errorf("%d subscribers after the rospy subscriber died", k)
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("publisher stats after two dead subscribers: %+v", pub.Stats())
}

// TestE2EMasterRestart: a master restarted under a running Go node learns the
// node's publications and subscriptions again, and new rospy peers reach
// them.
func TestE2EMasterRestart(t *testing.T) {
	m := rostest.StartMaster(t)
	n, err := node.New("phoenix", node.Options{MasterURI: m.URI, Host: "127.0.0.1", Args: []string{}, Logf: t.Logf, MasterCheck: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	pub, err := node.Advertise[sensor_msgsphaser.Imu](n, "/go_imu", node.PublishOptions{Latch: true})
	if err != nil {
		t.Fatal(err)
	}
	msg := sensor_msgsphaser.NewImu()
	fillImu2(msg, 3)
	if err := pub.Publish(msg); err != nil {
		t.Fatal(err)
	}
	got := make(chan uint32, 100)
	if _, err := node.Subscribe(n, "/py_imu", sensor_msgsphaser.NewImu(), func(m sensor_msgsphaser.Imu) {
		select {
		case got <- m.Header().Seq():
		default:
		}
	}); err != nil {
		t.Fatal(err)
	}

	m.Restart()
	if err := rostest.Eventually(20*time.Second, func() error {
		out, err := m.Run(20*time.Second, "rostopic", "info", "/go_imu")
		if err != nil || !strings.Contains(out, "* /phoenix (") {
			return fmt.Errorf("rostopic info /go_imu on the new master (%v):\n%s", err, out)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	out, err := m.Run(30*time.Second, "rostopic", "echo", "-n", "1", "/go_imu")
	if err != nil || !strings.Contains(out, "seq: 3") {
		t.Fatalf("rostopic echo of the latched message after the restart (%v):\n%s", err, out)
	}
	py := m.Start("python", 60*time.Second, pyTalker, "imu", "/py_imu", "0", "50", "1")
	select {
	case <-got:
	case <-time.After(30 * time.Second):
		t.Fatalf("no message from a rospy publisher started after the restart; rospy:\n%s", py.Output())
	}
}

// TestE2EWrongType: across a real graph, a type mismatch is refused both
// ways with the error headers rospy knows: a rospy subscriber of the
// wrong type gets this node's, and this node's subscription of the wrong
// type gets rospy's; nothing is delivered either way.
func TestE2EWrongType(t *testing.T) {
	m := rostest.StartMaster(t)
	var mu sync.Mutex
	var logs []string
	n, err := node.New("strict", node.Options{MasterURI: m.URI, Host: "127.0.0.1", Args: []string{}, Logf: func(f string, a ...any) {
		mu.Lock()
		logs = append(logs, fmt.Sprintf(f, a...))
		mu.Unlock()
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	logged := func(s string) error {
		mu.Lock()
		defer mu.Unlock()
		for _, l := range logs {
			if strings.Contains(l, s) {
				return nil
			}
		}
		return fmt.Errorf("no log line with %q in %q", s, logs)
	}
	pub, err := node.Advertise[sensor_msgsphaser.Imu](n, "/go_imu")
	if err != nil {
		t.Fatal(err)
	}
	// rospy subscribes to /go_imu as std_msgs/String.
	m.Start("python", 60*time.Second, `
import rospy, time
from std_msgs.msg import String
rospy.init_node('wrongsub', disable_signals=True)
rospy.Subscriber('/go_imu', String, lambda m: print('got', flush=True))
time.sleep(30)
`)
	if err := rostest.Eventually(30*time.Second, func() error {
		return logged("topic types do not match: [std_msgs/String] vs. [sensor_msgs/Imu]")
	}); err != nil {
		t.Fatal(err)
	}
	if k := pub.NumSubscribers(); k != 0 {
		t.Fatalf("%d subscribers of the wrong type connected", k)
	}
	// This node subscribes to a rospy Imu topic as std_msgs/String.
	sub, err := n.SubscribeRaw("/py_imu", node.Type{Name: "std_msgs/String", MD5: "992ce8a1687cec8c8bd883ec73ca41d1", Definition: "string data\n"},
		func(node.RawMessage) { t.Error("a message of the wrong type was delivered") })
	if err != nil {
		t.Fatal(err)
	}
	m.Start("python", 60*time.Second, pyTalker, "imu", "/py_imu", "0", "50", "0")
	if err := rostest.Eventually(30*time.Second, func() error {
		return logged("publisher refused the connection: topic types do not match: [std_msgs/String] vs. [sensor_msgs/Imu]")
	}); err != nil {
		t.Fatal(err)
	}
	if st := sub.Stats(); st.Received != 0 || st.Publishers != 0 {
		t.Fatalf("stats %+v", st)
	}
}
