//go:build linux && (amd64 || arm64)

package shm

import (
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// Config is the shape of a channel, fixed when the publisher creates it.
type Config struct {
	// Type is the full name of the message type the channel carries, as
	// the generated handle's PhaserType().Name() gives it (for example
	// "example.quickstart.Robot"). Subscribers check it on attach.
	Type string
	// SlotSize is the most bytes one message's payload may use: the
	// memory Loan returns, in which NewXIn builds the message.
	SlotSize int
	// Slots is the length of the ring (at least 2): how many messages a
	// subscriber may fall behind before it misses some.
	Slots int
	// Perm is the channel file's permission bits (default 0o600).
	// Subscribers open the file read-write (they record that they sleep
	// in its header); whoever can write the file can also corrupt it, which
	// subscribers detect but cannot prevent (see the package doc).
	Perm fs.FileMode
}

// Publisher is the single writer of a channel. Its methods are for one
// goroutine at a time.
type Publisher struct {
	g    geometry
	f    *os.File
	path string // "" for a memfd
	id   fileID
	mem  []byte // the whole file, read-write

	// The shared words. The publisher only ever writes them, except
	// waiters, which it reads as a hint; it keeps its own state in the
	// fields below and never trusts the file's.
	head    *atomic.Uint64
	event   *atomic.Uint32
	closed  *atomic.Uint32
	waiters *atomic.Uint32

	seq       uint64 // the last message published
	slot      uint32 // the slot of message seq+1
	loaned    bool   // slot's state says seq+1 is being written
	idleWakes int    // consecutive wakes that woke nobody
}

// Create creates the channel at path (typically under /dev/shm) and
// returns its publisher. A channel left at path by a publisher that is gone
// (killed, or closed without removing it) is replaced: subscribers attached
// to it see the publisher gone, and re-attach to the new file when their
// Next is called again. Create fails with ErrBusy while a live publisher
// owns path, and with ErrNotChannel if path is some other file.
//
// The new file is prepared under a temporary name in path's directory,
// locked, and then renamed into place, so a subscriber never sees a
// half-written header or a file without its publisher's lock.
func Create(path string, cfg Config) (*Publisher, error) {
	p, err := create(path, cfg)
	if err != nil {
		return nil, fmt.Errorf("shm: create %s: %w", path, err)
	}
	return p, nil
}

// CreateMemfd creates a channel in an anonymous memory file (memfd_create;
// name is only a label for /proc) and returns its publisher. Pass
// Publisher.File to a child process (exec.Cmd.ExtraFiles) and attach there
// with SubscribeFile. The file is sealed against shrinking and growing, so
// no process can truncate it under a subscriber's mapping.
func CreateMemfd(name string, cfg Config) (*Publisher, error) {
	p, err := createMemfd(name, cfg)
	if err != nil {
		return nil, fmt.Errorf("shm: create memfd %s: %w", name, err)
	}
	return p, nil
}

func newGeometry(cfg Config) (geometry, error) {
	if err := checkGeometry(cfg.Type, cfg.SlotSize, cfg.Slots); err != nil {
		return geometry{}, err
	}
	var id [8]byte
	if _, err := rand.Read(id[:]); err != nil {
		return geometry{}, err
	}
	g := geometry{
		slotSize:    uint32(cfg.SlotSize),
		slots:       uint32(cfg.Slots),
		stride:      strideOf(uint32(cfg.SlotSize)),
		incarnation: binary.LittleEndian.Uint64(id[:]),
		pid:         uint32(os.Getpid()),
		typeName:    cfg.Type,
	}
	g.size = fileSizeOf(g.slotSize, g.slots)
	return g, nil
}

func create(path string, cfg Config) (*Publisher, error) {
	g, err := newGeometry(cfg)
	if err != nil {
		return nil, err
	}
	perm := cfg.Perm
	if perm == 0 {
		perm = 0o600
	}
	for range 8 { // retried only when another publisher raced us
		p, err := tryCreate(path, g, perm)
		if !errors.Is(err, errRaced) {
			return p, err
		}
	}
	return nil, ErrBusy
}

var errRaced = errors.New("raced")

func tryCreate(path string, g geometry, perm fs.FileMode) (*Publisher, error) {
	// Own the file being replaced, if any: its publisher must be gone, and
	// while we hold its lock no other new publisher can replace it too.
	old, err := os.OpenFile(path, os.O_RDWR, 0)
	switch {
	case err == nil:
		defer old.Close() // releases our lock on it once ours is in place
		if err := lockWrite(old); err != nil {
			return nil, err
		}
		oldID, _, err := statID(old)
		if err != nil {
			return nil, err
		}
		if cur, err := pathID(path); err != nil || cur != oldID {
			return nil, errRaced // replaced since we opened it
		}
		// Replace only a channel (or an empty file), never some other
		// file that happens to be at path.
		var m [len(magic)]byte
		if n, _ := old.ReadAt(m[:], 0); n > 0 && string(m[:n]) != magic {
			return nil, fmt.Errorf("existing file is not a channel, not replacing it: %w", ErrNotChannel)
		}
	case errors.Is(err, fs.ErrNotExist):
		old = nil
	default:
		return nil, err
	}

	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".new-*")
	if err != nil {
		return nil, err
	}
	p, err := initFile(tmp, g, perm)
	if err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return nil, err
	}
	if old != nil {
		err = os.Rename(tmp.Name(), path)
	} else {
		// link fails if another publisher put a file at path meanwhile.
		if err = os.Link(tmp.Name(), path); err == nil {
			os.Remove(tmp.Name())
		} else if errors.Is(err, fs.ErrExist) {
			err = errRaced
		}
	}
	if err != nil {
		p.unmap()
		os.Remove(tmp.Name())
		return nil, err
	}
	p.path = path
	return p, nil
}

func createMemfd(name string, cfg Config) (*Publisher, error) {
	g, err := newGeometry(cfg)
	if err != nil {
		return nil, err
	}
	fd, err := unix.MemfdCreate(name, unix.MFD_CLOEXEC|unix.MFD_ALLOW_SEALING)
	if err != nil {
		return nil, err
	}
	f := os.NewFile(uintptr(fd), "memfd:"+name)
	p, err := initFile(f, g, 0)
	if err != nil {
		f.Close()
		return nil, err
	}
	if _, err := unix.FcntlInt(f.Fd(), unix.F_ADD_SEALS, unix.F_SEAL_SHRINK|unix.F_SEAL_GROW|unix.F_SEAL_SEAL); err != nil {
		p.unmap()
		return nil, fmt.Errorf("seal: %w", err)
	}
	return p, nil
}

// initFile sizes f for g, maps it, writes the header and takes the
// publisher's lock. On error the caller closes f.
func initFile(f *os.File, g geometry, perm fs.FileMode) (*Publisher, error) {
	if perm != 0 {
		if err := f.Chmod(perm); err != nil {
			return nil, err
		}
	}
	if err := f.Truncate(int64(g.size)); err != nil {
		return nil, err
	}
	mem, err := mmap(f, 0, g.size, unix.PROT_READ|unix.PROT_WRITE)
	if err != nil {
		return nil, err
	}
	encodeHeader(mem[:readHeader], g)
	if err := lockWrite(f); err != nil {
		munmap(mem)
		return nil, err
	}
	id, _, err := statID(f)
	if err != nil {
		munmap(mem)
		return nil, err
	}
	return &Publisher{
		g: g, f: f, id: id, mem: mem,
		head:    word64(mem, offHead),
		event:   word32(mem, offEvent),
		closed:  word32(mem, offClosed),
		waiters: word32(mem, offWaiters),
	}, nil
}

func (p *Publisher) unmap() {
	munmap(p.mem)
	p.mem = nil
	p.f.Close()
}

// Path returns the channel's path ("" for a memfd channel).
func (p *Publisher) Path() string { return p.path }

// File returns the channel file, to pass a memfd channel to a child
// process (exec.Cmd.ExtraFiles). The Publisher keeps ownership of it.
func (p *Publisher) File() *os.File { return p.f }

// SlotSize returns the most bytes a message may use.
func (p *Publisher) SlotSize() int { return int(p.g.slotSize) }

// Slots returns the length of the ring.
func (p *Publisher) Slots() int { return int(p.g.slots) }

// Seq returns the sequence number of the last message published (0 before
// the first). Messages are numbered 1, 2, ... in each publisher's run.
func (p *Publisher) Seq() uint64 { return p.seq }

// maxSeq bounds sequence numbers so that seq<<1|1 fits the slot state.
const maxSeq = 1 << 62

func (p *Publisher) stateOf(slot uint32) *atomic.Uint64 {
	return word64(p.mem, headerSize+uint64(slot)*p.g.stride+offSlotState)
}

// Loan returns the memory of the next message's slot, SlotSize bytes, in
// which the caller builds the message in place (NewXIn(slot) of a generated
// handle, or a copy of a payload), then calls Publish. From Loan on,
// subscribers reading the message the slot held before see it overwritten.
// Calling Loan again before Publish returns the same slot.
//
// The slot of message seq is (seq-1) mod Slots: the same memory comes back
// every Slots messages, so a publisher may also keep one handle per slot,
// made once with NewXIn, and Clear and refill it.
func (p *Publisher) Loan() ([]byte, error) {
	if p.mem == nil {
		return nil, fmt.Errorf("shm: loan: %w", os.ErrClosed)
	}
	if !p.loaned {
		if p.seq+1 >= maxSeq {
			return nil, fmt.Errorf("shm: loan: sequence space exhausted")
		}
		// Seqlock write side, step 1: mark the slot as being written
		// with seq+1 before any payload store, so that a subscriber still
		// reading the slot's previous message sees it change. The fence
		// keeps the payload stores that follow from overtaking this store
		// (no-op on amd64, DMB ISHST on arm64).
		p.stateOf(p.slot).Store((p.seq+1)<<1 | 1)
		storeFence()
		p.loaned = true
	}
	base := headerSize + uint64(p.slot)*p.g.stride + slotHeader
	return p.mem[base : base+uint64(p.g.slotSize) : base+uint64(p.g.slotSize)], nil
}

// Publish publishes the loaned slot's first n bytes (len(x.Bytes()) of the
// message built in it) as the next message and returns its sequence
// number. It wakes sleeping subscribers; it never waits for them: a
// subscriber that falls behind by a whole ring misses messages and is told
// how many.
func (p *Publisher) Publish(n int) (uint64, error) {
	if p.mem == nil {
		return 0, fmt.Errorf("shm: publish: %w", os.ErrClosed)
	}
	if !p.loaned {
		return 0, fmt.Errorf("shm: publish without Loan")
	}
	if n < 0 || n > int(p.g.slotSize) {
		return 0, fmt.Errorf("shm: publish %d bytes in a slot of %d", n, p.g.slotSize)
	}
	seq := p.seq + 1
	base := headerSize + uint64(p.slot)*p.g.stride
	// Seqlock write side, step 2: the size, then the state naming seq.
	// atomic.Store is a release (and, in Go, sequentially consistent)
	// store: every payload store above is visible before the state that
	// says the slot holds seq, and a subscriber that loads that state
	// (an acquire load) sees the whole payload.
	word32(p.mem, base+offSlotLen).Store(uint32(n))
	word64(p.mem, base+offSlotState).Store(seq << 1)
	// head, for subscribers that attach or fell behind; then the waiters
	// check. The head store and the waiters load are sequentially
	// consistent, as are a sleeping subscriber's waiters increment and its
	// re-load of the slot state: either the subscriber sees the new state
	// and does not sleep, or we see it waiting and wake it (no lost wakeup).
	p.head.Store(seq)
	p.seq = seq
	p.loaned = false
	if p.slot++; p.slot == p.g.slots {
		p.slot = 0
	}
	if w := p.waiters.Load(); w != 0 {
		p.wake(w)
	}
	return seq, nil
}

// staleWakes is how many publishes in a row may find waiters announced
// but nobody asleep before the publisher clears the count.
const staleWakes = 64

// wake wakes the subscribers sleeping on the channel's futex; w is the
// waiters count it read. A subscriber killed while it slept never takes
// itself off the count, which would cost every later publish a system
// call: when wakes keep finding nobody asleep, the count is cleared. A
// subscriber that was about to sleep just then sleeps at most a slice
// (25 ms) instead of being woken, and its decrement makes the count
// non-zero again until the next clearing: the cost of a stale count is
// bounded, and no subscriber waits unboundedly.
func (p *Publisher) wake(w uint32) {
	p.event.Add(1)
	if futexWake(p.event) > 0 {
		p.idleWakes = 0
		return
	}
	if p.idleWakes++; p.idleWakes >= staleWakes {
		p.idleWakes = 0
		p.waiters.CompareAndSwap(w, 0)
	}
}

// Close closes the channel: subscribers receive what was published, then
// ErrClosed. The file is removed from its path (if it is still there, not
// replaced by a newer publisher), the mapping and the lock released.
func (p *Publisher) Close() error {
	if p.mem == nil {
		return fmt.Errorf("shm: close: %w", os.ErrClosed)
	}
	p.closed.Store(1)
	p.event.Add(1)
	futexWake(p.event)
	var err error
	if p.path != "" {
		if cur, serr := pathID(p.path); serr == nil && cur == p.id {
			err = os.Remove(p.path)
		}
	}
	munmap(p.mem)
	p.mem = nil
	if cerr := p.f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("shm: close: %w", err)
	}
	return nil
}
