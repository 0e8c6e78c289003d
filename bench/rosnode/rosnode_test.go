// Package rosnode measures ROS1 nodes on a real ROS graph (Debian's
// rosmaster and rospy, on loopback): message rate and latency of
// sensor_msgs/Imu and a 1 MiB sensor_msgs/Image, from a Go node to a Go
// node and from a Go node to a rospy node, for phaser-go's ros/node and,
// built with -tags goroslib, for goroslib's node on the same topics. Each
// library is linked into its own test binary; ./run interleaves them and
// writes ../results/rosnode.md.
//
// Every benchmark publishes with a window of messages in flight and waits
// for each to come back: from the Go subscriber's callback, or from the
// rospy node, which answers each message with its seq on /ack
// (std_msgs/String). Both libraries do the same work per message: set
// header.seq and stamp, serialize the whole message, send it, decode the
// whole message in the subscriber. "throughput" keeps 8 messages in
// flight (under both publishers' queues: nothing is dropped), "latency"
// one; ns/op is per message, p50/p99 the time from Publish to the
// callback (Go) or to the ack's arrival (rospy: a round trip).
package rosnode

import (
	"slices"
	"testing"
	"time"

	"github.com/phaser-go/phaser/internal/rostest"
)

// peer is what a library under test provides: a node on the master.
// Errors go to tb; what must outlive one run of a benchmark is closed by
// functions given to cleanup.
type peer interface {
	// publisher advertises topic with messages of kind ("imu", "image"),
	// prefilled; publish sets header.seq and stamp and publishes.
	publisher(tb testing.TB, cleanup func(func()), topic, kind string) (publish func(seq uint32))
	// subscribe subscribes to topic with messages of kind, decoding each
	// whole and calling got with its header.seq.
	subscribe(tb testing.TB, cleanup func(func()), topic, kind string, got func(seq uint32))
	// subscribeAcks subscribes to std_msgs/String seq numbers on topic.
	subscribeAcks(tb testing.TB, cleanup func(func()), topic string, got func(seq uint32))
}

// newNode starts a node of the library this binary is built with.
var newNode func(tb testing.TB, cleanup func(func()), m *rostest.Master, name string) peer

// library names the library this binary is built with.
var library string

// Image size: rgba8, 512 x 512, 1 MiB of pixels.
const imgW, imgH = 512, 512

// pyEcho answers each message of KIND on TOPIC with its seq on ACK.
const pyEcho = `
import sys, time, rospy
from sensor_msgs.msg import Imu, Image
from std_msgs.msg import String
kind, topic, acks = sys.argv[1], sys.argv[2], sys.argv[3]
rospy.init_node('pyecho', anonymous=True, disable_signals=True)
ack = rospy.Publisher(acks, String, queue_size=1000, tcp_nodelay=True)
def cb(m):
    ack.publish(String(str(m.header.seq)))
rospy.Subscriber(topic, Imu if kind == 'imu' else Image, cb, tcp_nodelay=True, queue_size=1000)
print('ready', flush=True)
while not rospy.is_shutdown():
    time.sleep(0.2)
`

// probe seqs make sure the whole path is connected before the timer
// starts; measured messages have seqs below it.
const probe = 1 << 30

// path is one benchmark's set-up, made on its first run and kept for the
// next ones (the benchmark function runs once per b.N tried), then closed.
type path struct {
	publish func(uint32)
	acks    chan uint32
}

func BenchmarkROSNode(b *testing.B) {
	m := rostest.StartMaster(b)
	paths := map[string]*path{}
	for _, kind := range []string{"imu", "image"} {
		for _, to := range []string{"go", "rospy"} {
			for _, mode := range []struct {
				name   string
				window int
			}{{"throughput", 8}, {"latency", 1}} {
				name := kind + "/" + to + "/" + mode.name
				// The path's nodes and rospy process are closed as soon as
				// its benchmark is done: idle nodes still poll the master,
				// which would count against the next benchmarks.
				var cleanups []func()
				cleanup := func(f func()) { cleanups = append(cleanups, f) }
				b.Run(name, func(sb *testing.B) {
					p := paths[name]
					if p == nil {
						p = newPath(sb, cleanup, m, kind, to, mode.name, mode.window)
						paths[name] = p
					}
					run(sb, p, mode.window)
				})
				for i := len(cleanups) - 1; i >= 0; i-- {
					cleanups[i]()
				}
			}
		}
	}
}

// newPath connects a publisher to a Go subscriber or to a rospy echo
// node, and waits until messages come back.
func newPath(tb testing.TB, cleanup func(func()), m *rostest.Master, kind, to, mode string, window int) *path {
	id := kind + "_" + to + "_" + mode
	topic, ackTopic := "/bench_"+id, "/ack_"+id
	p := &path{acks: make(chan uint32, 4*window+16)}
	ack := func(seq uint32) { p.acks <- seq }
	pub := newNode(tb, cleanup, m, "pub_"+id)
	p.publish = pub.publisher(tb, cleanup, topic, kind)
	if to == "go" {
		newNode(tb, cleanup, m, "sub_"+id).subscribe(tb, cleanup, topic, kind, ack)
	} else {
		py := m.Start("python", 0, pyEcho, kind, topic, ackTopic)
		cleanup(py.Kill)
		if _, err := py.WaitLine("ready", 30*time.Second); err != nil {
			tb.Fatal(err)
		}
		pub.subscribeAcks(tb, cleanup, ackTopic, ack)
	}
	deadline := time.Now().Add(30 * time.Second)
	for probing := true; probing; {
		p.publish(probe)
		select {
		case <-p.acks:
			probing = false
		case <-time.After(100 * time.Millisecond):
			if time.Now().After(deadline) {
				tb.Fatal("no message came back in 30s")
			}
		}
	}
	time.Sleep(300 * time.Millisecond) // let the other probes come back
	for len(p.acks) > 0 {
		<-p.acks
	}
	return p
}

// run measures b.N messages on p after a warm-up that grows every buffer
// and queue.
func run(b *testing.B, p *path, window int) {
	measure(b, p.publish, p.acks, window, 50, nil)
	lat := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	measure(b, p.publish, p.acks, window, b.N, &lat)
	b.StopTimer()
	slices.Sort(lat)
	if len(lat) > 0 {
		b.ReportMetric(float64(lat[len(lat)/2].Nanoseconds())/1e3, "p50-µs")
		b.ReportMetric(float64(lat[len(lat)*99/100].Nanoseconds())/1e3, "p99-µs")
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
}

// measure publishes n messages, at most window in flight, and waits for
// each to come back in order; lat, if not nil, gets each message's time.
func measure(b *testing.B, publish func(uint32), acks <-chan uint32, window, n int, lat *[]time.Duration) {
	// Each run numbers its messages from 0: the path holds no message of
	// an earlier run (every one came back).
	sent := make([]time.Time, window)
	timeout := time.NewTimer(time.Hour)
	defer timeout.Stop()
	next, got := 0, 0
	for got < n {
		for next-got < window && next < n {
			sent[next%window] = time.Now()
			publish(uint32(next))
			next++
		}
		timeout.Reset(30 * time.Second)
		select {
		case s := <-acks:
			if s >= probe {
				continue
			}
			if int(s) != got {
				b.Fatalf("message %d came back as %d: lost or reordered", got, s)
			}
			if lat != nil {
				*lat = append(*lat, time.Since(sent[got%window]))
			}
			got++
		case <-timeout.C:
			b.Fatalf("message %d did not come back in 30s (%d sent)", got, next)
		}
	}
}

// parseSeqBytes reads an ack's decimal seq without allocating (an ack
// that is not one reads as probe).
func parseSeqBytes(s []byte) uint32 {
	if len(s) == 0 || len(s) > 10 {
		return probe
	}
	var v uint64
	for _, c := range s {
		if c < '0' || c > '9' {
			return probe
		}
		v = v*10 + uint64(c-'0')
	}
	return uint32(min(v, probe))
}

func TestLibrary(t *testing.T) {
	if library == "" || newNode == nil {
		t.Fatal("no library linked")
	}
}
