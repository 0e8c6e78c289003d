package node

import "fmt"

// Message is what the node needs of a message type: the methods of every
// handle generated with ros_metadata=true (the ros/msgs packages ship
// such handles for std_msgs, geometry_msgs and sensor_msgs).
type Message interface {
	// ROSDataType, ROSMD5 and ROSDefinition identify the type on the wire;
	// they must answer for the zero value.
	ROSDataType() string
	ROSMD5() string
	ROSDefinition() string
	// AppendROS appends the message's ROS1 serialization to dst.
	AppendROS(dst []byte) ([]byte, error)
	// UnmarshalROS replaces the message with a ROS1 serialization.
	UnmarshalROS(data []byte) error
	// Clear empties the message (and frees what its payload held).
	Clear()
}

// Type is the ROS identity of a topic's messages.
type Type struct {
	Name       string // e.g. "sensor_msgs/Imu"; "*" subscribes to any type
	MD5        string // the md5sum of the definition; "*" accepts any
	Definition string // the full message definition, as ROS publishes it
}

// Any is the Type of a raw subscription that takes any message type, as
// rostopic echo subscribes.
var Any = Type{Name: "*", MD5: "*"}

// TypeOf returns the ROS identity of the generated message type T.
func TypeOf[T Message]() Type {
	var m T
	return Type{Name: m.ROSDataType(), MD5: m.ROSMD5(), Definition: m.ROSDefinition()}
}

func (t Type) check(publishing bool) error {
	if t.Name == "" || t.MD5 == "" {
		return fmt.Errorf("node: a message type needs a name and an md5sum (got %q, %q)", t.Name, t.MD5)
	}
	if publishing && (t.Name == "*" || t.MD5 == "*") {
		return fmt.Errorf("node: cannot publish the wildcard type %s/%s", t.Name, t.MD5)
	}
	return nil
}
