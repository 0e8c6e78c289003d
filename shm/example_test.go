//go:build linux && (amd64 || arm64)

package shm_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/phaser-go/phaser/examples/quickstart/quickstartphaser"
	"github.com/phaser-go/phaser/shm"
)

// A publisher builds a Robot in place in a slot of the channel; a
// subscriber (here in the same process; usually another one) reads it in
// place and checks that the slot was not overwritten while it read.
func Example() {
	dir, err := os.MkdirTemp("", "shm-example") // usually /dev/shm
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "robots")

	pub, err := shm.Create(path, shm.Config{
		Type:     quickstartphaser.Robot{}.PhaserType().Name(),
		SlotSize: 4096,
		Slots:    16,
	})
	if err != nil {
		log.Fatal(err)
	}
	defer pub.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	sub, err := shm.Subscribe(ctx, path, shm.Options{Type: "example.quickstart.Robot"})
	if err != nil {
		log.Fatal(err)
	}
	defer sub.Close()

	slot, err := pub.Loan()
	if err != nil {
		log.Fatal(err)
	}
	robot, err := quickstartphaser.NewRobotIn(slot)
	if err != nil {
		log.Fatal(err)
	}
	robot.SetName("rover-7")
	robot.MutablePose().SetX(1.5)
	if _, err := pub.Publish(len(robot.Bytes())); err != nil {
		log.Fatal(err)
	}

	msg, err := sub.Next(ctx)
	if err != nil {
		log.Fatal(err)
	}
	got, err := quickstartphaser.ReadRobot(msg.Data)
	if err != nil {
		log.Fatal(err)
	}
	name, x := got.Name(), got.Pose().X()
	if err := msg.Check(); err != nil {
		log.Fatal(err) // overwritten while read: name and x are not the message's
	}
	fmt.Println(msg.Seq, msg.Missed, name, x)
	// Output: 1 0 rover-7 1.5
}

// Receive returns what the read function took from a message only if the
// message was intact while it ran.
func ExampleReceive() {
	dir, err := os.MkdirTemp("", "shm-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "robots")
	pub, err := shm.Create(path, shm.Config{Type: "example.quickstart.Robot", SlotSize: 4096, Slots: 16})
	if err != nil {
		log.Fatal(err)
	}
	defer pub.Close()
	ctx := context.Background()
	sub, err := shm.Subscribe(ctx, path, shm.Options{Type: "example.quickstart.Robot"})
	if err != nil {
		log.Fatal(err)
	}
	defer sub.Close()

	for _, name := range []string{"rover-7", "rover-8"} {
		slot, _ := pub.Loan()
		robot, _ := quickstartphaser.NewRobotIn(slot)
		robot.SetName(name)
		pub.Publish(len(robot.Bytes()))
	}
	for range 2 {
		name, msg, err := shm.Receive(ctx, sub, func(data []byte) (string, error) {
			robot, err := quickstartphaser.ReadRobot(data)
			return robot.Name(), err
		})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(msg.Seq, name)
	}
	// Output:
	// 1 rover-7
	// 2 rover-8
}
