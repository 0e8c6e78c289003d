// Command rosbridge is a ROS1 node written with package ros/node: it
// publishes sensor_msgs/Imu messages, built as Phaser payloads in a fixed
// buffer (as a producer would build them in shared memory), on a ROS topic,
// and subscribes to the same topic through the ROS master like any other
// node, printing each message that arrives. rostopic echo /imu, rospy and
// roscpp nodes see the same messages.
//
//	rosmaster --core &          # or roscore; ROS_MASTER_URI says where
//	go run ./examples/rosbridge  # -n 0: publish until interrupted
//
// Publishing serializes each payload to ROS1 straight from its bytes; the
// subscriber decodes each message into one reused payload.
package main

import (
	"flag"
	"fmt"
	"io"
	"log"
	"math"
	"os"
	"time"

	"github.com/phaser-go/phaser/ros/msgs/sensor_msgs/sensor_msgsphaser"
	"github.com/phaser-go/phaser/ros/node"
)

func main() {
	n := flag.Int("n", 5, "messages to publish (0: until interrupted)")
	every := flag.Duration("every", 100*time.Millisecond, "time between messages")
	flag.Parse()
	if err := run(*n, *every, os.Stdout, node.Options{Args: flag.Args()}); err != nil {
		log.Fatal(err)
	}
}

// run publishes count Imu messages on /imu and prints each as the
// subscriber receives it.
func run(count int, every time.Duration, out io.Writer, opts node.Options) error {
	n, err := node.New("phaser_rosbridge_example", opts)
	if err != nil {
		return err
	}
	defer n.Close()
	pub, err := node.Advertise[sensor_msgsphaser.Imu](n, "/imu")
	if err != nil {
		return err
	}
	got := make(chan string, 16)
	if _, err := node.Subscribe(n, "/imu", sensor_msgsphaser.NewImu(), func(m sensor_msgsphaser.Imu) {
		got <- describe(m)
	}); err != nil {
		return err
	}
	// The subscription reaches the publication through the master: wait
	// until it is connected before the first message.
	for deadline := time.Now().Add(10 * time.Second); pub.NumSubscribers() == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			return fmt.Errorf("no subscriber connected to %s in 10s", pub.Topic())
		}
	}

	// The producer: one fixed buffer, rewritten for every message, as a
	// process writing into a shared-memory segment would.
	imu, err := sensor_msgsphaser.NewImuIn(make([]byte, 4096))
	if err != nil {
		return err
	}
	for i := 0; count == 0 || i < count; i++ {
		imu.Clear()
		fill(imu, i)
		if err := pub.Publish(imu); err != nil {
			return err
		}
		select {
		case line := <-got:
			fmt.Fprintln(out, line)
		case <-time.After(10 * time.Second):
			return fmt.Errorf("message %d did not come back", i)
		case <-n.Done():
			return n.Err()
		}
		time.Sleep(every)
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

func describe(m sensor_msgsphaser.Imu) string {
	h, q := m.Header(), m.Orientation()
	return fmt.Sprintf("seq %d stamp %d.%09d frame %s: yaw %.2f rad, %d-byte Phaser payload",
		h.Seq(), h.Stamp().Seconds(), h.Stamp().Nanos(), h.FrameId(), 2*math.Atan2(q.Z(), q.W()), len(m.Bytes()))
}
