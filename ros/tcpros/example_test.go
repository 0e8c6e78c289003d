package tcpros_test

import (
	"bytes"
	"fmt"
	"log"

	"github.com/phaser-go/phaser/ros/msgs/sensor_msgs/sensor_msgsphaser"
	"github.com/phaser-go/phaser/ros/tcpros"
)

// The connection header a TCPROS subscriber sends, and reading it back.
func ExampleReadHeader() {
	var imu sensor_msgsphaser.Imu
	b := tcpros.AppendHeader(nil, map[string]string{
		"callerid": "/listener", "topic": "/imu", "type": imu.ROSDataType(), "md5sum": imu.ROSMD5(),
	})
	fields, err := tcpros.ReadHeader(bytes.NewReader(b))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(b), fields["topic"], fields["type"])
	// Output: 107 /imu sensor_msgs/Imu
}
