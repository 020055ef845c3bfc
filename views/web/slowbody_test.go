package web_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/clumsies/clumsies/views/web"
)

// serveToken serves a backend with the default limits and the token on a
// loopback listener until the test ends, and returns its address.
func serveToken(tb testing.TB) string {
	tb.Helper()
	b := newBackend(tb)
	ln := mustListen(tb, "127.0.0.1:0", token)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = web.Serve(ctx, ln, web.Handler(b.options(token)))
	}()
	tb.Cleanup(func() {
		cancel()
		<-done
	})
	return ln.Addr().String()
}

// slowBody opens a connection that sends the headers of a tool call
// without a token and the first byte of its 1000-byte body, as a client
// that sends a byte every few seconds does, and returns it.
func slowBody(tb testing.TB, addr string) (net.Conn, *bufio.Reader) {
	tb.Helper()
	c := dialFrom(tb, addr, nil)
	if _, err := io.WriteString(c, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"); err != nil {
		tb.Fatal(err)
	}
	return c, bufio.NewReader(c)
}

// TestServe_SlowBodiesWithoutToken: 64 connections that send a request
// body a byte at a time, without a token, as many as one client may hold,
// keep no client with the token out: each gets 401 at once and is closed
// without the server waiting for its body, and a refused connection
// does not count against the client's connections.
func TestServe_SlowBodiesWithoutToken(t *testing.T) {
	addr := serveToken(t)
	for round := range 2 {
		conns := make([]net.Conn, 64)
		readers := make([]*bufio.Reader, 64)
		for i := range conns {
			conns[i], readers[i] = slowBody(t, addr)
		}
		// While they are open, clients with the token are served.
		for i := range 25 {
			c := dialFrom(t, addr, nil)
			req := fmt.Sprintf("GET /nothing-%d HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer %s\r\n\r\n", i, token)
			if code, _ := exchange(t, c, bufio.NewReader(c), req); code != http.StatusNotFound {
				t.Fatalf("round %d, probe %d of 25 with the token: %d, want 404 (served)", round, i, code)
			}
			c.Close()
		}
		for i, c := range conns {
			_ = c.SetReadDeadline(time.Now().Add(wait))
			resp, err := http.ReadResponse(readers[i], nil)
			if err != nil || resp.StatusCode != http.StatusUnauthorized {
				t.Fatalf("round %d, slow body %d: %v %v, want 401", round, i, resp, err)
			}
			resp.Body.Close()
			if !closedByServer(c, readers[i]) {
				t.Fatalf("round %d, slow body %d: still open %s after its 401, want it closed without waiting for the body", round, i, wait)
			}
		}
	}
}

// TestHandler_HealthzTakesNoBody: /healthz refuses a body and does not
// wait for one.
func TestHandler_HealthzTakesNoBody(t *testing.T) {
	addr := serveToken(t)
	c := dialFrom(t, addr, nil)
	if _, err := io.WriteString(c, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\nx"); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(c)
	_ = c.SetReadDeadline(time.Now().Add(wait))
	resp, err := http.ReadResponse(r, nil)
	if err != nil || resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("GET /healthz with a body: %v %v, want 400", resp, err)
	}
	resp.Body.Close()
	if !closedByServer(c, r) {
		t.Fatalf("GET /healthz with a body: still open after its answer, want it closed")
	}
	if code := healthz(t, addr, nil); code != http.StatusOK {
		t.Fatalf("GET /healthz: %d, want 200", code)
	}
}
