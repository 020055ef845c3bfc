package web_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/clumsies/clumsies/views/web"
)

// serveInBackground runs web.Serve until the returned cancel is called;
// done receives its result.
func serveInBackground(tb testing.TB, h http.Handler) (url string, cancel context.CancelFunc, done <-chan error) {
	tb.Helper()
	ln := mustListen(tb, "127.0.0.1:0", "")
	ctx, cancel := context.WithCancel(context.Background())
	errc, finished := make(chan error, 1), make(chan struct{})
	go func() {
		defer close(finished)
		errc <- web.Serve(ctx, ln, h)
	}()
	tb.Cleanup(func() {
		cancel()
		select {
		case <-finished:
		case <-time.After(2 * web.ShutdownGrace):
			tb.Error("Serve did not return after its context ended")
		}
	})
	return "http://" + ln.Addr().String(), cancel, errc
}

// waitServe fails tb unless Serve returns nil within the wait.
func waitServe(tb testing.TB, done <-chan error) {
	tb.Helper()
	select {
	case err := <-done:
		if err != nil {
			tb.Fatalf("Serve: got %v, want nil after a clean shutdown", err)
		}
	case <-time.After(wait):
		tb.Fatal("Serve still running after its context ended")
	}
}

// TestServe_EndsStreams: cancelling Serve's context ends the open event
// stream and the MCP server-to-client stream, so the shutdown is prompt
// and clean.
func TestServe_EndsStreams(t *testing.T) {
	b := newBackend(t)
	url, cancel, done := serveInBackground(t, web.Handler(b.options("")))
	if resp, body := get(t, url+"/healthz", nil); resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /healthz: got %d (%s), want 200", resp.StatusCode, body)
	}
	events := openEvents(t, url+"/events", nil)

	agent := connect(t, url+"/mcp", "")
	agent.mustTool("memsetup", setupArgs("serve-1"))
	req, err := http.NewRequest(http.MethodGet, url+"/mcp", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "text/event-stream")
	agent.headers(req)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /mcp: got %d (%s), want 200 and a stream", resp.StatusCode, readAll(t, resp))
	}
	mcpEnded := make(chan error, 1)
	go func() {
		_, err := io.Copy(io.Discard, resp.Body)
		mcpEnded <- err
	}()

	start := time.Now()
	cancel()
	select {
	case <-drained(events.msgs):
	case <-time.After(wait):
		t.Fatal("event stream still open after Serve's context ended")
	}
	select {
	case <-mcpEnded:
	case <-time.After(wait):
		t.Fatal("GET /mcp stream still open after Serve's context ended")
	}
	waitServe(t, done)
	if took := time.Since(start); took >= web.ShutdownGrace {
		t.Errorf("shutdown took %s, want less than the grace %s: the streams should end at once", took, web.ShutdownGrace)
	}
}

// TestServe_FinishesRequests: a request in flight when the context ends
// runs to its end with its context intact.
func TestServe_FinishesRequests(t *testing.T) {
	started, release := make(chan struct{}), make(chan struct{})
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(started)
		<-release
		if err := r.Context().Err(); err != nil {
			http.Error(w, "context ended: "+err.Error(), http.StatusInternalServerError)
			return
		}
		io.WriteString(w, "done")
	})
	url, cancel, done := serveInBackground(t, h)
	type answer struct {
		status int
		body   string
		err    error
	}
	answers := make(chan answer, 1)
	go func() {
		resp, err := http.Post(url+"/call", "application/json", strings.NewReader("{}"))
		if err != nil {
			answers <- answer{err: err}
			return
		}
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		answers <- answer{resp.StatusCode, string(b), err}
	}()
	<-started
	cancel()
	select {
	case err := <-done:
		t.Fatalf("Serve returned %v with a request in flight, want it to wait", err)
	case <-time.After(50 * time.Millisecond):
	}
	close(release)
	a := <-answers
	if a.err != nil || a.status != http.StatusOK || a.body != "done" {
		t.Fatalf("request in flight at shutdown: got %d %q %v, want 200 \"done\"", a.status, a.body, a.err)
	}
	waitServe(t, done)
}

func TestServe_ListenerFails(t *testing.T) {
	ln := mustListen(t, "127.0.0.1:0", "")
	ln.Close()
	select {
	case err := <-func() chan error {
		c := make(chan error, 1)
		go func() { c <- web.Serve(context.Background(), ln, http.NotFoundHandler()) }()
		return c
	}():
		if err == nil || errors.Is(err, http.ErrServerClosed) {
			t.Fatalf("Serve on a closed listener: got %v, want the accept error", err)
		}
	case <-time.After(wait):
		t.Fatal("Serve on a closed listener did not return")
	}
}

// drained is closed once msgs is closed, everything in it read.
func drained(msgs <-chan message) <-chan struct{} {
	c := make(chan struct{})
	go func() {
		defer close(c)
		for range msgs {
		}
	}()
	return c
}
