// Package shm is a shared-memory channel for Phaser payloads: one
// publisher process builds each message in place in shared memory, and any
// number of subscriber processes read it in place. Nothing is serialized,
// copied or parsed on the way.
//
// A channel is a file, typically under /dev/shm (or an anonymous memfd
// passed to a child process), that holds a header and a ring of fixed-size
// slots:
//
//	pub, err := shm.Create("/dev/shm/robots", shm.Config{
//		Type:     quickstartphaser.Robot{}.PhaserType().Name(),
//		SlotSize: 4096,
//		Slots:    64,
//	})
//	slot, err := pub.Loan()                           // the next slot's memory
//	robot, err := quickstartphaser.NewRobotIn(slot)   // the message, built in place
//	robot.SetName("rover-7")
//	seq, err := pub.Publish(len(robot.Bytes()))
//
//	sub, err := shm.Subscribe(ctx, "/dev/shm/robots", shm.Options{Type: "example.quickstart.Robot"})
//	for {
//		msg, err := sub.Next(ctx)                          // waits; msg.Missed counts what was lost
//		robot, err := quickstartphaser.ReadRobot(msg.Data) // read in place, bounded by len(msg.Data)
//		name, x := robot.Name(), robot.Pose().X()
//		if msg.Check() != nil {                            // overwritten while we read:
//			continue                                   // discard name and x
//		}
//		use(name, x)
//	}
//
// [Receive] wraps the read-then-Check pattern: it returns a value computed
// from a message only if the message was intact throughout.
//
// # Guarantees
//
//   - A message is never returned as data unless it was published whole:
//     Next returns a slot only once its state says it holds the message
//     Next is looking for (never the slot's previous, stale message), and
//     [Message.Check] reports whether the slot was written again since (the
//     subscriber fell a whole ring behind while it read). Values read before
//     a Check that returns nil are the published message's.
//   - Nothing is lost silently: a subscriber that falls a ring behind (the
//     slot it wants was overwritten, or a Check failed) skips to the newer
//     half of the ring, so that it does not go on chasing the publisher's
//     tail, and is told in [Message.Missed] how many messages it missed;
//     Check failures are counted in [Stats.Torn].
//   - No hangs: a subscriber waits at most until its context is done. A
//     publisher that dies (its process exits or is killed) is detected
//     within about 100 ms of idleness by its file lock, which the kernel
//     drops with the process: Next returns what it had published, then
//     ErrPublisherGone. A publisher that closes the channel gives ErrClosed.
//     Called again, Next waits for a new publisher at the same path and
//     marks its first message [Message.Restarted]; sequence numbers start
//     again at 1 in each publisher run.
//   - A subscriber started before its publisher waits for it ([Subscribe]
//     waits, bounded by its context, instead of failing with "no such
//     file").
//   - The channel's slot size, slot count and message type name are in its
//     header and checked when a subscriber attaches ([Options]); a mismatch
//     is ErrMismatch. The mapping's size comes from the header, checked
//     against the file's size and against [Options.MaxSize].
//   - The publisher never waits for subscribers, and subscribers never
//     write anything the publisher or other subscribers rely on.
//
// # Hostile files
//
// Any process that can write the channel file can change any byte of it at
// any time. Subscribers therefore read the header once (with pread, before
// mapping anything), validate every field against the others and against
// the file's size, and keep the result in their own memory: a corrupt or
// hostile header is an error (ErrNotChannel, ErrCorrupt, ErrTooLarge),
// never a panic or an oversized mapping. Slot states and sizes are loaded
// once and bounded before use; a slot that claims more bytes than a slot
// holds, or a message beyond the channel's head, is reported as ErrCorrupt
// and skipped. The payload bytes themselves are read with the generated
// ReadX, which bounds every access by len(Data), and the slots are mapped
// read-only in subscribers. What a subscriber cannot defend against is a
// writer that shrinks the file under its mapping (the kernel then raises
// SIGBUS on access): channels made with [CreateMemfd] are sealed against
// resizing, and for a named file the file's permissions ([Config.Perm],
// default 0600) decide who can do it.
//
// # Waiting
//
// A subscriber with nothing to read polls the next slot's state for
// [Options.Spin] (default 50 µs), which is what keeps the latency of a
// subscriber that keeps up close to a cache-line transfer, then sleeps on a
// futex in the channel's header, which Publish wakes only when some
// subscriber announced that it sleeps (a publish with no sleeper costs no
// system call; a count left by a subscriber killed in its sleep is cleared
// after 64 wakes that found nobody asleep). Sleeps last at most 25 ms, so that a context without a
// deadline is noticed; after 100 ms of idleness the subscriber checks the
// publisher's lock (one fcntl). Polling, not inotify, finds a channel that
// does not exist yet (backoff from 1 ms to 50 ms).
//
// # Memory ordering
//
// Each slot is a seqlock whose generation is the message's sequence number:
// its state word is seq<<1 while the slot holds message seq, seq<<1|1 while
// the publisher writes it. The publisher (Loan) stores seq<<1|1, then a
// store fence (none on amd64, whose stores are not reordered; DMB ISHST on
// arm64), then builds the payload, then (Publish) stores the size and
// seq<<1 with release stores, then the channel's head. A subscriber loads
// the state (acquire); if it is seq<<1 the payload loads that follow see the
// whole message; Check issues a load fence (none on amd64; DMB ISHLD on
// arm64) and loads the state again: if any payload load saw a byte of a
// later message, the state load sees that message's seq<<1|1 or later. The
// futex handshake (a sleeper's waiters increment and state re-load, the
// publisher's state store and waiters load) relies on Go's atomics being
// sequentially consistent. The comments at each step give the detail.
//
// # The file
//
// Layout version 1: a 64 KiB header region (magic "PHSHMCH1", version,
// geometry, the type name, then the head, futex and waiter words in cache
// lines of their own), then the slots, each a 64-byte control line (state,
// size) followed by the payload, 64-byte aligned. All integers are
// little-endian; layout.go gives the offsets. A publisher creates a new file
// under a temporary name, locks it and renames it into place, so a path
// always names a complete channel, and a restarted publisher's subscribers
// see a new file rather than a ring rewritten under them.
//
// Publisher and Subscriber are each for one goroutine; use one Subscriber
// per reading goroutine. The package works on Linux (amd64 and arm64).
package shm
