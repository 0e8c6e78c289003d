package node

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"net"
	"strconv"
	"sync"
	"time"

	"github.com/phaser-go/phaser/ros/tcpros"
)

// PublishOptions configure a publication. The zero value is a publisher
// that does not latch, with a queue of 16 messages per subscriber.
type PublishOptions struct {
	// Latch keeps the last message and sends it to every subscriber that
	// connects later.
	Latch bool
	// Queue is how many messages wait for each subscriber (default 16).
	// When a subscriber's queue is full, its oldest message is dropped and
	// counted: a slow subscriber never blocks Publish nor grows memory.
	Queue int
	// WriteTimeout is how long a subscriber may take to accept one message
	// before its connection is closed as dead (default 10s).
	WriteTimeout time.Duration
}

// Publisher publishes messages of the generated type T on a topic.
type Publisher[T Message] struct{ t *pubTopic }

// Advertise registers the node as a publisher of topic (resolved as the
// node resolves names) with messages of type T. A node advertises a topic
// once; Close the publisher to unregister it.
func Advertise[T Message](n *Node, topic string, opts ...PublishOptions) (*Publisher[T], error) {
	t, err := n.advertise(topic, TypeOf[T](), opts)
	if err != nil {
		return nil, err
	}
	return &Publisher[T]{t}, nil
}

// Publish sends m to every subscriber: its ROS1 serialization is written
// straight from m's payload into a reused frame, shared by the queues of
// all subscribers. With no subscriber (and no latching) it serializes
// nothing. It never blocks on a subscriber; in steady state it allocates
// nothing.
func (p *Publisher[T]) Publish(m T) error {
	t := p.t
	f, err := t.frame()
	if f == nil {
		return err
	}
	b, err := m.AppendROS(f.b[:4])
	return t.send(f, b, err)
}

// Topic returns the resolved topic name.
func (p *Publisher[T]) Topic() string { return p.t.topic }

// NumSubscribers returns how many subscribers are connected.
func (p *Publisher[T]) NumSubscribers() int { return p.t.numSubscribers() }

// Stats returns the publication's counters.
func (p *Publisher[T]) Stats() PublisherStats { return p.t.stats() }

// Close unregisters the publication and closes its connections.
func (p *Publisher[T]) Close() error { return p.t.n.unadvertise(p.t) }

// RawPublisher publishes messages already serialized in ROS1, of a type
// named at run time (for bridges and players).
type RawPublisher struct{ t *pubTopic }

// AdvertiseRaw is Advertise for ROS1 bytes of type typ.
func (n *Node) AdvertiseRaw(topic string, typ Type, opts ...PublishOptions) (*RawPublisher, error) {
	if err := typ.check(true); err != nil {
		return nil, err
	}
	t, err := n.advertise(topic, typ, opts)
	if err != nil {
		return nil, err
	}
	return &RawPublisher{t}, nil
}

// Publish sends msg, one ROS1 serialization of the publisher's type, to
// every subscriber; msg is copied, and may be reused when Publish returns.
func (p *RawPublisher) Publish(msg []byte) error {
	t := p.t
	f, err := t.frame()
	if f == nil {
		return err
	}
	return t.send(f, append(f.b[:4], msg...), nil)
}

// Topic returns the resolved topic name.
func (p *RawPublisher) Topic() string { return p.t.topic }

// NumSubscribers returns how many subscribers are connected.
func (p *RawPublisher) NumSubscribers() int { return p.t.numSubscribers() }

// Stats returns the publication's counters.
func (p *RawPublisher) Stats() PublisherStats { return p.t.stats() }

// Close unregisters the publication and closes its connections.
func (p *RawPublisher) Close() error { return p.t.n.unadvertise(p.t) }

// PublisherStats count a publication's traffic.
type PublisherStats struct {
	Published   uint64 // messages given to Publish
	Sent        uint64 // messages written to subscribers (one per subscriber)
	Dropped     uint64 // messages dropped from full subscriber queues
	BytesSent   uint64 // bytes written to subscribers, frames included
	Subscribers int    // subscribers connected now
}

// pubTopic is a publication: its subscribers' connections, their queues,
// and the frames the queues share.
type pubTopic struct {
	n            *Node
	topic        string
	typ          Type
	latch        bool
	queue        int
	writeTimeout time.Duration
	header       []byte // the connection header sent to every subscriber

	mu     sync.Mutex
	conns  []*subConn
	free   []*frame // frames no queue holds, for reuse
	last   *frame   // the latched message
	closed bool
	stat   PublisherStats
	gone   PublisherStats // counters of connections closed
}

// frame is one serialized message with its TCPROS length prefix, shared
// by the queues that hold it; refs counts them (and the publisher while it
// fills the frame). Guarded by pubTopic.mu.
type frame struct {
	b    []byte
	refs int
}

func (n *Node) advertise(topic string, typ Type, opts []PublishOptions) (*pubTopic, error) {
	var o PublishOptions
	if len(opts) > 0 {
		o = opts[0]
	}
	name, err := n.Resolve(topic)
	if err != nil {
		return nil, err
	}
	t := &pubTopic{n: n, topic: name, typ: typ, latch: o.Latch, queue: o.Queue, writeTimeout: o.WriteTimeout}
	if t.queue <= 0 {
		t.queue = 16
	}
	if t.writeTimeout <= 0 {
		t.writeTimeout = 10 * time.Second
	}
	latching := "0"
	if t.latch {
		latching = "1"
	}
	t.header = n.connHeader(name, typ, "latching", latching)
	if err := claim(n, pubsOf, name, t, "advertised"); err != nil {
		return nil, err
	}
	if _, err := n.master.RegisterPublisher(name, typ.Name, n.uri); err != nil {
		drop(n, pubsOf, name, t)
		return nil, fmt.Errorf("node: registerPublisher %s with %s: %w", name, n.cfg.masterURI, err)
	}
	return t, nil
}

func (n *Node) unadvertise(t *pubTopic) error {
	if !drop(n, pubsOf, t.topic, t) {
		return nil // closed already, with the node or before
	}
	return t.close(true)
}

// close closes the publication's connections and, if unregister, tells
// the master.
func (t *pubTopic) close(unregister bool) error {
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return nil
	}
	t.closed = true
	conns := t.conns
	t.conns = nil
	t.mu.Unlock()
	for _, c := range conns {
		c.close()
	}
	if unregister {
		if err := t.n.master.UnregisterPublisher(t.topic, t.n.uri); err != nil {
			return fmt.Errorf("node: unregisterPublisher %s: %w", t.topic, err)
		}
	}
	return nil
}

// frame returns a frame to serialize the next message into, or nil when
// there is nothing to send it to (and then the error for a closed topic).
func (t *pubTopic) frame() (*frame, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return nil, ErrClosed
	}
	t.stat.Published++
	if len(t.conns) == 0 && !t.latch {
		return nil, nil
	}
	var f *frame
	if k := len(t.free); k > 0 {
		f, t.free = t.free[k-1], t.free[:k-1]
	} else {
		f = &frame{b: make([]byte, 4, 512)}
	}
	f.refs = 1
	return f, nil
}

// send completes frame f holding the serialization b (after the 4-byte
// length prefix, the frame's buffer grown as needed) and queues it for
// every subscriber.
func (t *pubTopic) send(f *frame, b []byte, err error) error {
	if err == nil && uint64(len(b)-4) > math.MaxUint32 {
		err = fmt.Errorf("%d bytes do not fit a TCPROS frame", len(b)-4)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if err != nil {
		t.release(f)
		return fmt.Errorf("node: publish on %s: %w", t.topic, err)
	}
	binary.LittleEndian.PutUint32(b, uint32(len(b)-4))
	f.b = b
	for _, c := range t.conns {
		t.push(c, f)
	}
	if t.latch {
		if t.last != nil {
			t.release(t.last)
		}
		f.refs++
		t.last = f
	}
	t.release(f)
	return nil
}

// push queues f for c, dropping c's oldest message when its queue is full.
// Called with t.mu held.
func (t *pubTopic) push(c *subConn, f *frame) {
	if c.n == len(c.ring) {
		t.release(c.ring[c.head])
		c.ring[c.head] = nil
		c.head = (c.head + 1) % len(c.ring)
		c.n--
		c.stat.Dropped++
	}
	c.ring[(c.head+c.n)%len(c.ring)] = f
	c.n++
	f.refs++
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// release drops one reference to f, keeping it for reuse when none is
// left. Called with t.mu held.
func (t *pubTopic) release(f *frame) {
	if f.refs--; f.refs > 0 {
		return
	}
	// At most queue+2 frames are alive in steady state (a full queue, one
	// being written, one being filled): keep as many.
	if len(t.free) < t.queue+2 {
		t.free = append(t.free, f)
	}
}

func (t *pubTopic) numSubscribers() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.conns)
}

func (t *pubTopic) stats() PublisherStats {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.stat
	s.Sent += t.gone.Sent
	s.Dropped += t.gone.Dropped
	s.BytesSent += t.gone.BytesSent
	for _, c := range t.conns {
		s.Sent += c.stat.Sent
		s.Dropped += c.stat.Dropped
		s.BytesSent += c.stat.BytesSent
	}
	s.Subscribers = len(t.conns)
	return s
}

func (t *pubTopic) busInfo() []any {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := []any{}
	for _, c := range t.conns {
		out = append(out, []any{c.id, c.callerID, "o", "TCPROS", t.topic, true, "TCPROS connection on port " + strconv.Itoa(t.n.tcpURI.port) + " to [" + c.remote + "]"})
	}
	return out
}

func (t *pubTopic) busStats() []any {
	t.mu.Lock()
	defer t.mu.Unlock()
	conns := []any{}
	total := t.gone.BytesSent
	for _, c := range t.conns {
		conns = append(conns, []any{c.id, int64(c.stat.BytesSent), int64(c.stat.Sent), true})
		total += c.stat.BytesSent
	}
	return []any{t.topic, int64(total), conns}
}

// subConn is one subscriber's connection to a publication: its queue and
// the goroutine that writes it.
type subConn struct {
	t        *pubTopic
	c        net.Conn
	id       int
	callerID string
	remote   string

	// Guarded by t.mu.
	ring    []*frame
	head, n int
	stat    PublisherStats
	closed  bool

	wake chan struct{}
	done chan struct{}
	once sync.Once
}

// addSubscriber takes a connection whose subscriber header was accepted:
// it answers with the publisher's header and starts writing the queue.
func (t *pubTopic) addSubscriber(c net.Conn, h map[string]string) error {
	sc := &subConn{
		t: t, c: c, id: int(t.n.connID.Add(1)), callerID: h["callerid"], remote: c.RemoteAddr().String(),
		ring: make([]*frame, t.queue), wake: make(chan struct{}, 1), done: make(chan struct{}),
	}
	if tc, ok := c.(*net.TCPConn); ok {
		// tcp_nodelay=1 asks for no Nagle; rospy's default without the
		// field is Nagle on. Batching happens in the writer either way.
		tc.SetNoDelay(h["tcp_nodelay"] == "1")
	}
	c.SetWriteDeadline(time.Now().Add(handshakeTimeout))
	if _, err := c.Write(t.header); err != nil {
		return err
	}
	c.SetDeadline(time.Time{})
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return ErrClosed
	}
	t.conns = append(t.conns, sc)
	if t.last != nil {
		t.push(sc, t.last)
	}
	t.mu.Unlock()
	t.n.logf("node %s: %s subscribed to %s from %s", t.n.cfg.name, sc.callerID, t.topic, sc.remote)
	go sc.write()
	go sc.watch()
	return nil
}

// write sends the queued frames until the connection fails or closes;
// frames queued together leave in one write.
func (sc *subConn) write() {
	t := sc.t
	w := bufio.NewWriterSize(sc.c, 64<<10)
	defer sc.close()
	for {
		select {
		case <-sc.done:
			return
		case <-sc.wake:
		}
		for {
			t.mu.Lock()
			var f *frame
			if sc.n > 0 {
				f = sc.ring[sc.head]
				sc.ring[sc.head] = nil
				sc.head = (sc.head + 1) % len(sc.ring)
				sc.n--
			}
			t.mu.Unlock()
			if f == nil {
				break
			}
			sc.c.SetWriteDeadline(time.Now().Add(t.writeTimeout))
			_, err := w.Write(f.b)
			t.mu.Lock()
			if err == nil {
				sc.stat.Sent++
				sc.stat.BytesSent += uint64(len(f.b))
			}
			t.release(f)
			t.mu.Unlock()
			if err != nil {
				t.n.logf("node %s: closing subscriber %s of %s: %v", t.n.cfg.name, sc.callerID, t.topic, err)
				return
			}
		}
		sc.c.SetWriteDeadline(time.Now().Add(t.writeTimeout))
		if err := w.Flush(); err != nil {
			t.n.logf("node %s: closing subscriber %s of %s: %v", t.n.cfg.name, sc.callerID, t.topic, err)
			return
		}
	}
}

// watch reads the connection, where a subscriber sends nothing after its
// header, to notice at once when it goes away.
func (sc *subConn) watch() {
	var b [64]byte
	for {
		if _, err := sc.c.Read(b[:]); err != nil {
			sc.close()
			return
		}
	}
}

// close closes the connection and drops it from its publication, giving
// its queued frames back.
func (sc *subConn) close() {
	sc.once.Do(func() {
		close(sc.done)
		sc.c.Close()
		t := sc.t
		t.mu.Lock()
		defer t.mu.Unlock()
		for i, c := range t.conns {
			if c == sc {
				t.conns = append(t.conns[:i], t.conns[i+1:]...)
				break
			}
		}
		for ; sc.n > 0; sc.n-- {
			t.release(sc.ring[sc.head])
			sc.ring[sc.head] = nil
			sc.head = (sc.head + 1) % len(sc.ring)
		}
		t.gone.Sent += sc.stat.Sent
		t.gone.Dropped += sc.stat.Dropped
		t.gone.BytesSent += sc.stat.BytesSent
		sc.stat = PublisherStats{}
	})
}

// serveTCPROS accepts subscribers' TCPROS connections until the node
// closes.
func (n *Node) serveTCPROS() {
	defer n.wg.Done()
	for {
		c, err := n.tcp.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			n.logf("node %s: TCPROS accept: %v", n.cfg.name, err)
			time.Sleep(10 * time.Millisecond)
			continue
		}
		go n.handshake(c)
	}
}

// handshake reads a subscriber's connection header and either hands the
// connection to the publication or answers with the error header rospy
// sends for it, and closes it.
func (n *Node) handshake(c net.Conn) {
	c.SetDeadline(time.Now().Add(handshakeTimeout))
	h, err := tcpros.ReadHeader(c)
	if err != nil {
		n.logf("node %s: refusing TCPROS connection from %s: %v", n.cfg.name, c.RemoteAddr(), err)
		c.Write(tcpros.AppendHeader(nil, map[string]string{"error": err.Error()}))
		c.Close()
		return
	}
	t, msg := n.accept(h)
	if msg == "" {
		if err := t.addSubscriber(c, h); err != nil {
			c.Close()
		}
		return
	}
	n.logf("node %s: refusing TCPROS connection from %s: %s", n.cfg.name, c.RemoteAddr(), msg)
	c.Write(tcpros.AppendHeader(nil, map[string]string{"error": msg}))
	c.Close()
}

// accept checks a subscriber's header as rospy's publisher does, and
// returns the publication or the error message for the header.
func (n *Node) accept(h map[string]string) (*pubTopic, string) {
	if !n.running() {
		return nil, "node shutting down"
	}
	if _, ok := h["topic"]; !ok {
		if _, ok := h["service"]; ok {
			return nil, "services are not served by this node"
		}
		return nil, "no topic or service name detected"
	}
	for _, f := range []string{"topic", "md5sum", "callerid"} {
		if _, ok := h[f]; !ok {
			return nil, fmt.Sprintf("Missing required '%s' field", f)
		}
	}
	topic, md5 := h["topic"], h["md5sum"]
	n.mu.Lock()
	t := n.pubs[topic]
	var names []string
	if t == nil {
		for name := range n.pubs {
			names = append(names, name)
		}
	}
	n.mu.Unlock()
	if t == nil {
		return nil, fmt.Sprintf("[%s] is not a publisher of [%s]. Topics are %v", n.cfg.name, topic, names)
	}
	if md5 != "*" && md5 != t.typ.MD5 {
		if req, ok := h["type"]; ok && req != t.typ.Name && req != "*" {
			return nil, fmt.Sprintf("topic types do not match: [%s] vs. [%s]", req, t.typ.Name)
		}
		req := h["type"]
		if req == "" || req == "*" {
			req = t.typ.Name
		}
		return nil, fmt.Sprintf("Client [%s] wants topic [%s] to have datatype/md5sum [%s/%s], but our version has [%s/%s] Dropping connection.",
			h["callerid"], topic, req, md5, t.typ.Name, t.typ.MD5)
	}
	return t, ""
}
