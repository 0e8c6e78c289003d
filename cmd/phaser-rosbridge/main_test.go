package main

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/phaser-go/phaser/internal/rostest"
	"github.com/phaser-go/phaser/ros/msgs/sensor_msgs/sensor_msgsphaser"
	"github.com/phaser-go/phaser/shm"
)

func TestFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		err  string
	}{
		{nil, "nothing to bridge"},
		{[]string{"-ros2shm", "sensor_msgs/Imu,/imu"}, "want TYPE,TOPIC,CHANNEL"},
		{[]string{"-ros2shm", "sensor_msgs/Nope,/imu,/dev/shm/x"}, `unknown message type "sensor_msgs/Nope"`},
		{[]string{"-shm2ros", "sensor_msgs/Imu,,/dev/shm/x"}, "want TYPE,TOPIC,CHANNEL"},
		{[]string{"-ros2shm", "sensor_msgs/Imu,/imu,/x", "stray"}, "unexpected arguments"},
	} {
		_, err := parseFlags(tc.args, io.Discard)
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%q: %v, want %q", tc.args, err, tc.err)
		}
	}
	c, err := parseFlags([]string{"__name:=b2", "-ros2shm", "sensor_msgs/Image,/cam,/dev/shm/cam", "imu:=/robot/imu", "-shm2ros", "geometry_msgs/Twist,/cmd,/dev/shm/cmd"}, io.Discard)
	if err != nil || len(c.ros2shm) != 1 || len(c.shm2ros) != 1 || c.ros2shm[0].typ.phaser != "sensor_msgs.Image" ||
		c.shm2ros[0].typ.ros.Name != "geometry_msgs/Twist" || strings.Join(c.rosArgs, " ") != "__name:=b2 imu:=/robot/imu" {
		t.Fatalf("%+v %v", c, err)
	}
}

// pyTalker publishes COUNT Imu messages on TOPIC at 50 Hz once a
// subscriber is connected; pyListener prints "msg SEQ MD5" for each Imu on
// TOPIC (the md5 of rospy's serialization of what it decoded).
const pyTalker = `
import sys, time, rospy
from sensor_msgs.msg import Imu
topic, count = sys.argv[1], int(sys.argv[2])
rospy.init_node('pytalker', anonymous=True, disable_signals=True)
pub = rospy.Publisher(topic, Imu, queue_size=100)
deadline = time.time() + 20
while pub.get_num_connections() < 1 and time.time() < deadline:
    time.sleep(0.01)
for i in range(count):
    m = Imu()
    m.header.stamp = rospy.Time(1700000000 + i, 0)
    m.header.frame_id = 'imu_link'
    m.orientation.z = i * 0.25
    m.linear_acceleration.z = 9.75
    pub.publish(m)
    time.sleep(0.02)
time.sleep(1)
print('done', flush=True)
`

const pyListener = `
import sys, time, io, hashlib, rospy
from sensor_msgs.msg import Imu
topic = sys.argv[1]
rospy.init_node('pylistener', anonymous=True, disable_signals=True)
def cb(m):
    b = io.BytesIO()
    m.serialize(b)
    print('msg', m.header.seq, hashlib.md5(b.getvalue()).hexdigest(), flush=True)
rospy.Subscriber(topic, Imu, cb)
while not rospy.is_shutdown():
    time.sleep(0.1)
`

// startBridge runs the bridge with args on m until the test ends.
func startBridge(t *testing.T, m *rostest.Master, args ...string) {
	t.Helper()
	t.Setenv("ROS_HOSTNAME", "127.0.0.1")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	w := &logWriter{t: t}
	go func() { done <- run(ctx, append([]string{"-master", m.URI, "-stats", "500ms"}, args...), w) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("bridge: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Error("the bridge did not stop in 10s")
		}
		w.stop()
	})
}

type logWriter struct {
	mu   sync.Mutex
	t    *testing.T
	done bool
}

func (w *logWriter) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.done {
		w.t.Log(strings.TrimSpace(string(b)))
	}
	return len(b), nil
}

func (w *logWriter) stop() {
	w.mu.Lock()
	w.done = true
	w.mu.Unlock()
}

// TestE2EBridgeROSToSHM: a rospy publisher's Imu messages come out of the
// channel as Phaser payloads with rospy's values.
func TestE2EBridgeROSToSHM(t *testing.T) {
	m := rostest.StartMaster(t)
	channel := filepath.Join(t.TempDir(), "imu")
	startBridge(t, m, "-ros2shm", "sensor_msgs/Imu,/imu,"+channel, "-slots", "8", "-slot-size", "4096")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	sub, err := shm.Subscribe(ctx, channel, shm.Options{Type: "sensor_msgs.Imu"})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	const count = 20
	py := m.Start("python", 60*time.Second, pyTalker, "/imu", strconv.Itoa(count))
	var seqs []uint32
	for i := range count {
		type imuValues struct {
			seq          uint32
			secs         int64
			frame        string
			z, accel     float64
			covarianceOK bool
		}
		v, msg, err := shm.Receive(ctx, sub, func(data []byte) (imuValues, error) {
			imu, err := sensor_msgsphaser.ReadImu(data)
			if err != nil {
				return imuValues{}, err
			}
			h := imu.Header()
			return imuValues{h.Seq(), h.Stamp().Seconds(), h.FrameId(), imu.Orientation().Z(), imu.LinearAcceleration().Z(),
				imu.OrientationCovariance().Len() == 9}, nil
		})
		if err != nil {
			t.Fatalf("message %d: %v; rospy:\n%s", i, err, py.Output())
		}
		want := imuValues{uint32(i + 1), 1_700_000_000 + int64(i), "imu_link", float64(i) * 0.25, 9.75, true}
		if v != want || msg.Missed != 0 {
			t.Fatalf("message %d: %+v (missed %d), want %+v", i, v, msg.Missed, want)
		}
		seqs = append(seqs, v.seq)
	}
	t.Logf("rospy -> bridge -> channel: %d Imu payloads with rospy's values", len(seqs))
}

// TestE2EBridgeSHMToROS: Imu payloads published on a channel reach a
// rospy subscriber through the bridge, decoded to the values written.
func TestE2EBridgeSHMToROS(t *testing.T) {
	m := rostest.StartMaster(t)
	channel := filepath.Join(t.TempDir(), "imu_out")
	pub, err := shm.Create(channel, shm.Config{Type: "sensor_msgs.Imu", SlotSize: 4096, Slots: 8})
	if err != nil {
		t.Fatal(err)
	}
	defer pub.Close()
	startBridge(t, m, "-shm2ros", "sensor_msgs/Imu,/imu_out,"+channel)
	py := m.Start("python", 90*time.Second, pyListener, "/imu_out")

	want := map[string]string{}
	var mu sync.Mutex
	publish := func(i int) {
		slot, err := pub.Loan()
		if err != nil {
			t.Fatal(err)
		}
		imu, err := sensor_msgsphaser.NewImuIn(slot)
		if err != nil {
			t.Fatal(err)
		}
		imu.MutableHeader().SetSeq(uint32(i))
		imu.MutableHeader().SetFrameId("from_shm")
		imu.MutableAngularVelocity().SetX(float64(i) / 4)
		for k := range 9 {
			imu.OrientationCovariance().Append(float64(k))
			imu.AngularVelocityCovariance().Append(0)
			imu.LinearAccelerationCovariance().Append(-float64(k))
		}
		b, err := imu.MarshalROS()
		if err != nil {
			t.Fatal(err)
		}
		s := md5.Sum(b)
		mu.Lock()
		want[strconv.Itoa(i)] = hex.EncodeToString(s[:])
		mu.Unlock()
		if _, err := pub.Publish(len(imu.Bytes())); err != nil {
			t.Fatal(err)
		}
	}
	// Publish until rospy has 20 messages (it connects when it connects).
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
			publish(i)
		}
	})
	defer func() { close(stop); wg.Wait() }()
	for k := range 20 {
		l, err := py.WaitLine("msg ", 60*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		f := strings.Fields(l)
		mu.Lock()
		w := want[f[1]]
		mu.Unlock()
		if len(f) != 3 || f[2] != w {
			t.Fatalf("rospy message %d: %q, want digest %s", k, l, w)
		}
	}
	t.Log("channel -> bridge -> rospy: 20 Imu messages with the values written")
}
