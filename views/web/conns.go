package web

import (
	"io"
	"net"
	"net/http"
	"sync"
	"time"
)

// connLimiter is the listener of ServeLimits: it applies MaxConns,
// MaxConnsPerClient and BusyIdleTimeout. The server tells it which
// connections are idle (track, its ConnState hook).
type connLimiter struct {
	net.Listener
	lim Limits

	mu       sync.Mutex
	conns    map[*limitedConn]struct{}
	byClient map[string]int
	refused  []*limitedConn // closing after a refused request, oldest first (refuse)
}

func newConnLimiter(ln net.Listener, lim Limits) *connLimiter {
	return &connLimiter{Listener: ln, lim: lim, conns: map[*limitedConn]struct{}{}, byClient: map[string]int{}}
}

// refuse moves c, whose request was refused and which closes once its
// answer is sent, from the counted connections to the refused ones, and
// closes the oldest refused connection when there are more than
// MaxRefused.
func (l *connLimiter) refuse(c *limitedConn) {
	if l.lim.MaxRefused <= 0 {
		return
	}
	l.mu.Lock()
	if !c.counted {
		l.mu.Unlock()
		return
	}
	l.uncount(c)
	l.refused = append(l.refused, c)
	var over *limitedConn
	if len(l.refused) > l.lim.MaxRefused {
		over, l.refused = l.refused[0], l.refused[1:]
	}
	l.mu.Unlock()
	if over != nil {
		_ = over.Conn.Close()
	}
}

// forget drops c from the refused connections (l.mu held).
func (l *connLimiter) forget(c *limitedConn) {
	for i, r := range l.refused {
		if r == c {
			l.refused = append(l.refused[:i], l.refused[i+1:]...)
			return
		}
	}
}

// limitedConn is a connection the limiter counts until it is closed.
type limitedConn struct {
	net.Conn
	l      *connLimiter
	client string
	// idleSince is when the connection last became idle (accepted, or
	// done with a request); zero while a request is served. Guarded by
	// l.mu, like counted.
	idleSince time.Time
	counted   bool
}

// busyAnswer is written to a connection over the cap.
const busyAnswer = "HTTP/1.1 503 Service Unavailable\r\n" +
	"Content-Type: text/plain; charset=utf-8\r\nRetry-After: 1\r\nConnection: close\r\nContent-Length: 47\r\n\r\n" +
	"503 too many connections to clumsies; retry.\r\n\r\n"

// Accept implements net.Listener.
func (l *connLimiter) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		lc := &limitedConn{Conn: c, l: l, client: hostOf(c.RemoteAddr().String())}
		admitted, evict := l.admit(lc, time.Now())
		for _, v := range evict {
			_ = v.Conn.Close()
		}
		if admitted {
			return lc, nil
		}
		go refuse(c)
	}
}

// admit counts c unless there is no room for it; evict are the idle
// connections to close to make room, no longer counted.
func (l *connLimiter) admit(c *limitedConn, now time.Time) (admitted bool, evict []*limitedConn) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if per := l.lim.MaxConnsPerClient; per > 0 && l.byClient[c.client] >= per {
		v := l.oldestIdle(c.client)
		if v == nil {
			return false, nil
		}
		evict = append(evict, l.uncount(v))
	}
	if max := l.lim.MaxConns; max > 0 && len(l.conns) >= max {
		v := l.oldestIdle("")
		if v == nil {
			return false, evict
		}
		evict = append(evict, l.uncount(v))
	}
	if max := l.lim.MaxConns; max > 0 && l.lim.BusyIdleTimeout > 0 && len(l.conns) >= max-max/4 {
		for v := range l.conns {
			if !v.idleSince.IsZero() && now.Sub(v.idleSince) >= l.lim.BusyIdleTimeout {
				evict = append(evict, l.uncount(v))
			}
		}
	}
	c.idleSince, c.counted = now, true
	l.conns[c] = struct{}{}
	l.byClient[c.client]++
	return true, evict
}

// oldestIdle returns the connection idle the longest, of client when not
// "", or nil.
func (l *connLimiter) oldestIdle(client string) *limitedConn {
	var oldest *limitedConn
	for c := range l.conns {
		if c.idleSince.IsZero() || client != "" && c.client != client {
			continue
		}
		if oldest == nil || c.idleSince.Before(oldest.idleSince) {
			oldest = c
		}
	}
	return oldest
}

// uncount stops counting c (l.mu held) and returns it.
func (l *connLimiter) uncount(c *limitedConn) *limitedConn {
	if c.counted {
		c.counted = false
		delete(l.conns, c)
		if l.byClient[c.client]--; l.byClient[c.client] <= 0 {
			delete(l.byClient, c.client)
		}
	}
	return c
}

// track is the server's ConnState hook: it notes when a connection is
// idle and when it serves a request.
func (l *connLimiter) track(nc net.Conn, state http.ConnState) {
	c, ok := nc.(*limitedConn)
	if !ok {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	switch state {
	case http.StateIdle:
		c.idleSince = time.Now()
	case http.StateActive, http.StateHijacked:
		c.idleSince = time.Time{}
	case http.StateClosed:
		l.uncount(c)
		l.forget(c)
	}
}

// Close implements net.Conn: the connection's slot is free at once.
func (c *limitedConn) Close() error {
	err := c.Conn.Close()
	c.l.mu.Lock()
	c.l.uncount(c)
	c.l.forget(c)
	c.l.mu.Unlock()
	return err
}

// refuse answers a connection over the cap and closes it, without waiting
// on a client that does not read.
func refuse(c net.Conn) {
	_ = c.SetWriteDeadline(time.Now().Add(time.Second))
	_, _ = io.WriteString(c, busyAnswer)
	_ = c.Close()
}
