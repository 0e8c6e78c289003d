package ros_test

import (
	"bytes"
	"fmt"
	"log"

	"github.com/phaser-go/phaser/ros"
	"github.com/phaser-go/phaser/ros/msgs/sensor_msgs/sensor_msgsphaser"
	"github.com/phaser-go/phaser/ros/msgs/std_msgs/std_msgsphaser"
)

// A std_msgs/Header in a Phaser payload, serialized to ROS1 straight from
// the payload: seq, the stamp as ROS time (uint32 seconds, uint32
// nanoseconds) and the length-prefixed frame_id.
func ExampleMarshal() {
	h := std_msgsphaser.NewHeader()
	h.SetSeq(7)
	h.MutableStamp().SetSeconds(1700000000)
	h.SetFrameId("map")
	b, err := ros.Marshal(h.Msg())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("% x\n", b)
	// Output: 07 00 00 00 00 f1 53 65 00 00 00 00 03 00 00 00 6d 61 70
}

// Protobuf bytes converted to ROS1 bytes directly, without building a
// message in between.
func ExampleProtoToROS() {
	h := std_msgsphaser.NewHeader()
	h.SetSeq(7)
	h.SetFrameId("map")
	pb, err := h.MarshalProto()
	if err != nil {
		log.Fatal(err)
	}
	rosBytes, err := ros.ProtoToROS(nil, pb, h.PhaserType())
	if err != nil {
		log.Fatal(err)
	}
	direct, _ := h.MarshalROS()
	fmt.Println(bytes.Equal(rosBytes, direct))
	// Output: true
}

// The ROS identity of a message type, computed as ROS computes it.
func ExampleMD5() {
	t := sensor_msgsphaser.Imu{}.PhaserType()
	dataType, _ := ros.DataType(t.Descriptor())
	sum, err := ros.MD5(t.Descriptor())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(dataType, sum)
	// Output: sensor_msgs/Imu 6a62c6daae103f4ff57a132d6f95cec2
}
