//go:build goroslib

package rosnode

import (
	"strings"
	"testing"
	"time"

	"github.com/bluenviron/goroslib/v2"
	"github.com/bluenviron/goroslib/v2/pkg/msgs/geometry_msgs"
	"github.com/bluenviron/goroslib/v2/pkg/msgs/sensor_msgs"
	"github.com/bluenviron/goroslib/v2/pkg/msgs/std_msgs"

	"github.com/phaser-go/phaser/internal/rostest"
)

// This binary (-tags goroslib) measures goroslib's node.

func init() {
	library = "goroslib"
	newNode = func(b testing.TB, cleanup func(func()), m *rostest.Master, name string) peer {
		n, err := goroslib.NewNode(goroslib.NodeConf{
			Name:            name,
			MasterAddress:   strings.TrimSuffix(strings.TrimPrefix(m.URI, "http://"), "/"),
			Host:            "127.0.0.1",
			LogLevel:        goroslib.LogLevelError,
			LogDestinations: goroslib.LogDestinationConsole,
		})
		if err != nil {
			b.Fatal(err)
		}
		cleanup(n.Close)
		return goroslibPeer{n}
	}
}

type goroslibPeer struct{ n *goroslib.Node }

// goroslib's Publisher.Write queues the message pointer and encodes it
// later, on the subscriber's goroutine: a message must not change until
// it is out. With at most 8 in flight, a ring of 16 is safe.
const ring = 16

func (p goroslibPeer) publisher(b testing.TB, cleanup func(func()), topic, kind string) func(uint32) {
	var msgs []any
	var headers []*std_msgs.Header
	for range ring {
		if kind == "imu" {
			m := newImu()
			msgs, headers = append(msgs, m), append(headers, &m.Header)
		} else {
			m := newImage()
			msgs, headers = append(msgs, m), append(headers, &m.Header)
		}
	}
	pub, err := goroslib.NewPublisher(goroslib.PublisherConf{Node: p.n, Topic: topic, Msg: msgs[0]})
	if err != nil {
		b.Fatal(err)
	}
	cleanup(pub.Close)
	i := 0
	return func(seq uint32) {
		k := i % ring
		i++
		headers[k].Seq = seq
		headers[k].Stamp = time.Now()
		pub.Write(msgs[k])
	}
}

func (p goroslibPeer) subscribe(b testing.TB, cleanup func(func()), topic, kind string, got func(uint32)) {
	var cb any
	if kind == "imu" {
		cb = func(m *sensor_msgs.Imu) { got(m.Header.Seq) }
	} else {
		cb = func(m *sensor_msgs.Image) { got(m.Header.Seq) }
	}
	sub, err := goroslib.NewSubscriber(goroslib.SubscriberConf{Node: p.n, Topic: topic, Callback: cb})
	if err != nil {
		b.Fatal(err)
	}
	cleanup(sub.Close)
}

func (p goroslibPeer) subscribeAcks(b testing.TB, cleanup func(func()), topic string, got func(uint32)) {
	sub, err := goroslib.NewSubscriber(goroslib.SubscriberConf{Node: p.n, Topic: topic,
		Callback: func(m *std_msgs.String) { got(parseSeqBytes([]byte(m.Data))) }})
	if err != nil {
		b.Fatal(err)
	}
	cleanup(sub.Close)
}

// newImu is phaser_test.go's fillImu in goroslib's struct.
func newImu() *sensor_msgs.Imu {
	m := &sensor_msgs.Imu{
		Header:             std_msgs.Header{FrameId: "imu_link"},
		Orientation:        geometry_msgs.Quaternion{W: 1},
		AngularVelocity:    geometry_msgs.Vector3{Z: 0.25},
		LinearAcceleration: geometry_msgs.Vector3{Z: 9.81},
	}
	for k := range 9 {
		m.OrientationCovariance[k] = 0.01 * float64(k)
		m.AngularVelocityCovariance[k] = 0.02 * float64(k)
		m.LinearAccelerationCovariance[k] = 0.03 * float64(k)
	}
	return m
}

// newImage is phaser_test.go's fillImage in goroslib's struct.
func newImage() *sensor_msgs.Image {
	m := &sensor_msgs.Image{
		Header: std_msgs.Header{FrameId: "camera"}, Height: imgH, Width: imgW, Encoding: "rgba8", Step: imgW * 4,
		Data: make([]uint8, imgW*imgH*4),
	}
	for k := range m.Data {
		m.Data[k] = byte(k)
	}
	return m
}
