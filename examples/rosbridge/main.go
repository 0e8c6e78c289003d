// Command rosbridge is a ROS bridge node: it takes sensor_msgs/Imu messages
// that a producer writes as Phaser payloads (in a fixed buffer, as it would
// in shared memory) and publishes them on a ROS1 topic over TCPROS, the
// transport ROS1 subscribers speak. Each payload is serialized to ROS1
// straight from its bytes, without decoding it into Go values first.
//
// Run as it is, it starts the bridge on a local port, connects a TCPROS
// subscriber to it (the handshake a rospy or roscpp subscriber does: topic,
// type and md5sum checked on both sides), and that subscriber turns each ROS1
// message back into a Phaser payload and prints it:
//
//	go run ./examples/rosbridge
//
// Registering the topic with a ROS master (XML-RPC registerPublisher) is
// left out: with -listen the node serves TCPROS on a fixed address, for a
// subscriber pointed at it directly.
package main

import (
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"math"
	"net"
	"os"
	"sync"
	"time"

	"github.com/phaser-go/phaser/ros/msgs/sensor_msgs/sensor_msgsphaser"
	"github.com/phaser-go/phaser/ros/tcpros"
	"github.com/phaser-go/phaser/runtime"
)

const topic = "/imu"

func main() {
	listen := flag.String("listen", "127.0.0.1:0", "TCPROS address to serve the topic on")
	n := flag.Int("n", 5, "messages to publish (0: until interrupted, for outside subscribers)")
	flag.Parse()
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		log.Fatal(err)
	}
	if *n == 0 {
		log.Printf("serving %s (sensor_msgs/Imu) on %s", topic, ln.Addr())
		if err := run(ln, 0, nil); err != nil {
			log.Fatal(err)
		}
		return
	}
	if err := run(ln, *n, os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// run publishes n Imu messages through a bridge serving ln and, when out is
// not nil, subscribes to them and prints what arrives.
func run(ln net.Listener, n int, out io.Writer) error {
	b := newBridge(ln)
	defer b.close()
	go b.serve()

	var sub chan error
	if out != nil {
		sub = make(chan error, 1)
		ready := make(chan struct{})
		go func() { sub <- subscribe(ln.Addr().String(), n, out, ready) }()
		select {
		case <-ready:
		case err := <-sub:
			return err
		}
	}

	// The producer: one fixed buffer, rewritten for every message, as a
	// process writing into a shared-memory segment would.
	mem := make([]byte, 4096)
	imu, err := sensor_msgsphaser.NewImuIn(mem)
	if err != nil {
		return err
	}
	for i := 0; n == 0 || i < n; i++ {
		imu.Clear()
		fill(imu, i)
		if imu.Failed() {
			return fmt.Errorf("message %d does not fit in %d bytes", i, len(mem))
		}
		if err := b.publish(imu.Bytes()); err != nil {
			return err
		}
		if n == 0 {
			time.Sleep(100 * time.Millisecond)
		}
	}
	if sub != nil {
		return <-sub
	}
	return nil
}

// fill writes message i of the demo: an IMU turning slowly about z.
func fill(m sensor_msgsphaser.Imu, i int) {
	h := m.MutableHeader()
	h.SetSeq(uint32(i))
	h.MutableStamp().SetSeconds(1_700_000_000 + int64(i))
	h.MutableStamp().SetNanos(int32(i) * 1_000_000)
	h.SetFrameId("imu_link")
	yaw := 0.1 * float64(i)
	q := m.MutableOrientation()
	q.SetZ(math.Sin(yaw / 2))
	q.SetW(math.Cos(yaw / 2))
	m.MutableAngularVelocity().SetZ(0.1)
	m.MutableLinearAcceleration().SetZ(9.81)
	for range 9 {
		m.OrientationCovariance().Append(0.01)
	}
}

// bridge publishes ROS1 messages made from Phaser payloads to every TCPROS
// subscriber connected to it.
type bridge struct {
	ln   net.Listener
	imu  sensor_msgsphaser.Imu
	read runtime.Payload // reused to read each payload in place
	out  []byte          // the framed ROS1 message, reused

	mu     sync.Mutex
	subs   map[net.Conn]bool
	header []byte
}

func newBridge(ln net.Listener) *bridge {
	var m sensor_msgsphaser.Imu
	return &bridge{ln: ln, subs: make(map[net.Conn]bool), header: tcpros.AppendHeader(nil, map[string]string{
		"callerid":           "/phaser_bridge",
		"topic":              topic,
		"type":               m.ROSDataType(),
		"md5sum":             m.ROSMD5(),
		"message_definition": m.ROSDefinition(),
		"latching":           "0",
	})}
}

// serve accepts subscribers until the listener closes.
func (b *bridge) serve() {
	for {
		c, err := b.ln.Accept()
		if err != nil {
			return
		}
		go b.handshake(c)
	}
}

// handshake checks a subscriber's connection header (its topic, and its
// md5sum unless "*") and answers with the publisher's.
func (b *bridge) handshake(c net.Conn) {
	c.SetDeadline(time.Now().Add(5 * time.Second))
	fields, err := tcpros.ReadHeader(c)
	var m sensor_msgsphaser.Imu
	switch {
	case err != nil:
	case fields["topic"] != topic:
		err = fmt.Errorf("topic %q is not served here", fields["topic"])
	case fields["md5sum"] != "*" && fields["md5sum"] != m.ROSMD5():
		err = fmt.Errorf("md5sum %s, this topic has %s", fields["md5sum"], m.ROSMD5())
	}
	if err != nil {
		// TCPROS reports a refused connection in a header with "error".
		c.Write(tcpros.AppendHeader(nil, map[string]string{"error": err.Error()}))
		c.Close()
		return
	}
	c.SetDeadline(time.Time{})
	b.mu.Lock()
	defer b.mu.Unlock()
	if _, err := c.Write(b.header); err != nil {
		c.Close()
		return
	}
	b.subs[c] = true
}

// publish serializes one payload to ROS1, straight from its bytes, and
// sends it to every subscriber; a subscriber that cannot take it is dropped.
func (b *bridge) publish(payload []byte) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	imu, err := sensor_msgsphaser.ReadImuInto(&b.read, payload)
	if err != nil {
		return fmt.Errorf("bridge: %w", err)
	}
	b.out = append(b.out[:0], 0, 0, 0, 0)
	if b.out, err = imu.AppendROS(b.out); err != nil {
		return fmt.Errorf("bridge: %w", err)
	}
	binary.LittleEndian.PutUint32(b.out, uint32(len(b.out)-4)) // the TCPROS frame length
	for c := range b.subs {
		if _, err := c.Write(b.out); err != nil {
			c.Close()
			delete(b.subs, c)
		}
	}
	return nil
}

func (b *bridge) close() {
	b.ln.Close()
	b.mu.Lock()
	defer b.mu.Unlock()
	for c := range b.subs {
		c.Close()
	}
}

// subscribe connects to the topic as a ROS1 subscriber, closes ready once
// the publisher accepted it, and turns n messages back into Phaser payloads
// (the bridge's other direction), printing each.
func subscribe(addr string, n int, out io.Writer, ready chan<- struct{}) error {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return err
	}
	defer c.Close()
	var m sensor_msgsphaser.Imu
	if _, err := c.Write(tcpros.AppendHeader(nil, map[string]string{
		"callerid": "/listener", "topic": topic, "type": m.ROSDataType(), "md5sum": m.ROSMD5(), "tcp_nodelay": "1",
	})); err != nil {
		return err
	}
	pub, err := tcpros.ReadHeader(c)
	if err != nil {
		return err
	}
	if e := pub["error"]; e != "" {
		return errors.New("publisher refused the subscription: " + e)
	}
	if pub["md5sum"] != m.ROSMD5() || pub["type"] != m.ROSDataType() {
		return fmt.Errorf("publisher sends %s (%s), want %s (%s)", pub["type"], pub["md5sum"], m.ROSDataType(), m.ROSMD5())
	}
	close(ready)
	imu, err := sensor_msgsphaser.NewImuIn(make([]byte, 4096))
	if err != nil {
		return err
	}
	var frame []byte
	for range n {
		if frame, err = tcpros.ReadFrame(c, frame, 1<<20); err != nil {
			return err
		}
		imu.Clear()
		if err := imu.UnmarshalROS(frame); err != nil {
			return err
		}
		h, q := imu.Header(), imu.Orientation()
		fmt.Fprintf(out, "seq %d stamp %d.%09d frame %s: yaw %.2f rad, %d ROS bytes -> %d-byte Phaser payload\n",
			h.Seq(), h.Stamp().Seconds(), h.Stamp().Nanos(), h.FrameId(),
			2*math.Atan2(q.Z(), q.W()), len(frame), len(imu.Bytes()))
	}
	return nil
}
