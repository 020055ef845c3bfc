package web

import (
	"errors"
	"io"
	"net/http"
	"sync"
	"time"
)

// Limits bound what clients can hold of the server: connections, the time
// to send a request body, and its size.
type Limits struct {
	// MaxConns is the most connections served at once. When they are all
	// taken, a new connection closes the connection idle the longest (a
	// keep-alive connection between requests, or one that has sent
	// nothing yet); when none is idle, it gets "503 Service Unavailable"
	// with Retry-After and is closed, so that a flood of connections
	// exhausts neither file descriptors nor memory.
	MaxConns int
	// MaxConnsPerClient is the most connections one client address holds
	// at once; over it, the client's own oldest idle connection is closed,
	// or, with none idle, the new one gets 503. Zero: no cap but MaxConns.
	MaxConnsPerClient int
	// BusyIdleTimeout is how long a connection may stay idle while fewer
	// than a quarter of MaxConns are free; IdleTimeout applies otherwise.
	BusyIdleTimeout time.Duration
	// BodyTimeout bounds how long a client may take to send a request
	// body, counted from the end of its headers (ReadHeaderTimeout bounds
	// those). Past it the connection is closed. Streams (GET) have no body
	// and are not cut.
	BodyTimeout time.Duration
	// MaxBody is the largest request body, in bytes; a larger one gets 413.
	MaxBody int64
	// MaxRefused is the most connections kept, all clients together,
	// while they close after a refused request (no token, a wrong one, a
	// foreign Host): those stop counting against MaxConns and
	// MaxConnsPerClient, and over this cap the oldest is closed at once.
	// Zero: they count like the others until they close.
	MaxRefused int
}

// DefaultLimits are the limits Serve applies. MaxBody fits the largest
// MCP message the tools accept.
var DefaultLimits = Limits{
	MaxConns:          256,
	MaxConnsPerClient: 64,
	BusyIdleTimeout:   5 * time.Second,
	BodyTimeout:       30 * time.Second,
	MaxBody:           8 << 20,
	MaxRefused:        16,
}

// MaxHeaderBytes bounds the size of a request's headers.
const MaxHeaderBytes = 64 << 10

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
