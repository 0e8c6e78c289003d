package node

import (
	"bufio"
	"errors"
	"fmt"
	"maps"
	"net"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/phaser-go/phaser/ros/tcpros"
)

// SubscribeOptions configure a subscription. The zero value asks
// publishers for TCP_NODELAY and accepts messages up to DefaultMaxMessage.
type SubscribeOptions struct {
	// MaxMessage bounds a received message in bytes (default
	// DefaultMaxMessage); a publisher that sends a larger one is
	// disconnected.
	MaxMessage int
	// Nagle asks publishers to batch small messages (tcp_nodelay=0, rospy's
	// default) instead of sending each at once.
	Nagle bool
}

// Subscriber is a subscription to a topic.
type Subscriber struct{ t *subTopic }

// Subscribe registers the node as a subscriber of topic with messages of
// type T, and calls cb with each message that arrives, decoded into into,
// which the subscription reuses for every message: in steady state a
// message costs no allocation. into is valid in cb until it returns; cb
// runs for one message at a time, on the goroutine of the publisher's
// connection, so a slow cb slows that publisher's stream (its queue drops
// the oldest messages) and nothing else. A message that does not decode
// is counted in Stats().Errors and skipped.
//
// into is typically a new owned message (sensor_msgsphaser.NewImu()); a
// message in fixed memory works too, while each message fits.
func Subscribe[T Message](n *Node, topic string, into T, cb func(T), opts ...SubscribeOptions) (*Subscriber, error) {
	if cb == nil {
		return nil, errors.New("node: Subscribe needs a callback")
	}
	deliver := func(frame []byte, pc *pubConn) error {
		into.Clear()
		if err := into.UnmarshalROS(frame); err != nil {
			return err
		}
		pc.received.Add(1) // before the callback, so that Stats in it counts this message
		cb(into)
		return nil
	}
	t, err := n.subscribe(topic, TypeOf[T](), deliver, opts)
	if err != nil {
		return nil, err
	}
	return &Subscriber{t}, nil
}

// RawMessage is a message as a raw subscription receives it: its ROS1
// bytes and the identity the publisher gave in its connection header.
type RawMessage struct {
	Data      []byte // the ROS1 serialization; valid until the callback returns
	Type      Type   // the publisher's type, md5sum and definition
	Publisher string // the publisher's caller id
	Latched   bool   // the publisher latches the topic
}

// SubscribeRaw subscribes to topic without decoding: cb gets each
// message's ROS1 bytes. typ may be Any (or have MD5 "*") to take whatever
// type publishers send, as rostopic echo does; otherwise publishers of
// another md5sum are refused.
func (n *Node) SubscribeRaw(topic string, typ Type, cb func(RawMessage), opts ...SubscribeOptions) (*Subscriber, error) {
	if cb == nil {
		return nil, errors.New("node: SubscribeRaw needs a callback")
	}
	if err := typ.check(false); err != nil {
		return nil, err
	}
	deliver := func(frame []byte, pc *pubConn) error {
		pc.received.Add(1)
		cb(RawMessage{Data: frame, Type: pc.typ, Publisher: pc.callerID, Latched: pc.latched})
		return nil
	}
	t, err := n.subscribe(topic, typ, deliver, opts)
	if err != nil {
		return nil, err
	}
	return &Subscriber{t}, nil
}

// Topic returns the resolved topic name.
func (s *Subscriber) Topic() string { return s.t.topic }

// NumPublishers returns how many publishers are connected now.
func (s *Subscriber) NumPublishers() int { return s.t.numPublishers() }

// Stats returns the subscription's counters.
func (s *Subscriber) Stats() SubscriberStats { return s.t.stats() }

// Close unregisters the subscription and closes its connections. No
// callback starts after Close returns (one running may still finish);
// Close may be called from the callback.
func (s *Subscriber) Close() error { return s.t.n.unsubscribe(s.t) }

// SubscriberStats count a subscription's traffic.
type SubscriberStats struct {
	Received   uint64 // messages delivered to the callback
	Errors     uint64 // messages that did not decode
	Bytes      uint64 // bytes received, frames included
	Publishers int    // publishers connected now
}

// subTopic is a subscription: one connection per publisher the master
// lists, each with a goroutine reading it.
type subTopic struct {
	n       *Node
	topic   string
	typ     Type
	maxMsg  int
	header  []byte // the connection header sent to every publisher
	deliver func(frame []byte, pc *pubConn) error

	dmu    sync.Mutex // one delivery at a time
	closed atomic.Bool

	mu    sync.Mutex
	conns map[string]*pubConn // by publisher URI
	stat  SubscriberStats     // of connections closed
}

func (n *Node) subscribe(topic string, typ Type, deliver func([]byte, *pubConn) error, opts []SubscribeOptions) (*subTopic, error) {
	var o SubscribeOptions
	if len(opts) > 0 {
		o = opts[0]
	}
	name, err := n.Resolve(topic)
	if err != nil {
		return nil, err
	}
	t := &subTopic{n: n, topic: name, typ: typ, maxMsg: o.MaxMessage, deliver: deliver, conns: map[string]*pubConn{}}
	if t.maxMsg <= 0 {
		t.maxMsg = DefaultMaxMessage
	}
	nodelay := "1"
	if o.Nagle {
		nodelay = "0"
	}
	t.header = n.connHeader(name, typ, "tcp_nodelay", nodelay)
	if err := claim(n, subsOf, name, t, "subscribed"); err != nil {
		return nil, err
	}
	uris, err := n.master.RegisterSubscriber(name, typ.Name, n.uri)
	if err != nil {
		drop(n, subsOf, name, t)
		return nil, fmt.Errorf("node: registerSubscriber %s with %s: %w", name, n.cfg.masterURI, err)
	}
	t.update(uris)
	return t, nil
}

func (n *Node) unsubscribe(t *subTopic) error {
	if !drop(n, subsOf, t.topic, t) {
		return nil // closed already, with the node or before
	}
	return t.close(true)
}

func (t *subTopic) close(unregister bool) error {
	if t.closed.Swap(true) {
		return nil
	}
	t.mu.Lock()
	conns := t.conns
	t.conns = map[string]*pubConn{}
	t.mu.Unlock()
	for _, pc := range conns {
		pc.stop()
	}
	if unregister {
		if err := t.n.master.UnregisterSubscriber(t.topic, t.n.uri); err != nil {
			return fmt.Errorf("node: unregisterSubscriber %s: %w", t.topic, err)
		}
	}
	return nil
}

// update makes the subscription's connections those to the publishers
// at uris: new ones are connected, ones no longer listed closed.
func (t *subTopic) update(uris []string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed.Load() {
		return
	}
	for uri, pc := range t.conns {
		if !slices.Contains(uris, uri) {
			delete(t.conns, uri)
			t.retire(pc)
			go pc.stop()
		}
	}
	for _, uri := range uris {
		if _, ok := t.conns[uri]; ok {
			continue
		}
		pc := &pubConn{t: t, uri: uri, id: int(t.n.connID.Add(1)), quit: make(chan struct{})}
		t.conns[uri] = pc
		go pc.run()
	}
}

// retire adds a closing connection's counters to the topic's. Called with
// t.mu held.
func (t *subTopic) retire(pc *pubConn) {
	t.stat.Received += pc.received.Load()
	t.stat.Errors += pc.errors.Load()
	t.stat.Bytes += pc.bytes.Load()
}

func (t *subTopic) numPublishers() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	k := 0
	for _, pc := range t.conns {
		if pc.connected.Load() {
			k++
		}
	}
	return k
}

func (t *subTopic) stats() SubscriberStats {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.stat
	for _, pc := range t.conns {
		s.Received += pc.received.Load()
		s.Errors += pc.errors.Load()
		s.Bytes += pc.bytes.Load()
		if pc.connected.Load() {
			s.Publishers++
		}
	}
	return s
}

func (t *subTopic) busInfo() []any {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := []any{}
	for _, uri := range slices.Sorted(maps.Keys(t.conns)) {
		pc := t.conns[uri]
		out = append(out, []any{pc.id, uri, "i", "TCPROS", t.topic, pc.connected.Load(), "TCPROS connection to [" + uri + "]"})
	}
	return out
}

func (t *subTopic) busStats() []any {
	t.mu.Lock()
	defer t.mu.Unlock()
	conns := []any{}
	for _, uri := range slices.Sorted(maps.Keys(t.conns)) {
		pc := t.conns[uri]
		conns = append(conns, []any{pc.id, int64(pc.bytes.Load()), -1, pc.connected.Load()})
	}
	return []any{t.topic, conns}
}

// pubConn is the subscription's connection to one publisher. run
// connects, reads and delivers until stop, connecting again (with
// back-off) after the connection is lost.
type pubConn struct {
	t   *subTopic
	uri string
	id  int

	// Set by the handshake, before delivery starts.
	typ      Type
	callerID string
	latched  bool

	received, errors, bytes atomic.Uint64
	connected               atomic.Bool

	mu   sync.Mutex
	c    net.Conn
	quit chan struct{}
	once sync.Once
}

func (pc *pubConn) stop() {
	pc.once.Do(func() {
		close(pc.quit)
		pc.mu.Lock()
		if pc.c != nil {
			pc.c.Close()
		}
		pc.mu.Unlock()
	})
}

func (pc *pubConn) stopped() bool {
	select {
	case <-pc.quit:
		return true
	default:
		return false
	}
}

// Back-off between attempts to reach a publisher (rospy doubles from 0.5s
// to 32s; a bridge wants its publisher back sooner).
const (
	minRetry = 250 * time.Millisecond
	maxRetry = 8 * time.Second
)

func (pc *pubConn) run() {
	t := pc.t
	n := t.n
	wait := minRetry
	var buf []byte
	for !pc.stopped() {
		c, r, err := pc.connect()
		if err == nil {
			wait = minRetry
			pc.connected.Store(true)
			n.logf("node %s: connected to %s for %s", n.cfg.name, pc.uri, t.topic)
			buf, err = pc.read(r, buf)
			pc.connected.Store(false)
			c.Close()
		}
		if pc.stopped() {
			return
		}
		n.logf("node %s: publisher %s of %s: %v (retrying in %v)", n.cfg.name, pc.uri, t.topic, err, wait)
		select {
		case <-pc.quit:
			return
		case <-time.After(wait):
		}
		wait = min(2*wait, maxRetry)
	}
}

// connect asks the publisher for the topic over its slave API, connects to
// the TCPROS address it names and exchanges connection headers.
func (pc *pubConn) connect() (net.Conn, *bufio.Reader, error) {
	t := pc.t
	n := t.n
	sc, err := n.slaveClient(pc.uri)
	if err != nil {
		return nil, nil, err
	}
	proto, err := sc.RequestTopic(t.topic, [][]any{{"TCPROS"}})
	if err != nil {
		return nil, nil, fmt.Errorf("requestTopic: %w", err)
	}
	addr, err := tcprosAddr(proto)
	if err != nil {
		return nil, nil, err
	}
	d := net.Dialer{Timeout: handshakeTimeout, KeepAlive: 15 * time.Second}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		return nil, nil, err
	}
	pc.mu.Lock()
	if pc.stopped() {
		pc.mu.Unlock()
		c.Close()
		return nil, nil, ErrClosed
	}
	pc.c = c
	pc.mu.Unlock()
	c.SetDeadline(time.Now().Add(handshakeTimeout))
	if _, err := c.Write(t.header); err != nil {
		c.Close()
		return nil, nil, err
	}
	r := bufio.NewReaderSize(c, 64<<10)
	h, err := tcpros.ReadHeader(r)
	if err != nil {
		c.Close()
		return nil, nil, err
	}
	if e, ok := h["error"]; ok {
		c.Close()
		return nil, nil, fmt.Errorf("publisher refused the connection: %s", e)
	}
	if t.typ.MD5 != "*" && h["md5sum"] != t.typ.MD5 {
		c.Close()
		return nil, nil, fmt.Errorf("publisher sends %s/%s, this subscription takes %s/%s", h["type"], h["md5sum"], t.typ.Name, t.typ.MD5)
	}
	c.SetDeadline(time.Time{})
	pc.typ = Type{Name: h["type"], MD5: h["md5sum"], Definition: h["message_definition"]}
	pc.callerID = h["callerid"]
	pc.latched = h["latching"] == "1"
	return c, r, nil
}

// tcprosAddr reads the publisher's protocol choice, ["TCPROS", host, port].
func tcprosAddr(p []any) (string, error) {
	if len(p) != 3 || p[0] != "TCPROS" {
		return "", fmt.Errorf("publisher chose protocol %v, want [TCPROS host port]", clipList(p))
	}
	host, ok := p[1].(string)
	port, ok2 := p[2].(int)
	if !ok || !ok2 || host == "" || port <= 0 || port > 65535 {
		return "", fmt.Errorf("publisher named TCPROS address %v", clipList(p))
	}
	return net.JoinHostPort(host, strconv.Itoa(port)), nil
}

func clipList(p []any) string {
	s := fmt.Sprint(p)
	if len(s) > 128 {
		s = s[:128] + "..."
	}
	return s
}

// read delivers frames until the connection fails; buf is the frame
// buffer, reused across messages and connections.
func (pc *pubConn) read(r *bufio.Reader, buf []byte) ([]byte, error) {
	t := pc.t
	for {
		frame, err := tcpros.ReadFrame(r, buf, t.maxMsg)
		if err != nil {
			return buf, err
		}
		buf = frame
		pc.bytes.Add(uint64(len(frame)) + 4)
		t.dmu.Lock()
		if t.closed.Load() || pc.stopped() {
			t.dmu.Unlock()
			return buf, ErrClosed
		}
		err = t.deliver(frame, pc)
		t.dmu.Unlock()
		if err != nil {
			if pc.errors.Add(1) == 1 {
				t.n.logf("node %s: message on %s from %s does not decode: %v", t.n.cfg.name, t.topic, pc.callerID, err)
			}
			continue
		}
	}
}
