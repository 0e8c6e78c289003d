package node_test

import (
	"fmt"
	"log"

	"github.com/phaser-go/phaser/ros/msgs/sensor_msgs/sensor_msgsphaser"
	"github.com/phaser-go/phaser/ros/node"
)

// A node that publishes Imu messages and subscribes to them. It needs a
// ROS master at ROS_MASTER_URI (rosmaster --core, or roscore), so the
// example is compiled, not run, by go test.
func Example() {
	n, err := node.New("talker")
	if err != nil {
		log.Fatal(err)
	}
	defer n.Close()

	pub, err := node.Advertise[sensor_msgsphaser.Imu](n, "/imu", node.PublishOptions{Queue: 32})
	if err != nil {
		log.Fatal(err)
	}
	_, err = node.Subscribe(n, "/imu", sensor_msgsphaser.NewImu(), func(m sensor_msgsphaser.Imu) {
		// m is decoded into one payload the subscription reuses: read it
		// here, or copy what is needed (m.CopyFrom, m.Bytes()).
		fmt.Println("seq", m.Header().Seq(), "frame", m.Header().FrameId())
	})
	if err != nil {
		log.Fatal(err)
	}

	imu := sensor_msgsphaser.NewImu()
	imu.MutableHeader().SetFrameId("imu_link")
	imu.MutableLinearAcceleration().SetZ(9.81)
	if err := pub.Publish(imu); err != nil {
		log.Fatal(err)
	}
	<-n.Done() // until rosnode kill, or Close
}

// A raw subscription takes any type, as rostopic echo does: the callback
// gets each message's ROS1 bytes and the publisher's type.
func ExampleNode_SubscribeRaw() {
	n, err := node.New("recorder")
	if err != nil {
		log.Fatal(err)
	}
	defer n.Close()
	_, err = n.SubscribeRaw("/chatter", node.Any, func(m node.RawMessage) {
		fmt.Printf("%d bytes of %s from %s\n", len(m.Data), m.Type.Name, m.Publisher)
	})
	if err != nil {
		log.Fatal(err)
	}
	<-n.Done()
}
