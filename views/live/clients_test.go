package live_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/views/live"
)

// getFrom sends a GET from the loopback address local (127.0.0.x).
func getFrom(tb testing.TB, local, url string) *http.Response {
	tb.Helper()
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(local)}}
	client := &http.Client{Transport: &http.Transport{DialContext: d.DialContext}}
	ctx, cancel := context.WithCancel(context.Background())
	tb.Cleanup(cancel)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		tb.Fatal(err)
	}
	resp, err := client.Do(req)
	if err != nil {
		tb.Fatalf("GET %s from %s: %v", url, local, err)
	}
	tb.Cleanup(func() { resp.Body.Close() })
	return resp
}

func TestHandler_MaxPerClient(t *testing.T) {
	ts := newServer(t, events.NewMemoryLog(), live.Options{MaxClients: 8, MaxPerClient: 2})
	for range 2 {
		if resp := getFrom(t, "127.0.0.1", ts.URL); resp.StatusCode != http.StatusOK {
			t.Fatalf("stream from 127.0.0.1: got %d, want 200", resp.StatusCode)
		}
	}
	resp := getFrom(t, "127.0.0.1", ts.URL)
	body := readBody(t, resp)
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" ||
		!strings.Contains(body, "too many event streams open from 127.0.0.1 (at most 2)") {
		t.Fatalf("third stream from one client: got %d %q, want 503 with Retry-After naming the limit", resp.StatusCode, body)
	}
	// Another client still gets in.
	if resp := getFrom(t, "127.0.0.2", ts.URL); resp.StatusCode != http.StatusOK {
		t.Fatalf("stream from 127.0.0.2: got %d, want 200", resp.StatusCode)
	}
}

// TestHandler_StalledReader: a client that stops reading a long replay
// loses its stream once a write blocks past WriteTimeout, which frees its
// slot (and what it held).
func TestHandler_StalledReader(t *testing.T) {
	log := events.NewMemoryLog()
	for range 64 {
		ev, err := events.New("ws-live-test", events.TypeAgentReport, events.AgentReportData{Summary: strings.Repeat("x", 512<<10)})
		if err != nil {
			t.Fatal(err)
		}
		ev.SessionID, ev.Tool = "s", "agentreport"
		if _, err := log.Append(context.Background(), ev); err != nil {
			t.Fatal(err)
		}
	}
	ts := newServer(t, log, live.Options{MaxClients: 1, WriteTimeout: 100 * time.Millisecond})
	c, err := net.Dial("tcp", ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	// 32 MiB of events, and the client never reads a byte.
	if _, err := io.WriteString(c, "GET /?from=1 HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	status := func() int {
		resp := get(t, t.Context(), ts.URL, nil)
		defer resp.Body.Close()
		return resp.StatusCode
	}
	// First the stalled client holds the only slot...
	held := false
	for deadline := time.Now().Add(wait); !held && time.Now().Before(deadline); {
		held = status() == http.StatusServiceUnavailable
	}
	if !held {
		t.Fatal("the stalled client never held the slot")
	}
	// ...then it loses it.
	for deadline := time.Now().Add(wait); ; time.Sleep(20 * time.Millisecond) {
		got := status()
		if got == http.StatusOK {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("got status %d %s after a client stalled, want its slot back (200)", got, wait)
		}
	}
}
