package web

import (
	"errors"
	"io"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// Limits bound what clients can hold of the server: connections, the time
// to send a request body, and its size.
type Limits struct {
	// MaxConns is the most connections served at once. A connection over
	// it gets "503 Service Unavailable" with Retry-After and is closed, so
	// that a flood of connections exhausts neither file descriptors nor
	// memory.
	MaxConns int
	// BodyTimeout bounds how long a client may take to send a request
	// body, counted from the end of its headers (ReadHeaderTimeout bounds
	// those). Past it the connection is closed. Streams (GET) have no body
	// and are not cut.
	BodyTimeout time.Duration
	// MaxBody is the largest request body, in bytes; a larger one gets 413.
	MaxBody int64
}

// DefaultLimits are the limits Serve applies. MaxBody fits the largest
// MCP message the tools accept.
var DefaultLimits = Limits{
	MaxConns:    256,
	BodyTimeout: 30 * time.Second,
	MaxBody:     8 << 20,
}

// MaxHeaderBytes bounds the size of a request's headers.
const MaxHeaderBytes = 64 << 10

// limitListener hands out at most max connections at once and answers the
// others with 503 at once.
type limitListener struct {
	net.Listener
	slots chan struct{}
	busy  atomic.Int64 // connections refused, for the log
}

func newLimitListener(ln net.Listener, max int) *limitListener {
	return &limitListener{Listener: ln, slots: make(chan struct{}, max)}
}

// busyAnswer is written to a connection over the cap.
const busyAnswer = "HTTP/1.1 503 Service Unavailable\r\n" +
	"Content-Type: text/plain; charset=utf-8\r\nRetry-After: 1\r\nConnection: close\r\nContent-Length: 47\r\n\r\n" +
	"503 too many connections to clumsies; retry.\r\n\r\n"

// Accept implements net.Listener.
func (l *limitListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		select {
		case l.slots <- struct{}{}:
			return &slotConn{Conn: c, release: func() { <-l.slots }}, nil
		default:
			l.busy.Add(1)
			go refuse(c)
		}
	}
}

// refuse answers a connection over the cap and closes it, without waiting
// on a client that does not read.
func refuse(c net.Conn) {
	_ = c.SetWriteDeadline(time.Now().Add(time.Second))
	_, _ = io.WriteString(c, busyAnswer)
	_ = c.Close()
}

// slotConn gives its slot back when closed.
type slotConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *slotConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}

// limitBodies applies BodyTimeout and MaxBody to requests with a body.
func limitBodies(lim Limits, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body == nil || r.Body == http.NoBody {
			h.ServeHTTP(w, r)
			return
		}
		if lim.MaxBody > 0 {
			r.Body = http.MaxBytesReader(w, r.Body, lim.MaxBody)
		}
		if lim.BodyTimeout > 0 {
			rc := http.NewResponseController(w)
			if rc.SetReadDeadline(time.Now().Add(lim.BodyTimeout)) == nil {
				// Once the body is read the deadline goes: a long tool call
				// must not be cut by it.
				r.Body = &deadlineBody{ReadCloser: r.Body, clear: func() { _ = rc.SetReadDeadline(time.Time{}) }}
			}
		}
		h.ServeHTTP(w, r)
	})
}

// deadlineBody clears the read deadline when the body ends or is closed.
type deadlineBody struct {
	io.ReadCloser
	once  sync.Once
	clear func()
}

func (b *deadlineBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if errors.Is(err, io.EOF) {
		b.once.Do(b.clear)
	}
	return n, err
}

func (b *deadlineBody) Close() error {
	b.once.Do(b.clear)
	return b.ReadCloser.Close()
}
