package xmlrpc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"sync"
	"time"
)

// Handler answers one call: the value it returns is the response, an error
// becomes a fault. It runs on the connection's goroutine; calls on several
// connections run concurrently.
type Handler func(method string, params []any) (any, error)

// Fault is an error a Handler returns to choose the fault code.
type Fault struct {
	Code int
	Msg  string
}

func (f *Fault) Error() string { return fmt.Sprintf("xmlrpc fault %d: %s", f.Code, f.Msg) }

// Fault codes of the XML-RPC fault code interoperability conventions.
const (
	FaultParse          = -32700
	FaultMethodNotFound = -32601
	FaultInvalidParams  = -32602
	FaultInternal       = -32603
)

// ServerLimits bound the server: a peer can hold at most MaxConns
// connections, each for at most the time the timeouts allow.
type ServerLimits struct {
	Limits
	MaxConns          int           // concurrent connections (default 64)
	ReadHeaderTimeout time.Duration // default 5s
	ReadTimeout       time.Duration // a whole request (default 10s)
	WriteTimeout      time.Duration // default 10s
	IdleTimeout       time.Duration // between keep-alive requests (default 30s)
	MaxHeaderBytes    int           // default 16 KiB
}

func (l ServerLimits) withDefaults() ServerLimits {
	l.Limits = l.Limits.withDefaults()
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&l.ReadHeaderTimeout, 5*time.Second)
	def(&l.ReadTimeout, 10*time.Second)
	def(&l.WriteTimeout, 10*time.Second)
	def(&l.IdleTimeout, 30*time.Second)
	if l.MaxConns <= 0 {
		l.MaxConns = 64
	}
	if l.MaxHeaderBytes <= 0 {
		l.MaxHeaderBytes = 16 << 10
	}
	return l
}

// Server serves XML-RPC over HTTP POST on "/" and "/RPC2".
type Server struct {
	hs   *http.Server
	done chan struct{}
	err  error
}

// Serve serves h on ln until Close. It takes ownership of ln.
func Serve(ln net.Listener, h Handler, lim ServerLimits) *Server {
	lim = lim.withDefaults()
	s := &Server{done: make(chan struct{})}
	s.hs = &http.Server{
		Handler:           handler(h, lim.Limits),
		ReadHeaderTimeout: lim.ReadHeaderTimeout,
		ReadTimeout:       lim.ReadTimeout,
		WriteTimeout:      lim.WriteTimeout,
		IdleTimeout:       lim.IdleTimeout,
		MaxHeaderBytes:    lim.MaxHeaderBytes,
		ErrorLog:          log.New(io.Discard, "", 0), // a peer's bad requests are its problem, not the log's
	}
	s.hs.SetKeepAlivesEnabled(true)
	go func() {
		defer close(s.done)
		if err := s.hs.Serve(limitListener(ln, lim.MaxConns)); !errors.Is(err, http.ErrServerClosed) {
			s.err = err
		}
	}()
	return s
}

// Close stops the server, closing its listener and connections; it waits at
// most a second for calls in progress to finish.
func (s *Server) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if err := s.hs.Shutdown(ctx); err != nil {
		s.hs.Close()
	}
	<-s.done
	return s.err
}

func handler(h Handler, lim Limits) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" && r.URL.Path != "/RPC2" {
			http.NotFound(w, r)
			return
		}
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", http.MethodPost)
			http.Error(w, "XML-RPC takes POST", http.StatusMethodNotAllowed)
			return
		}
		body := http.MaxBytesReader(w, r.Body, lim.MaxBody)
		method, params, err := DecodeRequest(body, lim)
		var out []byte
		if err != nil {
			var tooBig *http.MaxBytesError
			var one [1]byte
			if _, rerr := body.Read(one[:]); errors.As(err, &tooBig) || errors.As(rerr, &tooBig) {
				http.Error(w, "request too large", http.StatusRequestEntityTooLarge)
				return
			}
			out = AppendFault(nil, FaultParse, err.Error())
		} else if v, herr := h(method, params); herr != nil {
			code := FaultInternal
			var f *Fault
			if errors.As(herr, &f) {
				code = f.Code
			}
			out = AppendFault(nil, code, herr.Error())
		} else if out, err = AppendResponse(nil, v); err != nil {
			out = AppendFault(nil, FaultInternal, err.Error())
		}
		w.Header().Set("Content-Type", "text/xml")
		w.Write(out)
	}
}

// limitListener accepts at most n connections at once; Accept waits while
// n are open.
func limitListener(ln net.Listener, n int) net.Listener {
	return &limited{Listener: ln, sem: make(chan struct{}, n), closed: make(chan struct{})}
}

type limited struct {
	net.Listener
	sem       chan struct{}
	closed    chan struct{}
	closeOnce sync.Once
}

func (l *limited) Accept() (net.Conn, error) {
	select {
	case l.sem <- struct{}{}:
	case <-l.closed:
		return nil, net.ErrClosed
	}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.sem
		return nil, err
	}
	return &limitedConn{Conn: c, release: func() { <-l.sem }}, nil
}

func (l *limited) Close() error {
	l.closeOnce.Do(func() { close(l.closed) })
	return l.Listener.Close()
}

type limitedConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *limitedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}
