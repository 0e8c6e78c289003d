//go:build linux && (amd64 || arm64)

package shm

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// Options are a subscriber's expectations of the channel and its waiting.
type Options struct {
	// Type is the full name of the message type the subscriber reads:
	// attaching fails with ErrMismatch unless the channel carries exactly
	// this type. Empty accepts any type (Subscriber.Type tells which); a
	// restarted publisher must then carry the type first attached to.
	Type string
	// SlotSize and Slots, when not zero, must equal the channel's.
	SlotSize, Slots int
	// MaxSize bounds the channel file a subscriber maps (default
	// DefaultMaxSize): a larger one is refused with ErrTooLarge.
	MaxSize int64
	// Spin is how long Next polls the next slot before it sleeps on the
	// channel's futex (default DefaultSpin; negative: sleep at once): the
	// first 2 µs in a tight loop, then yielding the CPU (sched_yield)
	// between polls, so that a publisher sharing the subscriber's CPU is
	// not kept waiting. Spinning is what gives sub-microsecond latency to a
	// subscriber that keeps up; sleeping costs a wake-up (microseconds) but
	// no CPU.
	Spin time.Duration
}

// DefaultSpin is how long Next polls before sleeping unless Options.Spin
// says otherwise.
const DefaultSpin = 50 * time.Microsecond

// pureSpin is how much of the spin polls without yielding the CPU.
const pureSpin = 2 * time.Microsecond

// Waiting: after its spin, Next sleeps on the futex in slices of at most
// sleepSlice (so that a context without deadline is still noticed), and
// checks the publisher's liveness once it has waited livenessInterval.
const (
	sleepSlice       = 25 * time.Millisecond
	livenessInterval = 100 * time.Millisecond
	maxBackoff       = 50 * time.Millisecond
)

// Message is one message as a subscriber received it: its payload in place
// in the shared mapping, and where it sits in the stream.
//
// Read Data with the generated ReadX (or ReadXInto), which bounds every
// access by len(Data), then call Check: only when Check returns nil were the
// values read from Data the message that was published. A Message is valid
// until the next call of Next or Close on its Subscriber.
type Message struct {
	// Data is the payload, in the channel's read-only mapping.
	Data []byte
	// Seq is the message's sequence number in its publisher's run (1, 2,
	// ...).
	Seq uint64
	// Missed is how many messages were published between the previous
	// message Next returned (from the same publisher run) and this one, and
	// are lost: overwritten before this subscriber reached them.
	Missed uint64
	// Restarted reports the first message from a new publisher run at the
	// channel's path (the previous publisher died or closed); Seq started
	// again at 1, and Missed counts the new run's messages before this one.
	Restarted bool

	state *atomic.Uint64 // the slot's state word
	want  uint64         // its value when Next returned the message
	sub   *Subscriber
}

// Check reports whether the message's slot still holds it: nil if nothing
// was written to the slot since Next returned the message, so that all that
// was read from Data before Check is the message as published; otherwise an
// error wrapping ErrOverwritten, and what was read must be discarded (the
// subscriber fell behind by a whole ring while it read; the message is lost).
func (m Message) Check() error {
	if m.state == nil {
		return fmt.Errorf("shm: check of a zero Message")
	}
	// Seqlock read side, step 2: the loads of Data before this point
	// complete before the state is loaded again (no-op on amd64, DMB
	// ISHLD on arm64). If the publisher has begun to overwrite the slot,
	// its "writing" state store is visible before any of its payload
	// stores, so a payload load that saw a new byte implies this load sees
	// the state changed.
	loadFence()
	if m.state.Load() != m.want {
		if m.sub != nil {
			m.sub.stats.Torn++
			m.sub.behind = true // the next Next catches up
		}
		return fmt.Errorf("shm: message %d: %w", m.Seq, ErrOverwritten)
	}
	return nil
}

// Stats counts what a subscriber received.
type Stats struct {
	Received uint64 // messages Next returned
	Missed   uint64 // messages lost before Next reached them (the sum of Message.Missed)
	Torn     uint64 // Check calls that found the message overwritten
	Restarts uint64 // new publisher runs attached to
}

// Subscriber reads a channel. Its methods are for one goroutine at a time;
// any number of subscribers, in any processes, read one channel.
type Subscriber struct {
	opts Options
	path string // "" for a file passed in
	cur  *mapping
	prev *mapping // the mapping before a restart, unmapped at the next one or Close

	next      uint64 // the sequence number of the message Next looks for
	slot      uint32 // its slot: (next-1) mod slots
	missed    uint64 // messages skipped since the last one returned
	restarted bool   // the next message returned is a new run's first
	gone      error  // ErrPublisherGone or ErrClosed once reported; Next then re-attaches
	dead      fileID // a file found at path whose publisher is gone
	stats     Stats
	behind    bool // a Check failed: the next Next skips to the newer half of the ring
	sink      byte // touch's loads end here
}

// mapping is one attached channel file.
type mapping struct {
	f     *os.File
	id    fileID
	g     geometry // validated once; the file's header is never read again
	hdr   []byte   // header region, read-write (waiters)
	slots []byte   // slot region, read-only

	head    *atomic.Uint64
	event   *atomic.Uint32
	closed  *atomic.Uint32
	waiters *atomic.Uint32
}

func (m *mapping) close() {
	if m == nil {
		return
	}
	munmap(m.hdr)
	munmap(m.slots)
	m.f.Close()
}

func (m *mapping) state(slot uint32) *atomic.Uint64 {
	return word64(m.slots, uint64(slot)*m.g.stride+offSlotState)
}

func (m *mapping) alive() bool {
	locked, err := lockedByOther(m.f)
	return err == nil && locked
}

// attach validates the channel file f (which it owns) and maps it.
func attach(f *os.File, opts Options) (*mapping, error) {
	id, size, err := statID(f)
	if err != nil {
		f.Close()
		return nil, err
	}
	hdr := make([]byte, readHeader)
	if size >= readHeader {
		if _, err := f.ReadAt(hdr, 0); err != nil {
			f.Close()
			return nil, fmt.Errorf("read header of %s: %w", f.Name(), err)
		}
	}
	g, err := decodeHeader(hdr, size, opts.MaxSize)
	if err == nil {
		err = opts.check(g)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	m := &mapping{f: f, id: id, g: g}
	// The sizes mapped are the validated geometry's, equal to the file's
	// size: no page of either mapping lies past the end of the file.
	if m.hdr, err = mmap(f, 0, headerSize, unix.PROT_READ|unix.PROT_WRITE); err == nil {
		m.slots, err = mmap(f, headerSize, g.size-headerSize, unix.PROT_READ)
	}
	if err != nil {
		m.close()
		return nil, err
	}
	m.head = word64(m.hdr, offHead)
	m.event = word32(m.hdr, offEvent)
	m.closed = word32(m.hdr, offClosed)
	m.waiters = word32(m.hdr, offWaiters)
	return m, nil
}

func (o Options) check(g geometry) error {
	switch {
	case o.Type != "" && o.Type != g.typeName:
		return fmt.Errorf("channel carries %s, not %s: %w", g.typeName, o.Type, ErrMismatch)
	case o.SlotSize != 0 && o.SlotSize != int(g.slotSize):
		return fmt.Errorf("channel slot size %d, not %d: %w", g.slotSize, o.SlotSize, ErrMismatch)
	case o.Slots != 0 && o.Slots != int(g.slots):
		return fmt.Errorf("channel has %d slots, not %d: %w", g.slots, o.Slots, ErrMismatch)
	}
	return nil
}

// Subscribe attaches to the channel at path. If there is no channel there
// yet, or only one whose publisher is gone, it waits for a publisher to
// create one, until ctx is done. A channel that does not match opts, or whose
// header is not valid, is an error at once.
//
// The subscriber receives the messages published after it attached; if it
// had to wait for the channel, all of them from the first.
func Subscribe(ctx context.Context, path string, opts Options) (*Subscriber, error) {
	s := &Subscriber{opts: opts, path: path}
	waited, err := s.attachPath(ctx)
	if err != nil {
		return nil, fmt.Errorf("shm: subscribe %s: %w", path, err)
	}
	// A restarted publisher must carry the type this subscriber reads,
	// also when opts accepted any.
	s.opts.Type = s.cur.g.typeName
	if waited {
		s.seek(1)
	} else {
		s.seek(s.cur.head.Load() + 1)
	}
	return s, nil
}

// SubscribeFile attaches to the channel in f, typically a memfd inherited
// from the publisher's process (CreateMemfd, Publisher.File). It reopens the
// file and closes f: the publisher's lock belongs to the open file f shares
// with the publisher, and only a descriptor of its own lets the subscriber
// see the lock go when the publisher dies. The subscriber receives the
// messages published after it attached; a memfd channel cannot restart, so
// once its publisher is gone Next keeps reporting it.
func SubscribeFile(f *os.File, opts Options) (*Subscriber, error) {
	own, err := os.OpenFile("/proc/self/fd/"+strconv.Itoa(int(f.Fd())), os.O_RDWR, 0)
	if err != nil {
		return nil, fmt.Errorf("shm: subscribe %s: reopen: %w", f.Name(), err)
	}
	f.Close()
	m, err := attach(own, opts)
	if err != nil {
		return nil, fmt.Errorf("shm: subscribe %s: %w", own.Name(), err)
	}
	s := &Subscriber{opts: opts, cur: m}
	s.seek(m.head.Load() + 1)
	return s, nil
}

// seek makes seq the next message Next looks for, with nothing missed.
func (s *Subscriber) seek(seq uint64) {
	s.next = seq
	s.slot = uint32((seq - 1) % uint64(s.cur.g.slots))
	s.missed = 0
}

// skip moves past n messages that are lost.
func (s *Subscriber) skip(n uint64) {
	s.missed += n
	s.stats.Missed += n
	s.next += n
	s.slot = uint32((s.next - 1) % uint64(s.cur.g.slots))
}

// attachPath attaches to the channel at s.path, waiting (with backoff)
// until a file with a live publisher, other than s.cur and s.dead, is
// there. It reports whether it waited.
func (s *Subscriber) attachPath(ctx context.Context) (waited bool, err error) {
	backoff := time.Millisecond
	var last error // why the last attempt did not attach, for the error
	for {
		m, err := s.tryAttachPath()
		if err != nil {
			return waited, err
		}
		if m != nil {
			if s.cur != nil {
				s.prev.close()
				s.prev = s.cur
			}
			s.cur = m
			return waited, nil
		}
		waited = true
		last = ErrPublisherGone
		if _, serr := pathID(s.path); serr != nil {
			last = serr
		}
		t := time.NewTimer(backoff)
		select {
		case <-ctx.Done():
			t.Stop()
			return waited, fmt.Errorf("waiting for a publisher: %w (%w)", ctx.Err(), last)
		case <-t.C:
		}
		backoff = min(2*backoff, maxBackoff)
	}
}

// tryAttachPath attaches to the file at s.path if it is a new channel with
// a live publisher; it returns nil, nil if there is none (yet).
func (s *Subscriber) tryAttachPath() (*mapping, error) {
	f, err := os.OpenFile(s.path, os.O_RDWR, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	id, _, err := statID(f)
	if err != nil {
		f.Close()
		return nil, err
	}
	if (s.cur != nil && id == s.cur.id) || id == s.dead {
		f.Close()
		return nil, nil
	}
	if locked, err := lockedByOther(f); err != nil || !locked {
		// A file whose publisher is gone: wait for its replacement.
		s.dead = id
		f.Close()
		return nil, err
	}
	return attach(f, s.opts)
}

// Type returns the full name of the message type the channel carries.
func (s *Subscriber) Type() string { return s.cur.g.typeName }

// SlotSize returns the channel's slot size.
func (s *Subscriber) SlotSize() int { return int(s.cur.g.slotSize) }

// Slots returns the length of the channel's ring.
func (s *Subscriber) Slots() int { return int(s.cur.g.slots) }

// Stats returns what the subscriber has received so far.
func (s *Subscriber) Stats() Stats { return s.stats }

// Next returns the next message, waiting for it until ctx is done (a ctx
// already done makes Next a poll). The wait polls for Options.Spin, then
// sleeps on the channel's futex, which the publisher wakes.
//
// A subscriber that fell behind by a ring (the slot it wanted was
// overwritten, or a Check failed) skips to the newer half of the ring, with
// Missed saying how many messages were lost. When the publisher
// is gone (its process died) or closed the channel, Next first returns what
// it had published, then an error wrapping ErrPublisherGone or ErrClosed;
// called again, Next waits (until ctx is done) for a new publisher at the
// channel's path and returns its messages from the first, the first marked
// Restarted. A file the header of which is not a valid channel gives an
// error, never a panic.
func (s *Subscriber) Next(ctx context.Context) (Message, error) {
	if s.cur == nil {
		return Message{}, fmt.Errorf("shm: next: %w", os.ErrClosed)
	}
	if s.gone != nil {
		if s.path == "" {
			return Message{}, fmt.Errorf("shm: next: %w", s.gone)
		}
		if _, err := s.attachPath(ctx); err != nil {
			return Message{}, fmt.Errorf("shm: next: %w", err)
		}
		s.gone = nil
		s.restarted = true
		s.stats.Restarts++
		s.seek(1)
	}
	m := s.cur
	if s.behind {
		s.behind = false
		s.catchUp(m)
	}
	var (
		spins                int
		yielding             bool
		pureUntil, spinUntil time.Time // zero until the first wait
		idleSince            time.Time
	)
	for {
		// Seqlock read side, step 1: an acquire load of the slot's
		// state. If it says the slot holds s.next, every payload store
		// the publisher made before publishing it is visible to the loads
		// of Data that follow.
		state := m.state(s.slot)
		st := state.Load()
		want := s.next << 1
		switch {
		case st == want:
			return s.deliver(m, state, st)
		case st > want|1:
			// The slot holds, or is being written with, a later message:
			// the publisher lapped us.
			if err := s.resync(m); err != nil {
				return Message{}, err
			}
			continue
		}
		// st < want|1: the slot still holds an older message, or ours is
		// being written. Wait.
		if spinUntil.IsZero() {
			if err := ctx.Err(); err != nil { // a poll
				return Message{}, fmt.Errorf("shm: next: no message %d: %w", s.next, err)
			}
			now := time.Now()
			spin := s.opts.spin()
			pureUntil, spinUntil, idleSince = now.Add(min(spin, pureSpin)), now.Add(spin), now
		}
		if spins++; spins&63 != 0 && !yielding {
			continue
		}
		if now := time.Now(); now.Before(spinUntil) {
			// Past the pure spin, yield the CPU on each poll: a publisher
			// that shares our CPU then runs at once, instead of after our
			// spin or our time slice.
			if yielding = !now.Before(pureUntil); yielding {
				schedYield()
			}
			continue
		}
		if err := ctx.Err(); err != nil {
			return Message{}, fmt.Errorf("shm: next: no message %d: %w", s.next, err)
		}
		d := sleepSlice
		if dl, ok := ctx.Deadline(); ok {
			d = min(d, time.Until(dl))
		}
		if d > 0 {
			// Announce the sleep, then re-check: the waiters increment
			// and the state load are sequentially consistent, as are the
			// publisher's state store and its waiters load (Publish), so
			// the publisher sees us or we see its message. FUTEX_WAIT
			// returns at once if event moved since we loaded it.
			m.waiters.Add(1)
			ev := m.event.Load()
			if state.Load() == st && m.closed.Load() == 0 {
				futexWait(m.event, ev, d)
			}
			m.waiters.Add(^uint32(0))
		}
		// closed is stored after the last Publish, so once it reads 1 the
		// state load after it sees every message published.
		closed := m.closed.Load() != 0
		if state.Load() != st {
			continue
		}
		if closed {
			s.gone = ErrClosed
			return Message{}, fmt.Errorf("shm: next: message %d: %w", s.next, ErrClosed)
		}
		if time.Since(idleSince) >= livenessInterval {
			idleSince = time.Now()
			if !m.alive() && state.Load() == st {
				s.gone = ErrPublisherGone
				return Message{}, fmt.Errorf("shm: next: message %d: %w", s.next, ErrPublisherGone)
			}
		}
	}
}

func (o Options) spin() time.Duration {
	switch {
	case o.Spin == 0:
		return DefaultSpin
	case o.Spin < 0:
		return 0
	}
	return o.Spin
}

// deliver returns the message in slot s.slot, whose state is st.
func (s *Subscriber) deliver(m *mapping, state *atomic.Uint64, st uint64) (Message, error) {
	base := uint64(s.slot) * m.g.stride
	n := word32(m.slots, base+offSlotLen).Load()
	if n > m.g.slotSize {
		// Only a corrupt file says so; the slot's message is lost.
		seq := s.next
		s.skip(1)
		return Message{}, fmt.Errorf("shm: next: message %d claims %d bytes in a slot of %d: %w", seq, n, m.g.slotSize, ErrCorrupt)
	}
	data := base + slotHeader
	s.touch(m.slots[data : data+uint64(min(n, touchBytes))])
	msg := Message{
		Data:      m.slots[data : data+uint64(n) : data+uint64(n)],
		Seq:       s.next,
		Missed:    s.missed,
		Restarted: s.restarted,
		state:     state,
		want:      st,
		sub:       s,
	}
	s.missed, s.restarted = 0, false
	s.stats.Received++
	s.next++
	if s.slot++; s.slot == m.g.slots {
		s.slot = 0
	}
	return msg, nil
}

// touchBytes is how much of a message Next loads before returning it.
const touchBytes = 1024

// touch loads one byte of each cache line of b. The loads are independent,
// so the lines arrive from the publisher's cache together, instead of one
// miss after another as a reader follows the payload's offsets (header,
// root, table, fields, strings).
func (s *Subscriber) touch(b []byte) {
	var x byte
	for i := 0; i < len(b); i += 64 {
		x ^= b[i]
	}
	s.sink = x
}

// resync moves a lapped subscriber (the slot it wanted holds a later
// message) to the newer half of the ring.
func (s *Subscriber) resync(m *mapping) error {
	h := m.head.Load()
	if h < s.next || h >= maxSeq {
		// A slot holds a message beyond the last published: only a corrupt
		// file says so. Skip the slot's message rather than spin on it.
		seq := s.next
		s.skip(1)
		return fmt.Errorf("shm: next: slot of message %d is ahead of the channel's head %d: %w", seq, h, ErrCorrupt)
	}
	s.skip(max(catchUpTarget(h, m.g.slots), s.next+1) - s.next)
	return nil
}

// catchUp moves a subscriber that found a message overwritten while it
// read it (it trails the publisher by about a ring) to the newer half of
// the ring, if that is ahead of it.
func (s *Subscriber) catchUp(m *mapping) {
	h := m.head.Load()
	if h >= maxSeq { // corrupt; resync reports it if it matters
		return
	}
	if t := catchUpTarget(h, m.g.slots); t > s.next {
		s.skip(t - s.next)
	}
}

// catchUpTarget is where a subscriber that fell behind resumes, with head
// the last message published: the oldest of the newest slots/2 messages.
// Resuming at the oldest message still in the ring would leave it reading
// the slot the publisher writes next, and so losing message after message
// to torn reads while it chases the publisher's tail; half a ring ahead it
// has half a ring of slack.
func catchUpTarget(head uint64, slots uint32) uint64 {
	half := uint64(slots / 2)
	if head+1 <= half {
		return 1
	}
	return head + 1 - half
}

// Close detaches the subscriber. Messages it returned become invalid.
func (s *Subscriber) Close() error {
	if s.cur == nil {
		return fmt.Errorf("shm: close: %w", os.ErrClosed)
	}
	s.prev.close()
	s.cur.close()
	s.prev, s.cur = nil, nil
	return nil
}

// Receive returns the value read from the next intact message: it calls
// read with the message's Data, then Check; if the slot was overwritten
// while read ran, it discards read's result and error and reads the next
// message instead, adding the lost one to the message's Missed. read's
// result is returned only for a message that was intact throughout, so
// it never sees through a torn read. read must not keep Data.
func Receive[T any](ctx context.Context, s *Subscriber, read func(data []byte) (T, error)) (T, Message, error) {
	var (
		lost      uint64
		restarted bool
	)
	for {
		m, err := s.Next(ctx)
		if err != nil {
			var zero T
			return zero, m, err
		}
		m.Missed += lost
		m.Restarted = m.Restarted || restarted
		v, rerr := read(m.Data)
		if m.Check() != nil {
			lost, restarted = m.Missed+1, m.Restarted
			continue
		}
		return v, m, rerr
	}
}
