package bench

import (
	"testing"

	"github.com/bluenviron/goroslib/v2/pkg/msgproc"
	"github.com/bluenviron/goroslib/v2/pkg/msgs/sensor_msgs"
	"github.com/bluenviron/goroslib/v2/pkg/msgs/std_msgs"

	"github.com/phaser-go/phaser/bench/gen/pb/pbphaser"
	"github.com/phaser-go/phaser/ros"
	"github.com/phaser-go/phaser/runtime"
)

// TestRoundTrip runs, once, the check every benchmark runs before it
// measures: each library round-trips each shape, its readers read the
// values, its protobuf and ROS1 bytes are protobuf-go's and goroslib's.
func TestRoundTrip(t *testing.T) {
	for _, op := range Ops {
		for _, shape := range Shapes {
			for _, lib := range Libs {
				if !Takes(lib, shape, op) {
					continue
				}
				t.Run(op+"/"+shape+"/"+lib, func(t *testing.T) {
					if err := Check(op, shape, NewCodec(lib, shape)); err != nil {
						t.Fatal(err)
					}
				})
			}
		}
	}
}

// TestROSIdentity checks that the mirrored ROS messages have the ROS md5sums
// that goroslib computes for its own structs.
func TestROSIdentity(t *testing.T) {
	for _, c := range []struct {
		typ *runtime.Type
		ros any
	}{
		{pbphaser.Header{}.PhaserType(), std_msgs.Header{}},
		{pbphaser.Imu{}.PhaserType(), sensor_msgs.Imu{}},
		{pbphaser.PointField{}.PhaserType(), sensor_msgs.PointField{}},
		{pbphaser.Image{}.PhaserType(), sensor_msgs.Image{}},
	} {
		got, err := ros.MD5(c.typ.Descriptor())
		if err != nil {
			t.Fatal(err)
		}
		want, err := msgproc.MD5(c.ros)
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("%s: phaser md5 %s, goroslib %s", c.typ.Name(), got, want)
		}
	}
}
