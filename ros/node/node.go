package node

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bluenviron/goroslib/v2/pkg/apimaster"
	"github.com/bluenviron/goroslib/v2/pkg/apislave"

	"github.com/phaser-go/phaser/ros/node/internal/xmlrpc"
	"github.com/phaser-go/phaser/ros/tcpros"
)

// Options configure a node. Command-line remappings in Args override them,
// and they override the ROS_* environment variables, as rospy does.
type Options struct {
	// MasterURI is the ROS master's XML-RPC URI (__master:=,
	// ROS_MASTER_URI; default http://localhost:11311/).
	MasterURI string
	// Host is the name or address other nodes reach this one at
	// (__hostname:=, __ip:=, ROS_HOSTNAME, ROS_IP; default the host name).
	// A loopback host makes the node listen on loopback only.
	Host string
	// Namespace is the node's namespace (__ns:=, ROS_NAMESPACE; default /).
	Namespace string
	// Args are the command-line arguments read for remappings
	// ("from:=to", __name:=, __ns:=, __master:=, __hostname:=, __ip:=);
	// nil means os.Args[1:]. Other arguments are ignored.
	Args []string
	// Timeout bounds each XML-RPC call to the master or another node
	// (default 5s).
	Timeout time.Duration
	// MasterCheck is how often the node asks the master whether it still
	// knows the node, and registers everything again with a master that
	// restarted (default 1s; negative: never).
	MasterCheck time.Duration
	// Logf, if set, receives the node's diagnostics: connections made and
	// lost, refused peers, a master that restarted.
	Logf func(format string, args ...any)
}

// Errors a node reports.
var (
	// ErrClosed is returned for operations on a closed node, publisher or
	// subscriber.
	ErrClosed = errors.New("node: closed")
	// ErrShutdown is what Err wraps after another node (rosnode kill, a
	// master that saw a second node of the same name) shut this one down.
	ErrShutdown = errors.New("node: shut down by request")
)

// Limits of what a node accepts from peers.
const (
	// MaxXMLRPC bounds an XML-RPC request or response body.
	MaxXMLRPC = 1 << 20
	// DefaultMaxMessage bounds a received message unless SubscribeOptions
	// say otherwise.
	DefaultMaxMessage = 256 << 20
	// handshakeTimeout bounds a TCPROS connection's header exchange.
	handshakeTimeout = 5 * time.Second
)

// A Node is a ROS1 node: it registers its topics with the master, serves
// the slave API to other nodes, and serves and subscribes to topics over
// TCPROS. Its methods are safe for concurrent use.
type Node struct {
	cfg     config
	timeout time.Duration
	logf    func(format string, args ...any)

	httpc  *http.Client
	master *apimaster.Client
	xs     *xmlrpc.Server
	uri    string // this node's slave API URI
	tcp    net.Listener
	tcpURI struct {
		host string
		port int
	}

	mu     sync.Mutex
	pubs   map[string]*pubTopic
	subs   map[string]*subTopic
	closed bool
	err    error

	done     chan struct{} // closed once the node has shut down
	stop     chan struct{} // closed when shutdown starts
	stopOnce sync.Once
	wg       sync.WaitGroup // background goroutines
	connID   atomic.Int64   // ids of connections, for getBusInfo/getBusStats
}

// New starts a node called name (a base name; __name:= overrides it): it
// opens the slave API and TCPROS servers and checks that the master
// answers. Close the node to unregister it and release its ports.
func New(name string, opts ...Options) (*Node, error) {
	var o Options
	if len(opts) > 0 {
		o = opts[0]
	}
	args := o.Args
	if args == nil && len(os.Args) > 1 {
		args = os.Args[1:]
	}
	cfg, err := resolveConfig(name, o, args, os.Getenv)
	if err != nil {
		return nil, err
	}
	mu, err := url.Parse(cfg.masterURI)
	if err != nil || mu.Scheme != "http" || mu.Host == "" {
		return nil, fmt.Errorf("node: master URI %q is not http://host:port/", cfg.masterURI)
	}
	n := &Node{
		cfg:     cfg,
		timeout: o.Timeout,
		logf:    o.Logf,
		pubs:    map[string]*pubTopic{},
		subs:    map[string]*subTopic{},
		done:    make(chan struct{}),
		stop:    make(chan struct{}),
	}
	if n.timeout <= 0 {
		n.timeout = 5 * time.Second
	}
	if n.logf == nil {
		n.logf = func(string, ...any) {}
	}
	n.httpc = boundedClient(n.timeout)
	n.master = apimaster.NewClient(mu.Host, cfg.name, n.httpc)

	bind := bindHost(cfg.host)
	xln, err := net.Listen("tcp", net.JoinHostPort(bind, "0"))
	if err != nil {
		return nil, fmt.Errorf("node: slave API listener: %w", err)
	}
	n.tcp, err = net.Listen("tcp", net.JoinHostPort(bind, "0"))
	if err != nil {
		xln.Close()
		return nil, fmt.Errorf("node: TCPROS listener: %w", err)
	}
	n.uri = "http://" + net.JoinHostPort(cfg.host, strconv.Itoa(xln.Addr().(*net.TCPAddr).Port)) + "/"
	n.tcpURI.host = cfg.host
	n.tcpURI.port = n.tcp.Addr().(*net.TCPAddr).Port
	n.xs = xmlrpc.Serve(xln, n.slaveAPI, xmlrpc.ServerLimits{
		Limits:       xmlrpc.Limits{MaxBody: MaxXMLRPC},
		ReadTimeout:  n.timeout,
		WriteTimeout: n.timeout,
	})
	n.wg.Add(1)
	go n.serveTCPROS()

	if _, err := n.master.GetURI(); err != nil {
		n.Close()
		return nil, fmt.Errorf("node: master at %s: %w", cfg.masterURI, err)
	}
	if o.MasterCheck >= 0 {
		every := o.MasterCheck
		if every == 0 {
			every = time.Second
		}
		n.wg.Add(1)
		go n.watchMaster(every)
	}
	return n, nil
}

// Name returns the node's resolved name (its ROS caller id), such as
// "/bridge".
func (n *Node) Name() string { return n.cfg.name }

// URI returns the node's slave API URI, as the master lists it.
func (n *Node) URI() string { return n.uri }

// MasterURI returns the URI of the master the node registers with.
func (n *Node) MasterURI() string { return n.cfg.masterURI }

// Resolve returns the global name of a topic name as this node resolves
// it (namespace, ~private names, remappings).
func (n *Node) Resolve(name string) (string, error) {
	r, err := n.cfg.resolve(name)
	if err != nil {
		return "", fmt.Errorf("node: %w", err)
	}
	return r, nil
}

// Done returns a channel closed once the node has shut down, by Close or
// at another node's request.
func (n *Node) Done() <-chan struct{} { return n.done }

// Err returns nil while the node runs; after it shut down, ErrClosed for a
// Close, or an error wrapping ErrShutdown with the requester and reason.
func (n *Node) Err() error {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.err
}

// Close unregisters the node's publications and subscriptions from the
// master, closes its connections and servers, and waits for its
// goroutines. It is safe to call more than once.
func (n *Node) Close() error {
	n.shutdown(ErrClosed)
	<-n.done
	return nil
}

// shutdown closes the node once, recording why.
func (n *Node) shutdown(why error) {
	n.stopOnce.Do(func() {
		n.mu.Lock()
		n.closed = true
		n.err = why
		pubs, subs := n.pubs, n.subs
		n.pubs, n.subs = map[string]*pubTopic{}, map[string]*subTopic{}
		n.mu.Unlock()
		close(n.stop)
		var wg sync.WaitGroup
		for _, t := range pubs {
			wg.Go(func() { t.close(true) })
		}
		for _, t := range subs {
			wg.Go(func() { t.close(true) })
		}
		wg.Wait()
		if n.tcp != nil {
			n.tcp.Close()
		}
		if n.xs != nil {
			n.xs.Close()
		}
		n.wg.Wait()
		n.httpc.CloseIdleConnections()
		close(n.done)
	})
}

// connHeader is the TCPROS connection header the node sends for topic:
// its caller id, the topic, the type's identity and one more field
// (latching for a publisher, tcp_nodelay for a subscriber).
func (n *Node) connHeader(topic string, typ Type, key, value string) []byte {
	return tcpros.AppendHeader(nil, map[string]string{
		"callerid":           n.cfg.name,
		"topic":              topic,
		"type":               typ.Name,
		"md5sum":             typ.MD5,
		"message_definition": typ.Definition,
		key:                  value,
	})
}

// claim records t as the node's topic name in the map field selects
// (its publications or subscriptions), refusing a closed node and a name
// the map holds already.
func claim[T any](n *Node, field func(*Node) map[string]*T, name string, t *T, verb string) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	m := field(n)
	switch {
	case n.closed:
		return ErrClosed
	case m[name] != nil:
		return fmt.Errorf("node: %s is already %s by this node", name, verb)
	}
	m[name] = t
	return nil
}

// drop removes t from the map field selects and reports whether it was
// there (a topic closed with the node, or before, is not).
func drop[T any](n *Node, field func(*Node) map[string]*T, name string, t *T) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	m := field(n)
	if m[name] != t {
		return false
	}
	delete(m, name)
	return true
}

func pubsOf(n *Node) map[string]*pubTopic { return n.pubs }
func subsOf(n *Node) map[string]*subTopic { return n.subs }

// watchMaster asks the master every interval whether it knows this node;
// when it does not (a master restarted under the node) or answers again
// after it did not, it registers every publication and subscription again.
func (n *Node) watchMaster(every time.Duration) {
	defer n.wg.Done()
	t := time.NewTicker(every)
	defer t.Stop()
	lost := false
	for {
		select {
		case <-n.stop:
			return
		case <-t.C:
		}
		n.mu.Lock()
		registered := len(n.pubs) + len(n.subs)
		n.mu.Unlock()
		if registered == 0 {
			continue
		}
		uri, err := n.master.LookupNode(n.cfg.name)
		var ue *url.Error
		switch {
		case errors.As(err, &ue):
			if !lost {
				n.logf("node %s: master %s unreachable: %v", n.cfg.name, n.cfg.masterURI, err)
			}
			lost = true
			continue
		case err == nil && uri == n.uri && !lost:
			continue
		}
		n.logf("node %s: master %s does not know this node (%v): registering again", n.cfg.name, n.cfg.masterURI, err)
		if n.reregister() == nil {
			lost = false
		}
	}
}

// reregister registers every publication and subscription with the master.
func (n *Node) reregister() error {
	n.mu.Lock()
	var pubs []*pubTopic
	var subs []*subTopic
	for _, t := range n.pubs {
		pubs = append(pubs, t)
	}
	for _, t := range n.subs {
		subs = append(subs, t)
	}
	n.mu.Unlock()
	var errs []error
	for _, t := range pubs {
		if _, err := n.master.RegisterPublisher(t.topic, t.typ.Name, n.uri); err != nil {
			errs = append(errs, fmt.Errorf("registerPublisher %s: %w", t.topic, err))
		}
	}
	for _, t := range subs {
		uris, err := n.master.RegisterSubscriber(t.topic, t.typ.Name, n.uri)
		if err != nil {
			errs = append(errs, fmt.Errorf("registerSubscriber %s: %w", t.topic, err))
			continue
		}
		t.update(uris)
	}
	return errors.Join(errs...)
}

// slaveClient returns a client of another node's slave API.
func (n *Node) slaveClient(uri string) (*apislave.Client, error) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "http" || u.Host == "" {
		return nil, fmt.Errorf("node: %q is not an http://host:port/ URI", uri)
	}
	return apislave.NewClient(u.Host, n.cfg.name, n.httpc), nil
}

func (n *Node) running() bool {
	select {
	case <-n.stop:
		return false
	default:
		return true
	}
}

// boundedClient is the HTTP client of every XML-RPC call the node makes:
// each call bounded in time, response headers and body bounded in size,
// no redirects. goroslib's XML-RPC client decodes the responses; these
// bounds are what makes that safe against a hostile peer.
func boundedClient(timeout time.Duration) *http.Client {
	return &http.Client{
		Timeout: timeout,
		Transport: &boundedTransport{base: &http.Transport{
			Proxy:                  nil, // ROS peers are reached directly
			DialContext:            (&net.Dialer{Timeout: timeout}).DialContext,
			MaxResponseHeaderBytes: 16 << 10,
			ResponseHeaderTimeout:  timeout,
			DisableCompression:     true,
			MaxIdleConnsPerHost:    2,
			IdleConnTimeout:        30 * time.Second,
		}},
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return errors.New("node: XML-RPC peers do not redirect")
		},
	}
}

type boundedTransport struct{ base http.RoundTripper }

func (t *boundedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	res, err := t.base.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	res.Body = &cappedBody{rc: res.Body, left: MaxXMLRPC}
	return res, nil
}

func (t *boundedTransport) CloseIdleConnections() {
	if c, ok := t.base.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}

// cappedBody fails a read past its limit instead of truncating silently.
type cappedBody struct {
	rc   io.ReadCloser
	left int64
}

var errBodyTooLong = fmt.Errorf("node: XML-RPC response over %d bytes", MaxXMLRPC)

func (b *cappedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		var one [1]byte
		k, err := b.rc.Read(one[:])
		if k > 0 {
			return 0, errBodyTooLong
		}
		return 0, err
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	k, err := b.rc.Read(p)
	b.left -= int64(k)
	return k, err
}

func (b *cappedBody) Close() error { return b.rc.Close() }
