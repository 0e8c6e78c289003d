// Command phaser-rosbridge bridges ROS1 topics and shared-memory channels
// of Phaser payloads (package shm): each message a ROS topic carries is
// written as a Phaser payload into a channel's slot, built in place from
// its ROS1 bytes; each payload published on a channel is sent on a ROS
// topic as ROS1 bytes, serialized straight from the shared memory.
//
//	phaser-rosbridge [flags] -ros2shm TYPE,TOPIC,CHANNEL ... -shm2ros TYPE,TOPIC,CHANNEL ...
//
// Both flags repeat, one bridge each. TYPE is a ROS data type of ros/msgs
// (sensor_msgs/Imu, sensor_msgs/Image, geometry_msgs/Twist, ...), TOPIC a
// ROS topic name (resolved as rospy resolves it), CHANNEL the path of a
// shared-memory channel (for instance /dev/shm/imu). For -ros2shm the
// bridge creates the channel (-slot-size, -slots); for -shm2ros it
// attaches to one a publisher creates, and waits for it.
//
// The node joins the ROS graph of ROS_MASTER_URI (or -master, or
// __master:=), advertises as ROS_HOSTNAME/ROS_IP say, and is named
// phaser_bridge (-name, or __name:=). It runs until interrupted, or until
// rosnode kill.
//
// Example, against a running master:
//
//	phaser-rosbridge -ros2shm sensor_msgs/Imu,/imu,/dev/shm/imu -shm2ros geometry_msgs/Twist,/cmd_vel,/dev/shm/cmd_vel
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/phaser-go/phaser/ros/node"
)

func main() {
	log.SetFlags(log.LstdFlags | log.Lmicroseconds)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(2)
		}
		log.Fatal(err)
	}
}

// bridgeSpec is one -ros2shm or -shm2ros flag: TYPE,TOPIC,CHANNEL.
type bridgeSpec struct {
	typ     msgType
	topic   string
	channel string
}

type specs []bridgeSpec

func (s *specs) String() string { return fmt.Sprint(len(*s), " bridges") }

func (s *specs) Set(v string) error {
	parts := strings.Split(v, ",")
	if len(parts) != 3 || parts[1] == "" || parts[2] == "" {
		return fmt.Errorf("want TYPE,TOPIC,CHANNEL, got %q", v)
	}
	t, err := lookupType(parts[0])
	if err != nil {
		return err
	}
	*s = append(*s, bridgeSpec{typ: t, topic: parts[1], channel: parts[2]})
	return nil
}

// config is the bridge's command line.
type config struct {
	name      string
	master    string
	slotSize  int
	slots     int
	queue     int
	ros2shm   specs
	shm2ros   specs
	statEvery time.Duration
	rosArgs   []string // the ROS remappings (from:=to, __name:=...)
}

func parseFlags(args []string, out io.Writer) (config, error) {
	var c config
	fs := flag.NewFlagSet("phaser-rosbridge", flag.ContinueOnError)
	fs.SetOutput(out)
	fs.StringVar(&c.name, "name", "phaser_bridge", "the node's name")
	fs.StringVar(&c.master, "master", "", "the ROS master's URI (default: ROS_MASTER_URI)")
	fs.IntVar(&c.slotSize, "slot-size", 1<<16, "bytes of each channel slot the bridge creates (a payload must fit)")
	fs.IntVar(&c.slots, "slots", 64, "slots of each channel the bridge creates")
	fs.IntVar(&c.queue, "queue", 16, "messages queued per ROS subscriber of a -shm2ros topic")
	fs.Var(&c.ros2shm, "ros2shm", "TYPE,TOPIC,CHANNEL: publish the ROS topic's messages on the channel (repeatable)")
	fs.Var(&c.shm2ros, "shm2ros", "TYPE,TOPIC,CHANNEL: publish the channel's messages on the ROS topic (repeatable)")
	fs.DurationVar(&c.statEvery, "stats", 0, "log message counts this often (0: never)")
	fs.Usage = func() {
		fmt.Fprintf(out, "usage: phaser-rosbridge [flags] [ROS remappings] -ros2shm TYPE,TOPIC,CHANNEL ... -shm2ros TYPE,TOPIC,CHANNEL ...\n")
		fs.PrintDefaults()
	}
	// ROS remappings (from:=to) may stand anywhere; the flag package
	// stops at the first non-flag, so take them out first.
	var flags []string
	for _, a := range args {
		if strings.Contains(a, ":=") {
			c.rosArgs = append(c.rosArgs, a)
		} else {
			flags = append(flags, a)
		}
	}
	if err := fs.Parse(flags); err != nil {
		return c, err
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if len(c.ros2shm)+len(c.shm2ros) == 0 {
		fs.Usage()
		return c, errors.New("nothing to bridge: give -ros2shm or -shm2ros")
	}
	return c, nil
}

// run starts the node and every bridge, and runs until ctx is done, the
// node is shut down, or a bridge fails.
func run(ctx context.Context, args []string, logOut io.Writer) error {
	c, err := parseFlags(args, logOut)
	if err != nil {
		return err
	}
	logger := log.New(logOut, "", log.LstdFlags|log.Lmicroseconds)
	n, err := node.New(c.name, node.Options{MasterURI: c.master, Args: c.rosArgs, Logf: logger.Printf})
	if err != nil {
		return err
	}
	defer n.Close()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errs := make(chan error, len(c.ros2shm)+len(c.shm2ros))
	var closers []func() error
	defer func() {
		for _, f := range closers {
			f()
		}
	}()
	var counters []*counter
	for _, s := range c.ros2shm {
		b, err := startROSToSHM(n, s, c.slotSize, c.slots, logger)
		if err != nil {
			return err
		}
		closers = append(closers, b.close)
		counters = append(counters, &b.counter)
		logger.Printf("bridging ROS %s (%s) -> channel %s (%s, %d slots of %d bytes)", b.sub.Topic(), s.typ.ros.Name, s.channel, s.typ.phaser, c.slots, c.slotSize)
	}
	for _, s := range c.shm2ros {
		b, err := startSHMToROS(n, s, c.queue)
		if err != nil {
			return err
		}
		closers = append(closers, b.pub.Close)
		counters = append(counters, &b.counter)
		logger.Printf("bridging channel %s (%s) -> ROS %s (%s)", s.channel, s.typ.phaser, b.pub.Topic(), s.typ.ros.Name)
		go func() { errs <- b.run(ctx, logger) }()
	}
	var tick <-chan time.Time
	if c.statEvery > 0 {
		t := time.NewTicker(c.statEvery)
		defer t.Stop()
		tick = t.C
	}
	for {
		select {
		case <-ctx.Done():
			logger.Printf("stopping: %v", context.Cause(ctx))
			return nil
		case <-n.Done():
			return fmt.Errorf("node: %w", n.Err())
		case err := <-errs:
			return err
		case <-tick:
			for _, k := range counters {
				logger.Print(k.String())
			}
		}
	}
}
