package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"sync/atomic"

	"github.com/phaser-go/phaser/ros/node"
	"github.com/phaser-go/phaser/runtime"
	"github.com/phaser-go/phaser/shm"
)

// counter counts what one bridge carried.
type counter struct {
	what     string
	messages atomic.Uint64 // bridged
	errors   atomic.Uint64 // not bridged: did not decode or fit
	missed   atomic.Uint64 // lost in the channel before the bridge read them
}

func (c *counter) String() string {
	return fmt.Sprintf("%s: %d messages, %d not bridged, %d missed", c.what, c.messages.Load(), c.errors.Load(), c.missed.Load())
}

// fail counts a message that could not be bridged, logging the first and
// then one in a thousand.
func (c *counter) fail(logger *log.Logger, err error) {
	if k := c.errors.Add(1); k == 1 || k%1000 == 0 {
		logger.Printf("%s: message not bridged (%d so far): %v", c.what, k, err)
	}
}

// rosToSHM subscribes to a ROS topic and builds each message as a Phaser
// payload in the next slot of a channel it publishes.
type rosToSHM struct {
	counter
	spec   bridgeSpec
	pub    *shm.Publisher
	sub    *node.Subscriber
	logger *log.Logger
}

func startROSToSHM(n *node.Node, s bridgeSpec, slotSize, slots int, logger *log.Logger) (*rosToSHM, error) {
	pub, err := shm.Create(s.channel, shm.Config{Type: s.typ.phaser, SlotSize: slotSize, Slots: slots})
	if err != nil {
		return nil, err
	}
	b := &rosToSHM{spec: s, pub: pub, logger: logger}
	b.what = "ROS " + s.topic + " -> " + s.channel
	// The node delivers one message at a time: the publisher, which is for
	// one goroutine at a time, is only used from this callback.
	b.sub, err = n.SubscribeRaw(s.topic, s.typ.ros, b.onMessage)
	if err != nil {
		pub.Close()
		return nil, err
	}
	return b, nil
}

func (b *rosToSHM) onMessage(m node.RawMessage) {
	slot, err := b.pub.Loan()
	if err != nil {
		b.fail(b.logger, err)
		return
	}
	size, err := b.spec.typ.fromROS(slot, m.Data)
	if err != nil {
		// The slot stays loaned: the next message is built in it again.
		b.fail(b.logger, fmt.Errorf("%d ROS bytes from %s (a payload must fit in -slot-size %d): %w", len(m.Data), m.Publisher, b.pub.SlotSize(), err))
		return
	}
	if _, err := b.pub.Publish(size); err != nil {
		b.fail(b.logger, err)
		return
	}
	b.messages.Add(1)
}

func (b *rosToSHM) close() error {
	err := b.sub.Close()
	return errors.Join(err, b.pub.Close())
}

// shmToROS reads a channel and publishes each payload on a ROS topic.
type shmToROS struct {
	counter
	spec bridgeSpec
	pub  *node.RawPublisher
	ros  []byte          // the ROS1 bytes of the last message, reused
	read runtime.Payload // reused to read each payload in place
}

func startSHMToROS(n *node.Node, s bridgeSpec, queue int) (*shmToROS, error) {
	pub, err := n.AdvertiseRaw(s.topic, s.typ.ros, node.PublishOptions{Queue: queue})
	if err != nil {
		return nil, err
	}
	b := &shmToROS{spec: s, pub: pub}
	b.what = s.channel + " -> ROS " + s.topic
	return b, nil
}

// run attaches to the channel (waiting for its publisher) and publishes
// its messages until ctx is done. A payload is serialized to ROS1 while it
// is read in place, and sent only if its slot was not overwritten
// meanwhile. A publisher that goes away is waited for again.
func (b *shmToROS) run(ctx context.Context, logger *log.Logger) error {
	sub, err := shm.Subscribe(ctx, b.spec.channel, shm.Options{Type: b.spec.typ.phaser})
	if err != nil {
		if ctx.Err() != nil {
			return nil
		}
		return fmt.Errorf("%s: %w", b.what, err)
	}
	defer sub.Close()
	toROS := func(data []byte) ([]byte, error) { return b.spec.typ.toROS(b.ros[:0], data, &b.read) }
	for {
		ros, msg, err := shm.Receive(ctx, sub, toROS)
		switch {
		case ctx.Err() != nil:
			return nil
		case err != nil && msg.Seq != 0:
			b.fail(logger, fmt.Errorf("payload %d: %w", msg.Seq, err)) // intact, but not a message of the type
			continue
		case errors.Is(err, shm.ErrPublisherGone), errors.Is(err, shm.ErrClosed), errors.Is(err, shm.ErrCorrupt):
			logger.Printf("%s: %v; waiting for a publisher", b.what, err)
			continue
		case err != nil:
			return fmt.Errorf("%s: %w", b.what, err)
		}
		b.ros = ros
		b.missed.Add(msg.Missed)
		if err := b.pub.Publish(ros); err != nil {
			return fmt.Errorf("%s: %w", b.what, err)
		}
		b.messages.Add(1)
	}
}
