//go:build !goroslib

package rosnode

import (
	"testing"
	"time"

	"github.com/phaser-go/phaser/internal/rostest"
	"github.com/phaser-go/phaser/ros/msgs/sensor_msgs/sensor_msgsphaser"
	"github.com/phaser-go/phaser/ros/msgs/std_msgs/std_msgsphaser"
	"github.com/phaser-go/phaser/ros/node"
)

// This binary measures phaser-go's ros/node.

func init() {
	library = "phaser"
	newNode = func(tb testing.TB, cleanup func(func()), m *rostest.Master, name string) peer {
		n, err := node.New(name, node.Options{MasterURI: m.URI, Host: "127.0.0.1", Args: []string{}})
		if err != nil {
			tb.Fatal(err)
		}
		cleanup(func() { n.Close() })
		return phaserPeer{n}
	}
}

type phaserPeer struct{ n *node.Node }

func (p phaserPeer) publisher(b testing.TB, _ func(func()), topic, kind string) func(uint32) {
	if kind == "imu" {
		m := sensor_msgsphaser.NewImu()
		fillImu(m)
		return publisherOf(b, p.n, topic, m)
	}
	m := sensor_msgsphaser.NewImage()
	fillImage(m)
	return publisherOf(b, p.n, topic, m)
}

// publisherOf advertises topic and returns a function that publishes m
// with the given seq and the current time.
func publisherOf[T interface {
	node.Message
	MutableHeader() std_msgsphaser.Header
}](b testing.TB, n *node.Node, topic string, m T) func(uint32) {
	pub, err := node.Advertise[T](n, topic)
	if err != nil {
		b.Fatal(err)
	}
	h := m.MutableHeader()
	return func(seq uint32) {
		h.SetSeq(seq)
		setStamp(h, time.Now())
		if err := pub.Publish(m); err != nil {
			b.Fatal(err)
		}
	}
}

func setStamp(h std_msgsphaser.Header, t time.Time) {
	s := h.MutableStamp()
	s.SetSeconds(t.Unix())
	s.SetNanos(int32(t.Nanosecond()))
}

func (p phaserPeer) subscribe(b testing.TB, _ func(func()), topic, kind string, got func(uint32)) {
	var err error
	if kind == "imu" {
		_, err = node.Subscribe(p.n, topic, sensor_msgsphaser.NewImu(), func(m sensor_msgsphaser.Imu) { got(m.Header().Seq()) })
	} else {
		_, err = node.Subscribe(p.n, topic, sensor_msgsphaser.NewImage(), func(m sensor_msgsphaser.Image) { got(m.Header().Seq()) })
	}
	if err != nil {
		b.Fatal(err)
	}
}

func (p phaserPeer) subscribeAcks(b testing.TB, _ func(func()), topic string, got func(uint32)) {
	if _, err := node.Subscribe(p.n, topic, std_msgsphaser.NewString(), func(m std_msgsphaser.String) { got(parseSeqBytes(m.DataBytes())) }); err != nil {
		b.Fatal(err)
	}
}

// fillImu writes an Imu with every field set.
func fillImu(m sensor_msgsphaser.Imu) {
	m.MutableHeader().SetFrameId("imu_link")
	m.MutableOrientation().SetW(1)
	m.MutableAngularVelocity().SetZ(0.25)
	m.MutableLinearAcceleration().SetZ(9.81)
	for k := range 9 {
		m.OrientationCovariance().Append(0.01 * float64(k))
		m.AngularVelocityCovariance().Append(0.02 * float64(k))
		m.LinearAccelerationCovariance().Append(0.03 * float64(k))
	}
}

// fillImage writes a 512 x 512 rgba8 image.
func fillImage(m sensor_msgsphaser.Image) {
	m.MutableHeader().SetFrameId("camera")
	m.SetHeight(imgH)
	m.SetWidth(imgW)
	m.SetEncoding("rgba8")
	m.SetStep(imgW * 4)
	d := m.AllocateData(imgW * imgH * 4)
	for k := range d {
		d[k] = byte(k)
	}
}
