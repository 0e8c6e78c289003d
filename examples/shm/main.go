// Command shm shows two processes sharing a Phaser message through shared
// memory: the writer builds a quickstart Robot straight into a mapped file
// under /dev/shm, and a reader process maps the same file and reads the
// message in place. Nothing is serialized or copied.
//
//	go run ./examples/shm
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"

	"golang.org/x/sys/unix"

	"github.com/phaser-go/phaser/examples/quickstart/quickstartphaser"
)

const size = 64 << 10

func main() {
	reader := flag.String("read", "", "map this file and read the Robot in it (the reader process)")
	flag.Parse()
	if *reader != "" {
		if err := read(*reader); err != nil {
			log.Fatalf("reader: %v", err)
		}
		return
	}
	if err := write(); err != nil {
		log.Fatalf("writer: %v", err)
	}
}

// mapFile maps size bytes of the file at path.
func mapFile(path string, writable bool) ([]byte, error) {
	flags, prot := os.O_RDONLY, unix.PROT_READ
	if writable {
		flags, prot = os.O_RDWR|os.O_CREATE, unix.PROT_READ|unix.PROT_WRITE
	}
	f, err := os.OpenFile(path, flags, 0o600)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if writable {
		if err := f.Truncate(size); err != nil {
			return nil, err
		}
	}
	return unix.Mmap(int(f.Fd()), 0, size, prot, unix.MAP_SHARED)
}

func write() error {
	dir := "/dev/shm"
	if _, err := os.Stat(dir); err != nil {
		dir = os.TempDir()
	}
	path := filepath.Join(dir, fmt.Sprintf("phaser-shm-example-%d", os.Getpid()))
	defer os.Remove(path)
	mem, err := mapFile(path, true)
	if err != nil {
		return err
	}
	defer unix.Munmap(mem)

	// The message is built in the shared mapping itself.
	robot, err := quickstartphaser.NewRobotIn(mem)
	if err != nil {
		return err
	}
	robot.SetName("shared rover")
	robot.SetId(42)
	robot.MutablePose().SetX(3.25)
	for i := range 5 {
		robot.Path().Append().SetY(float64(i))
	}
	if robot.Failed() {
		return robot.Err()
	}
	fmt.Printf("writer: built %d payload bytes in %s\n", len(robot.Bytes()), path)

	cmd := exec.Command(os.Args[0], "-read", path)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	return cmd.Run()
}

func read(path string) error {
	mem, err := mapFile(path, false)
	if err != nil {
		return err
	}
	defer unix.Munmap(mem)
	robot, err := quickstartphaser.ReadRobot(mem)
	if err != nil {
		return err
	}
	fmt.Printf("reader (pid %d): %s #%d at x=%.2f with %d waypoints, read in place\n",
		os.Getpid(), robot.Name(), robot.Id(), robot.Pose().X(), robot.Path().Len())
	return nil
}
