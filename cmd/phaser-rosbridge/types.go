package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/phaser-go/phaser/ros/msgs/geometry_msgs/geometry_msgsphaser"
	"github.com/phaser-go/phaser/ros/msgs/sensor_msgs/sensor_msgsphaser"
	"github.com/phaser-go/phaser/ros/msgs/std_msgs/std_msgsphaser"
	"github.com/phaser-go/phaser/ros/node"
	"github.com/phaser-go/phaser/runtime"
)

// handle is what the bridge needs of a generated message handle.
type handle interface {
	node.Message
	Bytes() []byte
	Err() error
	PhaserType() *runtime.Type
}

// msgType is one message type the bridge carries: its ROS identity, its
// Phaser type name (a channel's type) and the two conversions.
type msgType struct {
	ros    node.Type
	phaser string
	// fromROS builds the message in mem from its ROS1 bytes and returns
	// the payload's length.
	fromROS func(mem, ros []byte) (int, error)
	// toROS appends the ROS1 bytes of the payload in data to dst; p is
	// reused across calls.
	toROS func(dst, data []byte, p *runtime.Payload) ([]byte, error)
}

func typeOf[T handle](newIn func([]byte, ...runtime.Options) (T, error), readInto func(*runtime.Payload, []byte) (T, error)) msgType {
	var zero T
	return msgType{
		ros:    node.TypeOf[T](),
		phaser: string(zero.PhaserType().Name()),
		fromROS: func(mem, ros []byte) (int, error) {
			m, err := newIn(mem)
			if err != nil {
				return 0, err
			}
			if err := m.UnmarshalROS(ros); err != nil {
				return 0, err
			}
			if err := m.Err(); err != nil {
				return 0, err
			}
			return len(m.Bytes()), nil
		},
		toROS: func(dst, data []byte, p *runtime.Payload) ([]byte, error) {
			m, err := readInto(p, data)
			if err != nil {
				return dst, err
			}
			return m.AppendROS(dst)
		},
	}
}

// types are the messages of ros/msgs, by ROS data type.
var types = map[string]msgType{}

func init() {
	for _, t := range []msgType{
		typeOf(std_msgsphaser.NewHeaderIn, std_msgsphaser.ReadHeaderInto),
		typeOf(std_msgsphaser.NewStringIn, std_msgsphaser.ReadStringInto),
		typeOf(geometry_msgsphaser.NewPointIn, geometry_msgsphaser.ReadPointInto),
		typeOf(geometry_msgsphaser.NewQuaternionIn, geometry_msgsphaser.ReadQuaternionInto),
		typeOf(geometry_msgsphaser.NewPoseIn, geometry_msgsphaser.ReadPoseInto),
		typeOf(geometry_msgsphaser.NewVector3In, geometry_msgsphaser.ReadVector3Into),
		typeOf(geometry_msgsphaser.NewTwistIn, geometry_msgsphaser.ReadTwistInto),
		typeOf(sensor_msgsphaser.NewImuIn, sensor_msgsphaser.ReadImuInto),
		typeOf(sensor_msgsphaser.NewImageIn, sensor_msgsphaser.ReadImageInto),
		typeOf(sensor_msgsphaser.NewPointFieldIn, sensor_msgsphaser.ReadPointFieldInto),
		typeOf(sensor_msgsphaser.NewPointCloud2In, sensor_msgsphaser.ReadPointCloud2Into),
		typeOf(sensor_msgsphaser.NewLaserScanIn, sensor_msgsphaser.ReadLaserScanInto),
		typeOf(sensor_msgsphaser.NewJointStateIn, sensor_msgsphaser.ReadJointStateInto),
	} {
		types[t.ros.Name] = t
	}
}

func lookupType(name string) (msgType, error) {
	if t, ok := types[name]; ok {
		return t, nil
	}
	names := make([]string, 0, len(types))
	for n := range types {
		names = append(names, n)
	}
	slices.Sort(names)
	return msgType{}, fmt.Errorf("unknown message type %q (known: %s)", name, strings.Join(names, ", "))
}
