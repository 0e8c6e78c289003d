package ros_test

import (
	"strings"
	"testing"

	"github.com/phaser-go/phaser/internal/assigntest"
	"github.com/phaser-go/phaser/ros/msgs/sensor_msgs/sensor_msgsphaser"
)

// imuClearOps are ClearRun's operations on sensor_msgs/Imu, whose
// generated Clear finds the string of its inline header (Keeper.Inline)
// and sets aside the covariances' vectors.
var imuClearOps = assigntest.ClearOps[sensor_msgsphaser.Imu]{
	Msg:   sensor_msgsphaser.Imu.Msg,
	Clear: sensor_msgsphaser.Imu.Clear,
	Fill: func(x sensor_msgsphaser.Imu, arg, i int) {
		v := imuFields(arg, i)
		assigntest.ImuFill(x, &v)
	},
	Assign: func(x sensor_msgsphaser.Imu, arg, i int) {
		v := imuFields(arg, i)
		x.Assign(&v)
	},
	Edit: func(x sensor_msgsphaser.Imu, arg int) {
		switch arg % 5 {
		case 0:
			x.ClearHeader()
		case 1:
			x.MutableHeader().ClearStamp()
		case 2:
			x.MutableHeader().SetFrameId(strings.Repeat("z", arg%30))
		case 3:
			x.AngularVelocityCovariance().Assign(1, 2, 3)
		default:
			x.MutableLinearAcceleration().SetZ(float64(arg))
		}
	},
}

// FuzzClearInline runs assigntest.ClearRun on sensor_msgs/Imu (the ROS
// frontend's inline messages, format 3) for inputs the fuzzer makes.
func FuzzClearInline(f *testing.F) {
	for _, seed := range [][]byte{
		{0, 0, 0, 0, 10, 0, 12, 1, 0, 11, 0, 40, 0, 9},
		{1, 0, 200, 0, 20, 3, 0, 0, 20, 1, 3, 2, 0, 33, 1, 0, 7},
		{2, 1, 9, 0, 8, 3, 32, 0, 8, 3, 5, 0, 4, 4, 1, 0, 12, 0, 3},
		{3, 0, 50, 2, 16, 4, 60, 0, 200, 0, 16, 4, 33, 1, 8, 0, 16},
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if len(in) > 300 {
			return
		}
		fast, slow, ok := assigntest.Twins(in, 256, sensor_msgsphaser.NewImu, sensor_msgsphaser.NewImuIn)
		if !ok {
			return
		}
		assigntest.ClearRun(t, in, fast, slow, imuClearOps)
	})
}
