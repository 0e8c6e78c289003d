// Command shm runs a publisher and a subscriber of a shared-memory channel
// (package shm) in two processes: the publisher builds quickstart Robots in
// place in the channel's slots, the subscriber reads them in place, and
// each prints what it measured: publish-to-read latency and throughput.
//
//	go run ./examples/shm                     # both: a subscriber child, then the publisher
//	go run ./examples/shm -role sub           # or each in a terminal of its own,
//	go run ./examples/shm -role pub           # in any order
//
// The publisher sends two phases: -paced messages at -rate per second (the
// latency of a subscriber that keeps up: with a gap between messages longer
// than its -spin, the subscriber sleeps on the channel's futex and the
// latency is a wake-up's), then -burst messages as fast as it can
// (throughput; a subscriber that falls a whole ring behind reports the
// messages it missed). Each Robot carries its phase in Mode and its
// publish time in Stamp. SIGINT stops either side cleanly: the publisher
// closes the channel (removing its file), the subscriber prints what it
// received so far.
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/phaser-go/phaser/examples/quickstart/quickstartphaser"
	"github.com/phaser-go/phaser/runtime"
	"github.com/phaser-go/phaser/shm"
)

var (
	role    = flag.String("role", "both", "both, pub (publisher) or sub (subscriber)")
	path    = flag.String("path", defaultPath(), "the channel file")
	slots   = flag.Int("slots", 256, "ring length (publisher)")
	slotLen = flag.Int("slot", 4096, "slot size in bytes (publisher)")
	pacedN  = flag.Int("paced", 20000, "messages of the paced phase (give publisher and subscriber the same)")
	rate    = flag.Int("rate", 10000, "messages per second of the paced phase")
	burstN  = flag.Int("burst", 200000, "messages of the flat-out phase")
	spin    = flag.Duration("spin", 0, "how long the subscriber polls before sleeping (0: shm.DefaultSpin)")
	wait    = flag.Duration("wait", time.Minute, "how long the subscriber waits for a publisher or a message")
)

func defaultPath() string {
	dir := "/dev/shm"
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		dir = os.TempDir()
	}
	return filepath.Join(dir, "phaser-example-robots")
}

func main() {
	flag.Parse()
	log.SetFlags(0)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var err error
	switch *role {
	case "pub":
		err = publish(ctx, nil)
	case "sub":
		err = subscribe(ctx)
	case "both":
		err = both(ctx)
	default:
		err = fmt.Errorf("unknown -role %q", *role)
	}
	if err != nil {
		log.Fatalf("%s: %v", *role, err)
	}
}

// both starts a subscriber process, waits until it waits for the channel,
// then publishes.
func both(ctx context.Context) error {
	args := append([]string{"-role", "sub"}, os.Args[1:]...)
	cmd := exec.Command(os.Args[0], args...)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	lines := bufio.NewScanner(out)
	attached := make(chan struct{})
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		for lines.Scan() {
			fmt.Println(lines.Text())
			if attached != nil && strings.HasPrefix(lines.Text(), attachedPrefix) {
				close(attached)
				attached = nil
			}
		}
	}()
	err = publish(ctx, attached)
	// Wait closes the pipe once the subscriber has exited: read its output
	// to the end first, or its last lines (the report) can be lost.
	<-copied
	if werr := cmd.Wait(); err == nil {
		err = werr
	}
	return err
}

const attachedPrefix = "subscriber: attached"

// publish creates the channel and publishes both phases. If attached is
// not nil, it waits for it to close (the subscriber attached) first.
func publish(ctx context.Context, attached <-chan struct{}) error {
	pub, err := shm.Create(*path, shm.Config{
		Type:     quickstartphaser.Robot{}.PhaserType().Name(),
		SlotSize: *slotLen,
		Slots:    *slots,
	})
	if err != nil {
		return err
	}
	defer pub.Close() // on SIGINT too: subscribers see ErrClosed; the file goes
	fmt.Printf("publisher (pid %d): created %s, %d slots x %d B\n", os.Getpid(), *path, pub.Slots(), pub.SlotSize())
	if attached != nil {
		select {
		case <-attached:
		case <-ctx.Done():
			return nil
		case <-time.After(*wait):
			return errors.New("the subscriber did not attach")
		}
	}
	send := func(mode quickstartphaser.Mode) error {
		slot, err := pub.Loan()
		if err != nil {
			return err
		}
		robot, err := quickstartphaser.NewRobotIn(slot)
		if err != nil {
			return err
		}
		seq := pub.Seq() + 1
		robot.SetName("rover-7")
		robot.SetId(uint32(seq))
		robot.SetMode(mode)
		robot.MutablePose().SetX(float64(seq))
		for i := range 4 {
			robot.Path().Append().SetY(float64(i))
		}
		now := time.Now()
		stamp := robot.MutableStamp()
		stamp.SetSeconds(now.Unix())
		stamp.SetNanos(int32(now.Nanosecond()))
		if robot.Failed() {
			return robot.Err()
		}
		_, err = pub.Publish(len(robot.Bytes()))
		return err
	}
	start := time.Now()
	interval := time.Second / time.Duration(max(*rate, 1))
	for i := range *pacedN {
		if ctx.Err() != nil {
			return nil
		}
		if d := time.Until(start.Add(time.Duration(i) * interval)); d > 0 {
			time.Sleep(d)
		}
		if err := send(quickstartphaser.Mode_MODE_DRIVING); err != nil {
			return err
		}
	}
	start = time.Now()
	for range *burstN {
		if ctx.Err() != nil {
			return nil
		}
		if err := send(quickstartphaser.Mode_MODE_CHARGING); err != nil {
			return err
		}
	}
	el := time.Since(start)
	fmt.Printf("publisher: %d paced + %d flat-out messages; flat out: %.2f M msgs/s\n",
		*pacedN, *burstN, float64(*burstN)/el.Seconds()/1e6)
	return nil
}

// phase is what the subscriber measured of one phase.
type phase struct {
	name           string
	latencies      []time.Duration
	bytes          int
	first, last    time.Time
	missed, intact uint64
}

func (p *phase) report() {
	if p.intact == 0 {
		fmt.Printf("subscriber: %-8s no message\n", p.name)
		return
	}
	slices.Sort(p.latencies)
	q := func(f float64) time.Duration { return p.latencies[int(f*float64(len(p.latencies)-1))] }
	el := p.last.Sub(p.first).Seconds()
	fmt.Printf("subscriber: %-8s %7d intact, %d missed; latency p50 %v p99 %v max %v",
		p.name, p.intact, p.missed, q(0.5), q(0.99), q(1))
	if el > 0 {
		fmt.Printf("; %.2f M msgs/s, %.0f MB/s", float64(p.intact)/el/1e6, float64(p.bytes)/el/1e6)
	}
	fmt.Println()
}

// subscribe attaches (waiting for the publisher if needed) and reads
// Robots until the channel closes, the publisher dies or SIGINT.
func subscribe(ctx context.Context) error {
	wctx, cancel := context.WithTimeout(ctx, *wait)
	sub, err := shm.Subscribe(wctx, *path, shm.Options{Type: quickstartphaser.Robot{}.PhaserType().Name(), Spin: *spin})
	cancel()
	if err != nil {
		if ctx.Err() != nil {
			return nil
		}
		return err
	}
	defer sub.Close()
	// The geometry, and so the mapping, come from the channel's header.
	fmt.Printf("%s (pid %d) to %s: %s, %d slots x %d B\n", attachedPrefix, os.Getpid(), *path, sub.Type(), sub.Slots(), sub.SlotSize())
	phases := map[quickstartphaser.Mode]*phase{
		quickstartphaser.Mode_MODE_DRIVING:  {name: "paced", latencies: make([]time.Duration, 0, *pacedN)},
		quickstartphaser.Mode_MODE_CHARGING: {name: "flat-out", latencies: make([]time.Duration, 0, *burstN)},
	}
	defer func() {
		phases[quickstartphaser.Mode_MODE_DRIVING].report()
		phases[quickstartphaser.Mode_MODE_CHARGING].report()
		st := sub.Stats()
		fmt.Printf("subscriber: %d received, %d missed, %d torn (overwritten while read)\n", st.Received-st.Torn, st.Missed, st.Torn)
	}()
	payload := new(runtime.Payload) // reused: reading allocates nothing per message
	paced, burst := phases[quickstartphaser.Mode_MODE_DRIVING], phases[quickstartphaser.Mode_MODE_CHARGING]
	phaseOf := func(seq uint64) *phase { // the publisher's -paced must be ours
		if seq <= uint64(*pacedN) {
			return paced
		}
		return burst
	}
	lose := func(from, n uint64) { // messages from .. from+n-1 are lost
		for seq := from; seq < from+n; seq++ {
			phaseOf(seq).missed++
		}
	}
	for {
		mctx, cancel := context.WithTimeout(ctx, *wait)
		msg, err := sub.Next(mctx)
		cancel()
		switch {
		case errors.Is(err, shm.ErrClosed), errors.Is(err, shm.ErrPublisherGone):
			fmt.Println("subscriber:", err)
			return nil
		case ctx.Err() != nil:
			return nil // SIGINT
		case err != nil:
			return err
		}
		lose(msg.Seq-msg.Missed, msg.Missed)
		robot, err := quickstartphaser.ReadRobotInto(payload, msg.Data)
		if err != nil {
			lose(msg.Seq, 1) // not a Robot payload: a hostile or corrupt slot
			continue
		}
		mode, id := robot.Mode(), robot.Id()
		stamp := robot.Stamp()
		sent := time.Unix(stamp.Seconds(), int64(stamp.Nanos()))
		if msg.Check() != nil {
			lose(msg.Seq, 1) // overwritten while read: what we read is discarded
			continue
		}
		now := time.Now()
		p := phaseOf(msg.Seq)
		if phases[mode] != p || uint64(id) != msg.Seq {
			return fmt.Errorf("message %d: unexpected content (mode %v, id %d)", msg.Seq, mode, id)
		}
		if p.intact == 0 {
			p.first = now
		}
		p.last = now
		p.intact++
		p.bytes += len(msg.Data)
		p.latencies = append(p.latencies, now.Sub(sent))
	}
}
