package node_test

import (
	"fmt"
	"math"
	"sync"
	"testing"
	"time"

	"github.com/phaser-go/phaser/internal/rostest"
	"github.com/phaser-go/phaser/ros/msgs/sensor_msgs/sensor_msgsphaser"
	"github.com/phaser-go/phaser/ros/node"
)

// newNode starts a node on the test master, closed when the test ends.
func newNode(t *testing.T, m *rostest.Master, name string) *node.Node {
	t.Helper()
	n, err := node.New(name, node.Options{MasterURI: m.URI, Host: "127.0.0.1", Args: []string{}, Logf: t.Logf, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Close() })
	return n
}

// waitLinked waits until pub and sub are connected to each other, and only.
func waitLinked(t *testing.T, pub interface{ NumSubscribers() int }, sub *node.Subscriber) {
	t.Helper()
	if err := rostest.Eventually(10*time.Second, func() error {
		if pub.NumSubscribers() != 1 || sub.NumPublishers() != 1 {
			return fmt.Errorf("%d subscribers, %d publishers", pub.NumSubscribers(), sub.NumPublishers())
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// fillImu writes message i of a test stream.
func fillImu(m sensor_msgsphaser.Imu, i int) {
	m.Clear()
	h := m.MutableHeader()
	h.SetSeq(uint32(i))
	h.MutableStamp().SetSeconds(1_700_000_000 + int64(i))
	h.MutableStamp().SetNanos(int32(i) * 1000)
	h.SetFrameId("imu_link")
	q := m.MutableOrientation()
	q.SetZ(math.Sin(float64(i) / 20))
	q.SetW(math.Cos(float64(i) / 20))
	m.MutableAngularVelocity().SetZ(0.1 * float64(i))
	m.MutableLinearAcceleration().SetZ(9.81)
	for k := range 9 {
		m.OrientationCovariance().Append(float64(k) + 0.5)
	}
}

// collector gathers the seq numbers a subscriber receives.
type collector struct {
	mu   sync.Mutex
	seqs []uint32
	bad  []string
}

func (c *collector) imu(want func(i int) sensor_msgsphaser.Imu) func(sensor_msgsphaser.Imu) {
	return func(m sensor_msgsphaser.Imu) {
		c.mu.Lock()
		defer c.mu.Unlock()
		seq := m.Header().Seq()
		c.seqs = append(c.seqs, seq)
		w := want(int(seq))
		a, _ := m.MarshalROS()
		b, _ := w.MarshalROS()
		if string(a) != string(b) {
			c.bad = append(c.bad, fmt.Sprintf("seq %d differs", seq))
		}
	}
}

func (c *collector) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.seqs)
}

func TestE2EGoToGo(t *testing.T) {
	m := rostest.StartMaster(t)
	pn := newNode(t, m, "talker")
	sn := newNode(t, m, "listener")
	pub, err := node.Advertise[sensor_msgsphaser.Imu](pn, "imu", node.PublishOptions{Queue: 128})
	if err != nil {
		t.Fatal(err)
	}
	var c collector
	want := sensor_msgsphaser.NewImu()
	sub, err := node.Subscribe(sn, "/imu", sensor_msgsphaser.NewImu(), c.imu(func(i int) sensor_msgsphaser.Imu { fillImu(want, i); return want }))
	if err != nil {
		t.Fatal(err)
	}
	waitLinked(t, pub, sub)
	msg := sensor_msgsphaser.NewImu()
	for i := range 100 {
		fillImu(msg, i)
		if err := pub.Publish(msg); err != nil {
			t.Fatal(err)
		}
	}
	if err := rostest.Eventually(10*time.Second, func() error {
		if k := c.count(); k != 100 {
			return fmt.Errorf("%d of 100 messages arrived", k)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, s := range c.seqs {
		if s != uint32(i) {
			t.Fatalf("message %d has seq %d", i, s)
		}
	}
	if len(c.bad) > 0 {
		t.Fatal(c.bad)
	}
	st := pub.Stats()
	if st.Published != 100 || st.Sent != 100 || st.Dropped != 0 {
		t.Errorf("publisher stats %+v", st)
	}
	if ss := sub.Stats(); ss.Received != 100 || ss.Errors != 0 {
		t.Errorf("subscriber stats %+v", ss)
	}
}

// TestE2ESteadyStateAllocs: once connections are up and buffers have grown,
// a message published by one node and delivered to another's callback
// costs no allocation, counted over every goroutine of the process (the
// publisher's writer, the subscriber's reader, the callback), for an Imu
// and for a 1 MiB Image.
//
// The nodes' once-a-second master check (an XML-RPC call, which does
// allocate) is off here: on a loaded machine, with slow round trips, it
// would be charged to the few messages of the run.
func TestE2ESteadyStateAllocs(t *testing.T) {
	m := rostest.StartMaster(t)
	quiet := node.Options{MasterURI: m.URI, Host: "127.0.0.1", Args: []string{}, Logf: t.Logf, MasterCheck: -1}
	pn, err := node.New("talker", quiet)
	if err != nil {
		t.Fatal(err)
	}
	defer pn.Close()
	sn, err := node.New("listener", quiet)
	if err != nil {
		t.Fatal(err)
	}
	defer sn.Close()
	t.Run("imu", func(t *testing.T) {
		steadyAllocs(t, pn, sn, 500, sensor_msgsphaser.NewImu(), sensor_msgsphaser.NewImu(), fillImu2, func(m sensor_msgsphaser.Imu) uint32 { return m.Header().Seq() })
	})
	t.Run("image", func(t *testing.T) {
		steadyAllocs(t, pn, sn, 50, sensor_msgsphaser.NewImage(), sensor_msgsphaser.NewImage(), fillImage, func(m sensor_msgsphaser.Image) uint32 { return m.Header().Seq() })
	})
}

// steadyAllocs publishes msg from pn and receives it into into on sn.
func steadyAllocs[T node.Message](t *testing.T, pn, sn *node.Node, runs int, msg, into T, fill func(T, int), seq func(T) uint32) {
	topic := "/" + t.Name()
	pub, err := node.Advertise[T](pn, topic)
	if err != nil {
		t.Fatal(err)
	}
	defer pub.Close()
	got := make(chan uint32, 1)
	sub, err := node.Subscribe(sn, topic, into, func(m T) { got <- seq(m) })
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	waitLinked(t, pub, sub)
	i := 0
	timeout := time.NewTimer(time.Hour) // reset per message: time.After would allocate
	roundTrip := func() {
		// Every fixed array full: -race disables the compiler's
		// non-allocating zero fill of the rest.
		fill(msg, i)
		if err := pub.Publish(msg); err != nil {
			t.Fatal(err)
		}
		timeout.Reset(10 * time.Second)
		select {
		case s := <-got:
			if s != uint32(i) {
				t.Fatalf("got seq %d, want %d", s, i)
			}
		case <-timeout.C:
			t.Fatalf("message %d did not arrive", i)
		}
		i++
	}
	for range 20 {
		roundTrip()
	}
	allocs := testing.AllocsPerRun(runs, roundTrip)
	t.Logf("%.3f allocations per message", allocs)
	if allocs > 0 {
		t.Errorf("%.3f allocations per published and delivered message, want 0", allocs)
	}
}
