package web_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/clumsies/clumsies/views/web"
)

// serveLimits runs web.ServeLimits over the real handler until the test
// ends and returns its address.
func serveLimits(tb testing.TB, lim web.Limits) string {
	tb.Helper()
	b := newBackend(tb)
	ln := mustListen(tb, "127.0.0.1:0", "")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = web.ServeLimits(ctx, ln, web.Handler(b.options("")), lim)
	}()
	tb.Cleanup(func() {
		cancel()
		<-done
	})
	return ln.Addr().String()
}

func dial(tb testing.TB, addr string) net.Conn {
	tb.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { c.Close() })
	return c
}

// halfPost sends the headers of a POST /mcp and part of its body, and
// never the rest.
func halfPost(tb testing.TB, c net.Conn) {
	tb.Helper()
	_, err := io.WriteString(c, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n{\"jsonrpc\":")
	if err != nil {
		tb.Fatal(err)
	}
}

// TestServe_ConnectionCap: connections over MaxConns, when none is idle,
// are answered 503 at once instead of piling up; a freed slot serves again.
func TestServe_ConnectionCap(t *testing.T) {
	addr := serveLimits(t, web.Limits{MaxConns: 4, BodyTimeout: time.Hour, MaxBody: 1 << 20})
	held := make([]net.Conn, 4)
	for i := range held {
		held[i] = holdStream(t, addr, nil)
	}
	if code := healthz(t, addr, nil); code != http.StatusServiceUnavailable {
		t.Fatalf("a connection over the cap of 4, none idle: got %d, want 503", code)
	}
	held[0].Close()
	ok := false
	for deadline := time.Now().Add(wait); !ok && time.Now().Before(deadline); {
		resp, err := http.Get("http://" + addr + "/healthz")
		if err == nil {
			ok = resp.StatusCode == http.StatusOK
			resp.Body.Close()
		}
		if !ok {
			time.Sleep(10 * time.Millisecond)
		}
	}
	if !ok {
		t.Fatal("GET /healthz never succeeded after a held connection closed")
	}
}

// TestServe_BodyTimeout: a client that stops sending its body loses the
// connection instead of holding it for ever.
func TestServe_BodyTimeout(t *testing.T) {
	addr := serveLimits(t, web.Limits{MaxConns: 16, BodyTimeout: 50 * time.Millisecond, MaxBody: 1 << 20})
	c := dial(t, addr)
	halfPost(t, c)
	_ = c.SetReadDeadline(time.Now().Add(wait))
	got, err := io.ReadAll(c)
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatalf("the connection with a half-sent body was still open after %s", wait)
	}
	// Whatever the server managed to say, it is not a success.
	if strings.HasPrefix(string(got), "HTTP/1.1 200") {
		t.Fatalf("half-sent body: got %q, want the connection closed without a result", got)
	}
}

// TestServe_BodyTooLarge: a body over MaxBody is refused.
func TestServe_BodyTooLarge(t *testing.T) {
	addr := serveLimits(t, web.Limits{MaxConns: 16, BodyTimeout: time.Minute, MaxBody: 1 << 10})
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"pad":"` + strings.Repeat("x", 4<<10) + `"}}`
	req, err := http.NewRequest(http.MethodPost, "http://"+addr+"/mcp", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode < 400 || resp.StatusCode >= 500 {
		t.Fatalf("a %d-byte body with MaxBody 1 KiB: got %d, want a 4xx", len(body), resp.StatusCode)
	}
}
