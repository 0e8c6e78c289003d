//go:build linux && (amd64 || arm64)

package shm

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/phaser-go/phaser/runtime"
)

// channelPath returns a path for a test channel: under /dev/shm when the
// machine has it (tmpfs, as in production), else the test's temp dir.
func channelPath(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	if st, err := os.Stat("/dev/shm"); err == nil && st.IsDir() {
		if d, err := os.MkdirTemp("/dev/shm", "phaser-shm-test-"); err == nil {
			t.Cleanup(func() { os.RemoveAll(d) })
			dir = d
		}
	}
	return filepath.Join(dir, "chan")
}

func testConfig(slots int) Config {
	return Config{Type: scalarsType, SlotSize: testSlotSize, Slots: slots}
}

func mustCreate(t testing.TB, path string, cfg Config) *Publisher {
	t.Helper()
	p, err := Create(path, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if p.mem != nil {
			p.Close()
		}
	})
	return p
}

func mustSubscribe(t testing.TB, path string, opts Options) *Subscriber {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s, err := Subscribe(ctx, path, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if s.cur != nil {
			s.Close()
		}
	})
	return s
}

func publish(t testing.TB, p *Publisher, run uint64) uint64 {
	t.Helper()
	slot, err := p.Loan()
	if err != nil {
		t.Fatal(err)
	}
	n, err := build(slot, run, p.Seq()+1)
	if err != nil {
		t.Fatal(err)
	}
	seq, err := p.Publish(n)
	if err != nil {
		t.Fatal(err)
	}
	return seq
}

// poll returns the next message if one is ready, without waiting.
func poll(s *Subscriber) (Message, error) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return s.Next(ctx)
}

func next(t testing.TB, s *Subscriber) Message {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	m, err := s.Next(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// crash simulates the publisher's process dying: its mapping and lock go,
// nothing is closed or removed.
func (p *Publisher) crash() {
	munmap(p.mem)
	p.mem = nil
	p.f.Close()
}

func TestPublishSubscribe(t *testing.T) {
	path := channelPath(t)
	p := mustCreate(t, path, testConfig(8))
	s := mustSubscribe(t, path, Options{Type: scalarsType, SlotSize: testSlotSize, Slots: 8})
	if s.Type() != scalarsType || s.SlotSize() != testSlotSize || s.Slots() != 8 {
		t.Fatalf("geometry %s %d %d", s.Type(), s.SlotSize(), s.Slots())
	}
	var pl runtime.Payload
	for seq := uint64(1); seq <= 100; seq++ {
		if got := publish(t, p, 1); got != seq {
			t.Fatalf("Publish returned %d, want %d", got, seq)
		}
		m := next(t, s)
		if m.Seq != seq || m.Missed != 0 || m.Restarted {
			t.Fatalf("message %+v, want seq %d", m, seq)
		}
		if err := verify(&pl, m.Data, 1, seq); err != nil {
			t.Fatalf("message %d: %v", seq, err)
		}
		if err := m.Check(); err != nil {
			t.Fatal(err)
		}
		if cap(m.Data) != len(m.Data) {
			t.Fatalf("Data has capacity %d beyond its %d bytes", cap(m.Data), len(m.Data))
		}
	}
	if _, err := poll(s); !errors.Is(err, context.Canceled) {
		t.Fatalf("poll of an empty channel: %v, want context.Canceled", err)
	}
	if st := s.Stats(); st != (Stats{Received: 100}) {
		t.Fatalf("stats %+v", st)
	}
}

// A subscriber that attaches to a running channel receives only what is
// published after it attached.
func TestSubscribeRunning(t *testing.T) {
	path := channelPath(t)
	p := mustCreate(t, path, testConfig(8))
	for range 5 {
		publish(t, p, 1)
	}
	s := mustSubscribe(t, path, Options{Type: scalarsType})
	if m, err := poll(s); err == nil {
		t.Fatalf("new subscriber got old message %d", m.Seq)
	}
	publish(t, p, 1)
	if m := next(t, s); m.Seq != 6 || m.Missed != 0 {
		t.Fatalf("got %d (missed %d), want 6", m.Seq, m.Missed)
	}
}

// A subscriber started before the publisher waits for it and receives
// everything from the first message.
func TestSubscribeFirst(t *testing.T) {
	path := channelPath(t)
	got := make(chan *Subscriber, 1)
	errc := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		s, err := Subscribe(ctx, path, Options{Type: scalarsType})
		if err != nil {
			errc <- err
			return
		}
		got <- s
	}()
	time.Sleep(20 * time.Millisecond)
	p := mustCreate(t, path, testConfig(8))
	for range 3 {
		publish(t, p, 1)
	}
	var s *Subscriber
	select {
	case s = <-got:
	case err := <-errc:
		t.Fatal(err)
	}
	defer s.Close()
	for seq := uint64(1); seq <= 3; seq++ {
		if m := next(t, s); m.Seq != seq {
			t.Fatalf("got %d, want %d", m.Seq, seq)
		}
	}
}

func TestSubscribeTimeout(t *testing.T) {
	path := channelPath(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := Subscribe(ctx, path, Options{Type: scalarsType})
	if !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Subscribe without a publisher: %v, want DeadlineExceeded and ErrNotExist", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("Subscribe returned after %v", d)
	}
}

func TestMismatch(t *testing.T) {
	path := channelPath(t)
	mustCreate(t, path, testConfig(8))
	ctx := context.Background()
	for _, opts := range []Options{
		{Type: "other.Type"},
		{Type: scalarsType, SlotSize: 2048},
		{Type: scalarsType, Slots: 16},
	} {
		if _, err := Subscribe(ctx, path, opts); !errors.Is(err, ErrMismatch) {
			t.Errorf("Subscribe(%+v): %v, want ErrMismatch", opts, err)
		}
	}
	if _, err := Subscribe(ctx, path, Options{Type: scalarsType, MaxSize: 4096}); !errors.Is(err, ErrTooLarge) {
		t.Errorf("Subscribe with a small MaxSize: %v, want ErrTooLarge", err)
	}
	s, err := Subscribe(ctx, path, Options{}) // any type
	if err != nil {
		t.Fatal(err)
	}
	if s.Type() != scalarsType {
		t.Errorf("Type() = %q", s.Type())
	}
	s.Close()
}

func TestCreateErrors(t *testing.T) {
	path := channelPath(t)
	for _, cfg := range []Config{
		{SlotSize: 1024, Slots: 4},
		{Type: "x", SlotSize: 8, Slots: 4},
		{Type: "x", SlotSize: 1024, Slots: 1},
		{Type: "x", SlotSize: 1024, Slots: MaxSlots + 1},
		{Type: strings.Repeat("x", MaxTypeName+1), SlotSize: 1024, Slots: 4},
		{Type: "bad\nname", SlotSize: 1024, Slots: 4},
	} {
		if p, err := Create(path, cfg); err == nil {
			p.Close()
			t.Errorf("Create(%+v) succeeded", cfg)
		}
	}
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("failed Creates left %s: %v", path, err)
	}
	// A file at path that is not a channel is left alone.
	os.WriteFile(path, []byte("precious"), 0o600)
	if p, err := Create(path, testConfig(4)); !errors.Is(err, ErrNotChannel) {
		if p != nil {
			p.Close()
		}
		t.Errorf("Create over another file: %v, want ErrNotChannel", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "precious" {
		t.Errorf("Create changed another file: %q", b)
	}
	os.Remove(path)
	if m, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".*")); len(m) != 0 {
		t.Errorf("failed Creates left temporary files %v", m)
	}
}

// One live publisher per channel; a dead one's file is replaced.
func TestBusy(t *testing.T) {
	path := channelPath(t)
	p := mustCreate(t, path, testConfig(8))
	if q, err := Create(path, testConfig(8)); !errors.Is(err, ErrBusy) {
		if q != nil {
			q.Close()
		}
		t.Fatalf("second Create: %v, want ErrBusy", err)
	}
	p.crash()
	q := mustCreate(t, path, testConfig(4))
	if q.Slots() != 4 {
		t.Fatalf("replacement has %d slots", q.Slots())
	}
	if err := q.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Close left %s: %v", path, err)
	}
	if m, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".*")); len(m) != 0 {
		t.Errorf("temporary files left: %v", m)
	}
}

// A subscriber that falls more than a ring behind gets the oldest intact
// message and the number it missed.
func TestLapped(t *testing.T) {
	path := channelPath(t)
	p := mustCreate(t, path, testConfig(4))
	s := mustSubscribe(t, path, Options{Type: scalarsType})
	for range 10 {
		publish(t, p, 1)
	}
	// head 10: slots hold 7..10; the subscriber resumes at the newer half.
	var pl runtime.Payload
	want := []struct{ seq, missed uint64 }{{9, 8}, {10, 0}}
	for _, w := range want {
		m := next(t, s)
		if m.Seq != w.seq || m.Missed != w.missed {
			t.Fatalf("got %d (missed %d), want %d (missed %d)", m.Seq, m.Missed, w.seq, w.missed)
		}
		if err := verify(&pl, m.Data, 1, m.Seq); err != nil {
			t.Fatal(err)
		}
		if err := m.Check(); err != nil {
			t.Fatal(err)
		}
	}
	if st := s.Stats(); st.Received != 2 || st.Missed != 8 {
		t.Fatalf("stats %+v", st)
	}
	// Slots 2 and 3: the newer half of a ring of two is the last message.
	q := mustCreate(t, channelPath(t), testConfig(2))
	sq := mustSubscribe(t, q.Path(), Options{Type: scalarsType})
	for range 5 {
		publish(t, q, 1)
	}
	if m := next(t, sq); m.Seq != 5 || m.Missed != 4 {
		t.Fatalf("ring of 2: got %d (missed %d), want 5 (missed 4)", m.Seq, m.Missed)
	}
}

// Check reports a slot overwritten, or being overwritten, after Next
// returned it; a slot still holding an older message is never returned.
func TestCheckOverwritten(t *testing.T) {
	path := channelPath(t)
	p := mustCreate(t, path, testConfig(4))
	s := mustSubscribe(t, path, Options{Type: scalarsType})
	publish(t, p, 1)
	m := next(t, s)
	for range 3 {
		publish(t, p, 1)
	}
	if err := m.Check(); err != nil {
		t.Fatalf("Check before the slot is reused: %v", err)
	}
	if _, err := p.Loan(); err != nil { // message 5 begins in message 1's slot
		t.Fatal(err)
	}
	if err := m.Check(); !errors.Is(err, ErrOverwritten) {
		t.Fatalf("Check while the slot is being written: %v, want ErrOverwritten", err)
	}
	if _, err := p.Publish(0); err != nil {
		t.Fatal(err)
	}
	if err := m.Check(); !errors.Is(err, ErrOverwritten) {
		t.Fatalf("Check after the slot was written: %v", err)
	}
	if st := s.Stats(); st.Torn != 2 {
		t.Fatalf("stats %+v, want 2 torn", st)
	}
	if err := (Message{}).Check(); err == nil {
		t.Fatal("Check of a zero Message succeeded")
	}
}

func TestNoStaleMessage(t *testing.T) {
	path := channelPath(t)
	p := mustCreate(t, path, testConfig(4))
	s := mustSubscribe(t, path, Options{Type: scalarsType})
	for range 4 {
		publish(t, p, 1)
	}
	for seq := uint64(1); seq <= 4; seq++ {
		next(t, s)
	}
	// Message 5's slot holds message 1, and then 5 being written: neither
	// is returned.
	if m, err := poll(s); err == nil {
		t.Fatalf("got message %d from a slot holding message 1", m.Seq)
	}
	slot, _ := p.Loan()
	if m, err := poll(s); err == nil {
		t.Fatalf("got message %d from a slot being written", m.Seq)
	}
	n, _ := build(slot, 1, 5)
	p.Publish(n)
	if m := next(t, s); m.Seq != 5 {
		t.Fatalf("got %d, want 5", m.Seq)
	}
}

func TestPublishErrors(t *testing.T) {
	path := channelPath(t)
	p := mustCreate(t, path, testConfig(4))
	if _, err := p.Publish(0); err == nil {
		t.Error("Publish without Loan succeeded")
	}
	a, _ := p.Loan()
	b, _ := p.Loan()
	if &a[0] != &b[0] || len(a) != testSlotSize || cap(a) != testSlotSize {
		t.Error("a second Loan returned another slot, or a slot of the wrong size")
	}
	for _, n := range []int{-1, testSlotSize + 1} {
		if _, err := p.Publish(n); err == nil {
			t.Errorf("Publish(%d) succeeded", n)
		}
	}
	if seq, err := p.Publish(testSlotSize); err != nil || seq != 1 {
		t.Errorf("Publish(SlotSize) = %d, %v", seq, err)
	}
	p.Close()
	if _, err := p.Loan(); !errors.Is(err, os.ErrClosed) {
		t.Errorf("Loan after Close: %v", err)
	}
	if err := p.Close(); !errors.Is(err, os.ErrClosed) {
		t.Errorf("second Close: %v", err)
	}
}

// A subscriber drains what a dead publisher published, then reports it
// gone; called again, Next attaches to the replacement and marks its first
// message.
func TestPublisherGoneAndRestart(t *testing.T) {
	path := channelPath(t)
	p := mustCreate(t, path, testConfig(8))
	s := mustSubscribe(t, path, Options{Type: scalarsType})
	publish(t, p, 1)
	publish(t, p, 1)
	p.Loan() // dies while writing message 3
	p.crash()
	var pl runtime.Payload
	for seq := uint64(1); seq <= 2; seq++ {
		m := next(t, s)
		if m.Seq != seq || verify(&pl, m.Data, 1, seq) != nil || m.Check() != nil {
			t.Fatalf("message %d of the dead publisher: %+v", seq, m)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	start := time.Now()
	if _, err := s.Next(ctx); !errors.Is(err, ErrPublisherGone) {
		t.Fatalf("Next after the publisher died: %v, want ErrPublisherGone", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("death noticed after %v", d)
	}
	// No new publisher yet: Next waits, bounded by its context.
	short, cancel2 := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel2()
	if _, err := s.Next(short); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Next without a new publisher: %v", err)
	}
	q := mustCreate(t, path, testConfig(16))
	publish(t, q, 2)
	publish(t, q, 2)
	m := next(t, s)
	if m.Seq != 1 || !m.Restarted || m.Missed != 0 || verify(&pl, m.Data, 2, 1) != nil || m.Check() != nil {
		t.Fatalf("first message of the new publisher: %+v", m)
	}
	if m := next(t, s); m.Seq != 2 || m.Restarted {
		t.Fatalf("second message of the new publisher: %+v", m)
	}
	if s.Slots() != 16 {
		t.Fatalf("subscriber kept the old geometry: %d slots", s.Slots())
	}
	if st := s.Stats(); st.Restarts != 1 || st.Received != 4 {
		t.Fatalf("stats %+v", st)
	}
}

func TestClosed(t *testing.T) {
	path := channelPath(t)
	p := mustCreate(t, path, testConfig(8))
	s := mustSubscribe(t, path, Options{Type: scalarsType})
	publish(t, p, 1)
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if m := next(t, s); m.Seq != 1 {
		t.Fatalf("got %d", m.Seq)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := s.Next(ctx); !errors.Is(err, ErrClosed) {
		t.Fatalf("Next after Close: %v, want ErrClosed", err)
	}
}

// A sleeping subscriber is woken by Publish and by Close.
func TestWake(t *testing.T) {
	path := channelPath(t)
	p := mustCreate(t, path, testConfig(8))
	s := mustSubscribe(t, path, Options{Type: scalarsType, Spin: -1})
	done := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		m, err := s.Next(ctx)
		if err == nil && m.Seq != 1 {
			err = errors.New("wrong message")
		}
		if err == nil {
			_, err = s.Next(ctx)
			if errors.Is(err, ErrClosed) {
				err = nil
			}
		}
		done <- err
	}()
	for p.waiters.Load() == 0 { // the subscriber sleeps
		time.Sleep(time.Millisecond)
	}
	publish(t, p, 1)
	for p.waiters.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	p.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

func TestMemfd(t *testing.T) {
	p, err := CreateMemfd("phaser-test", testConfig(8))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if err := p.File().Truncate(0); err == nil {
		t.Error("a sealed memfd channel could be truncated")
	}
	// What a child gets: a descriptor of the publisher's open file.
	fd, err := dup(p.File())
	if err != nil {
		t.Fatal(err)
	}
	s, err := SubscribeFile(fd, Options{Type: scalarsType})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	publish(t, p, 1)
	var pl runtime.Payload
	m := next(t, s)
	if m.Seq != 1 || verify(&pl, m.Data, 1, 1) != nil || m.Check() != nil {
		t.Fatalf("message %+v", m)
	}
	if !s.cur.alive() {
		t.Fatal("subscriber sees the live publisher as gone")
	}
	p.crash()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := s.Next(ctx); !errors.Is(err, ErrPublisherGone) {
		t.Fatalf("Next after the publisher died: %v", err)
	}
	if _, err := s.Next(ctx); !errors.Is(err, ErrPublisherGone) {
		t.Fatalf("second Next after the publisher died: %v", err)
	}
}

func dup(f *os.File) (*os.File, error) {
	c, err := f.SyscallConn()
	if err != nil {
		return nil, err
	}
	var nf *os.File
	var derr error
	c.Control(func(fd uintptr) {
		var n int
		n, derr = dupFD(int(fd))
		nf = os.NewFile(uintptr(n), f.Name())
	})
	return nf, derr
}

func TestReceive(t *testing.T) {
	path := channelPath(t)
	p := mustCreate(t, path, testConfig(4))
	s := mustSubscribe(t, path, Options{Type: scalarsType})
	publish(t, p, 1)
	var pl runtime.Payload
	ctx := context.Background()
	v, m, err := Receive(ctx, s, func(data []byte) (uint64, error) {
		return uint64(len(data)), verify(&pl, data, 1, 1)
	})
	if err != nil || m.Seq != 1 || v != uint64(len(m.Data)) {
		t.Fatalf("Receive = %d, %+v, %v", v, m, err)
	}
	// A read during which the slot is overwritten is discarded: Receive
	// returns the next intact message and counts the lost one.
	publish(t, p, 1)
	calls := 0
	v, m, err = Receive(ctx, s, func(data []byte) (uint64, error) {
		calls++
		if calls == 1 {
			for range 4 { // laps the reader: message 2's slot is rewritten
				publish(t, p, 1)
			}
		}
		return 7, nil
	})
	// Messages 3..6 are in the ring; 2 was lost, and the subscriber skips
	// to the newer half (5, 6) rather than chase the publisher's tail.
	if err != nil || calls != 2 || m.Seq != 5 || m.Missed != 3 || v != 7 {
		t.Fatalf("Receive after a torn read: calls %d, seq %d missed %d, %v (want message 5, 3 missed)", calls, m.Seq, m.Missed, err)
	}
	if st := s.Stats(); st.Torn != 1 {
		t.Fatalf("stats %+v", st)
	}
}

// Publisher and subscribers in goroutines of one process (run with -race):
// every message a subscriber accepts is intact, and every message is
// accepted, missed or torn.
func TestConcurrent(t *testing.T) {
	path := channelPath(t)
	const total = 20000
	p := mustCreate(t, path, testConfig(4))
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for range 4 {
		s := mustSubscribe(t, path, Options{Type: scalarsType})
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := consume(s, 1, total)
			if err == nil {
				st := s.Stats()
				t.Logf("subscriber: %d received, %d missed, %d torn", st.Received-st.Torn, st.Missed, st.Torn)
			}
			errs <- err
		}()
	}
	for range total {
		publish(t, p, 1)
	}
	p.Close()
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}

// consume reads s until the channel closes, checking every message.
func consume(s *Subscriber, run, total uint64) error {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var pl runtime.Payload
	var last, accepted, missed, torn uint64
	for {
		m, err := s.Next(ctx)
		if errors.Is(err, ErrClosed) {
			break
		}
		if err != nil {
			return err
		}
		if m.Seq != last+m.Missed+1 {
			return errors.New("sequence numbers and Missed disagree")
		}
		last = m.Seq
		missed += m.Missed
		verr := verify(&pl, m.Data, run, m.Seq)
		if m.Check() != nil {
			torn++
			continue
		}
		if verr != nil {
			return errors.New("accepted a torn or stale message: " + verr.Error())
		}
		accepted++
	}
	if last != total || accepted+missed+torn != total {
		return errors.New("messages unaccounted for")
	}
	if st := s.Stats(); st.Received != accepted+torn || st.Missed != missed || st.Torn != torn {
		return errors.New("stats disagree")
	}
	return nil
}

// A waiters count left by subscribers killed in their sleep is cleared
// once wakes keep finding nobody asleep.
func TestStaleWaiters(t *testing.T) {
	path := channelPath(t)
	p := mustCreate(t, path, testConfig(8))
	p.waiters.Store(3)
	for range staleWakes {
		publish(t, p, 1)
	}
	if w := p.waiters.Load(); w != 0 {
		t.Fatalf("waiters %d after %d wakes of nobody", w, staleWakes)
	}
	// A real sleeper is woken and counted.
	s := mustSubscribe(t, path, Options{Type: scalarsType, Spin: -1})
	got := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_, err := s.Next(ctx)
		got <- err
	}()
	for p.waiters.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	publish(t, p, 1)
	if err := <-got; err != nil {
		t.Fatal(err)
	}
}

// A subscriber that accepted any type keeps to the one it attached to
// when its publisher restarts.
func TestRestartOtherType(t *testing.T) {
	path := channelPath(t)
	p := mustCreate(t, path, testConfig(8))
	s := mustSubscribe(t, path, Options{})
	p.crash()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := s.Next(ctx); !errors.Is(err, ErrPublisherGone) {
		t.Fatalf("Next: %v", err)
	}
	mustCreate(t, path, Config{Type: "other.Type", SlotSize: testSlotSize, Slots: 8})
	if _, err := s.Next(ctx); !errors.Is(err, ErrMismatch) {
		t.Fatalf("Next after a restart with another type: %v, want ErrMismatch", err)
	}
}
