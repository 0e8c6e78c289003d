package ros_test

import (
	"testing"

	"github.com/phaser-go/phaser/payloadbuffer"
	"github.com/phaser-go/phaser/ros/msgs/sensor_msgs/sensor_msgsphaser"
	"github.com/phaser-go/phaser/runtime"
)

// BenchmarkImuAssign is a sensor_msgs/Imu of ros/msgs built again through
// its generated Assign, as a ROS publisher refills its message: after the
// first fill, the straight line where the payload's table cache holds the
// tables of its inline header and stamp (Assigner.Inline), the setters
// otherwise. TestAssignStraightLine checks which it takes.
func BenchmarkImuAssign(b *testing.B) {
	x := sensor_msgsphaser.NewImu(runtime.Options{Version: payloadbuffer.V3})
	v := imuFields(17, 3)
	x.Assign(&v)
	b.ReportAllocs()
	for b.Loop() {
		x.Assign(&v)
	}
}
