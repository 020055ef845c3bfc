package web_test

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/clumsies/clumsies/views/web"
)

// dialFrom dials addr from the loopback address from (nil: any).
func dialFrom(tb testing.TB, addr string, from net.IP) net.Conn {
	tb.Helper()
	d := net.Dialer{Timeout: wait}
	if from != nil {
		d.LocalAddr = &net.TCPAddr{IP: from}
	}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { c.Close() })
	return c
}

// exchange sends a request on c and reads its answer's status and whether
// the server closes the connection after it.
func exchange(tb testing.TB, c net.Conn, r *bufio.Reader, request string) (int, bool) {
	tb.Helper()
	_ = c.SetDeadline(time.Now().Add(wait))
	defer c.SetDeadline(time.Time{})
	if _, err := io.WriteString(c, request); err != nil {
		tb.Fatal(err)
	}
	resp, err := http.ReadResponse(r, nil)
	if err != nil {
		tb.Fatalf("read the answer to %q: %v", strings.SplitN(request, "\r\n", 2)[0], err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode, resp.Close
}

// keepAlive opens a connection, has one request answered on it and
// leaves it idle, open for the next.
func keepAlive(tb testing.TB, addr string) (net.Conn, *bufio.Reader) {
	tb.Helper()
	c := dialFrom(tb, addr, nil)
	r := bufio.NewReader(c)
	if code, closed := exchange(tb, c, r, "GET /nothing HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"); code != http.StatusNotFound || closed {
		tb.Fatalf("GET /nothing: %d, closed %v; want 404 on a connection kept open", code, closed)
	}
	return c, r
}

// holdStream opens the live stream on a new connection from the loopback
// address from (nil: any) and returns it once it is served: the
// connection is busy for as long as the test holds it.
func holdStream(tb testing.TB, addr string, from net.IP) net.Conn {
	tb.Helper()
	c := dialFrom(tb, addr, from)
	_ = c.SetDeadline(time.Now().Add(wait))
	defer c.SetDeadline(time.Time{})
	if _, err := io.WriteString(c, "GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"); err != nil {
		tb.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil || resp.StatusCode != http.StatusOK {
		tb.Fatalf("GET /events: %v %v, want a stream", resp, err)
	}
	return c
}

// healthz asks GET /healthz on a new connection from the loopback
// address from (nil: any) and returns the status.
func healthz(tb testing.TB, addr string, from net.IP) int {
	tb.Helper()
	c := dialFrom(tb, addr, from)
	defer c.Close()
	code, _ := exchange(tb, c, bufio.NewReader(c), "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
	return code
}

// closedByServer reports whether the server closed c, waiting for it at
// most wait.
func closedByServer(c net.Conn, r *bufio.Reader) bool {
	_ = c.SetReadDeadline(time.Now().Add(wait))
	_, err := r.ReadByte()
	return err != nil && !errors.Is(err, os.ErrDeadlineExceeded)
}

// TestServe_IdleConnectionsMakeRoom: a client that holds every slot with
// idle keep-alive connections does not keep others out: a new connection
// closes one of them and is served; the others are still served. (Which
// one, the one idle the longest, is TestConnLimiter_OldestIdleFirst: the
// server marks a connection idle a little after its answer.)
func TestServe_IdleConnectionsMakeRoom(t *testing.T) {
	addr := serveLimits(t, web.Limits{MaxConns: 4, BodyTimeout: time.Minute, MaxBody: 1 << 20})
	conns := make([]net.Conn, 4)
	readers := make([]*bufio.Reader, 4)
	for i := range conns {
		conns[i], readers[i] = keepAlive(t, addr)
	}
	// The server marks a connection idle just after its answer: retry
	// while it has not yet.
	code := 0
	for deadline := time.Now().Add(wait); code != http.StatusOK && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		code = healthz(t, addr, nil)
	}
	if code != http.StatusOK {
		t.Fatalf("GET /healthz with every slot held by an idle connection: %d, want 200", code)
	}
	closed := 0
	for i, c := range conns {
		_ = c.SetDeadline(time.Now().Add(wait))
		_, err := io.WriteString(c, "GET /nothing HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
		var resp *http.Response
		if err == nil {
			resp, err = http.ReadResponse(readers[i], nil)
		}
		switch {
		case errors.Is(err, os.ErrDeadlineExceeded):
			t.Fatalf("connection %d: no answer and not closed: %v", i, err)
		case err != nil:
			closed++
		default:
			resp.Body.Close()
		}
	}
	if closed != 1 {
		t.Fatalf("%d of the 4 idle connections closed to make room for one, want 1", closed)
	}
}

// TestServe_BusyIdleTimeout: while fewer than a quarter of the slots are
// free, a connection idle for BusyIdleTimeout is closed when the next
// one comes.
func TestServe_BusyIdleTimeout(t *testing.T) {
	addr := serveLimits(t, web.Limits{MaxConns: 8, BusyIdleTimeout: 100 * time.Millisecond, BodyTimeout: time.Minute, MaxBody: 1 << 20})
	conns := make([]net.Conn, 6)
	readers := make([]*bufio.Reader, 6)
	for i := range conns {
		conns[i], readers[i] = keepAlive(t, addr)
	}
	time.Sleep(200 * time.Millisecond) // idle past BusyIdleTimeout
	if code := healthz(t, addr, nil); code != http.StatusOK {
		t.Fatalf("GET /healthz: %d, want 200", code)
	}
	for i := range conns {
		if !closedByServer(conns[i], readers[i]) {
			t.Fatalf("idle connection %d is still open with 6 of 8 slots taken", i)
		}
	}
}

// TestServe_ConnectionsPerClient: one client address cannot take every
// slot; another address is still served.
func TestServe_ConnectionsPerClient(t *testing.T) {
	addr := serveLimits(t, web.Limits{MaxConns: 64, MaxConnsPerClient: 2, BodyTimeout: time.Minute, MaxBody: 1 << 20})
	one, two := net.IPv4(127, 0, 0, 1), net.IPv4(127, 0, 0, 2)
	holdStream(t, addr, one)
	holdStream(t, addr, one)
	if code := healthz(t, addr, one); code != http.StatusServiceUnavailable {
		t.Fatalf("a third connection of 127.0.0.1, two busy: %d, want 503", code)
	}
	if code := healthz(t, addr, two); code != http.StatusOK {
		t.Fatalf("a connection of 127.0.0.2: %d, want 200", code)
	}
}

// TestHandler_CloseWithoutToken: /healthz and a refused request close
// their connection, so that they cannot be used to hold it idle; a
// request with the token keeps it.
func TestHandler_CloseWithoutToken(t *testing.T) {
	ts := newBackend(t).serve(t, token)
	addr := strings.TrimPrefix(ts.URL, "http://")
	for _, req := range []string{
		"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
		"GET /nothing HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
		"GET /nothing HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer wrong\r\n\r\n",
		"GET /nothing HTTP/1.1\r\nHost: evil.example\r\nAuthorization: Bearer " + token + "\r\n\r\n",
	} {
		c := dialFrom(t, addr, nil)
		if code, closed := exchange(t, c, bufio.NewReader(c), req); !closed {
			t.Errorf("%q: %d with the connection kept, want it closed", req, code)
		}
	}
	c := dialFrom(t, addr, nil)
	if code, closed := exchange(t, c, bufio.NewReader(c), "GET /nothing HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "+token+"\r\n\r\n"); code != http.StatusNotFound || closed {
		t.Errorf("GET /nothing with the token: %d, closed %v; want 404 on a connection kept open", code, closed)
	}
}

// TestServe_HundredsOfIdleConnections: with the default limits, a client
// that opens 300 connections, each answered once (/healthz, or a request
// kept alive), keeps nobody out.
func TestServe_HundredsOfIdleConnections(t *testing.T) {
	addr := serveLimits(t, web.DefaultLimits)
	for i := range 300 {
		c := dialFrom(t, addr, nil)
		req := "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
		if i%2 == 1 {
			req = "GET /nothing HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
		}
		if code, _ := exchange(t, c, bufio.NewReader(c), req); code == http.StatusServiceUnavailable {
			t.Fatalf("connection %d of 300: 503", i)
		}
	}
	code := 0
	for deadline := time.Now().Add(wait); code != http.StatusOK && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		code = healthz(t, addr, nil)
	}
	if code != http.StatusOK {
		t.Fatalf("GET /healthz after 300 connections held: %d, want 200", code)
	}
}
