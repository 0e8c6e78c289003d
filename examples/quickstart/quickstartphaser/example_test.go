package quickstartphaser_test

import (
	"fmt"
	"log"

	"github.com/phaser-go/phaser/examples/quickstart/quickstartphaser"
)

// A publisher that sends one message after another refills the message it
// built, without Clear, as a protobuf-go user refills a reused struct:
// every field is stored again, strings in the blocks they have when they
// fit, a repeated scalar field with Assign. After the first message no new
// block is written: the payload keeps its size.
func Example_refill() {
	robot, err := quickstartphaser.NewRobotIn(make([]byte, 4096))
	if err != nil {
		log.Fatal(err)
	}
	for i, cells := range [][]float32{{3.9, 3.8, 4.0}, {3.7, 3.7, 3.9}, {3.6, 3.5, 3.8}} {
		robot.SetName(fmt.Sprintf("rover-%d", i))
		robot.SetId(uint32(i))
		robot.MutablePose().SetX(float64(i))
		robot.BatteryCells().Assign(cells...)
		if robot.Failed() {
			log.Fatal(robot.Err())
		}
		payload := robot.Bytes() // what is published

		got, err := quickstartphaser.ReadRobot(payload)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%d bytes: %s x=%.0f cells %v\n", len(payload), got.Name(), got.Pose().X(), got.BatteryCells().AppendTo(nil))
	}
	// Output:
	// 480 bytes: rover-0 x=0 cells [3.9 3.8 4]
	// 480 bytes: rover-1 x=1 cells [3.7 3.7 3.9]
	// 480 bytes: rover-2 x=2 cells [3.6 3.5 3.8]
}

// A list of messages built and read in bulk: Allocate makes the elements
// in one allocation, and a range over All hands out each one; SetScalars
// stores an element's scalar fields at compile-time offsets after one
// check of the element. Both inline, so the loop makes no call per
// element. A reader ranges over All the same way, each element's View
// checked once for all of its getters.
func Example_bulkList() {
	robot, err := quickstartphaser.NewRobotIn(make([]byte, 4096))
	if err != nil {
		log.Fatal(err)
	}
	waypoints := [][3]float64{{0, 0, 0}, {1, 0.5, 0.4}, {2, 1.5, 0.8}, {3, 3, 1.2}}
	path := robot.Path()
	path.Allocate(len(waypoints))
	for i, pose := range path.All() {
		w := &waypoints[i]
		pose.SetScalars(&quickstartphaser.PoseScalars{X: w[0], Y: w[1], Theta: w[2]})
	}
	if robot.Failed() {
		log.Fatal(robot.Err())
	}

	got, err := quickstartphaser.ReadRobot(robot.Bytes())
	if err != nil {
		log.Fatal(err)
	}
	for i, pose := range got.Path().All() {
		v := pose.View()
		fmt.Printf("waypoint %d: (%.1f, %.1f) heading %.1f\n", i, v.X(), v.Y(), v.Theta())
	}
	// Output:
	// waypoint 0: (0.0, 0.0) heading 0.0
	// waypoint 1: (1.0, 0.5) heading 0.4
	// waypoint 2: (2.0, 1.5) heading 0.8
	// waypoint 3: (3.0, 3.0) heading 1.2
}
