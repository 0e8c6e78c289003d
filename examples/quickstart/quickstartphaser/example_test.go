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
