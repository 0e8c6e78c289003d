// Command quickstart builds a Robot message in a fixed buffer, as a process
// would in shared memory, then reads it back from the bytes alone, as the
// receiving process would.
//
// Regenerate the handles with ./scripts/example (or go generate).
package main

//go:generate protoc -I . -I /usr/include --phaser-go_out=. --phaser-go_opt=paths=source_relative robot.proto

import (
	"fmt"
	"log"

	"google.golang.org/protobuf/encoding/prototext"

	"github.com/phaser-go/phaser/examples/quickstart/quickstartphaser"
)

func main() {
	// The sender: caller memory that never grows (a shared-memory segment
	// in a real deployment). Every setter writes straight into it.
	mem := make([]byte, 4096)
	robot, err := quickstartphaser.NewRobotIn(mem)
	if err != nil {
		log.Fatal(err)
	}
	robot.SetName("rover-7")
	robot.SetId(7)
	robot.SetMode(quickstartphaser.Mode_MODE_DRIVING)
	pose := robot.MutablePose()
	pose.SetX(1.5)
	pose.SetY(-2.25)
	pose.SetTheta(0.5)
	robot.MutableStamp().SetSeconds(1_700_000_000)
	for _, v := range []float32{3.9, 3.8, 4.0} {
		robot.BatteryCells().Append(v)
	}
	for i := range 3 {
		p := robot.Path().Append()
		p.SetX(float64(i))
		p.SetY(float64(i) * 2)
	}
	robot.Tags().Append("outdoor")
	robot.SetGoal("charging station 2")
	if robot.Failed() {
		log.Fatal(robot.Err())
	}
	payload := robot.Bytes() // the message: nothing to serialize
	fmt.Printf("payload: %d bytes (buffer %d)\n", len(payload), len(mem))

	// The receiver: a read-only view of the bytes, every read bounded by
	// their length.
	got, err := quickstartphaser.ReadRobot(payload)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s #%d %v at (%.2f, %.2f), %d cells, %d waypoints, task %v %q\n",
		got.Name(), got.Id(), got.Mode(), got.Pose().X(), got.Pose().Y(),
		got.BatteryCells().Len(), got.Path().Len(), got.WhichTask(), got.Goal())
	for i, cell := range got.BatteryCells().All() {
		fmt.Printf("  cell %d: %.1f V\n", i, cell)
	}
	text, err := got.ToProto()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(prototext.MarshalOptions{Multiline: true}.Format(text))
}
