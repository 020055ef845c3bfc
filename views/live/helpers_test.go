package live_test

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/views/live"
)

// workspace is the workspace of every test event.
const workspace = "ws-live"

// wait bounds every wait for something the test expects to happen.
const wait = 5 * time.Second

// testServer is a live handler served over real HTTP. served receives a
// value each time ServeHTTP returns.
type testServer struct {
	*httptest.Server
	served chan struct{}
	stop   context.CancelFunc // ends every request's context, as a shutdown would
}

func newServer(tb testing.TB, log events.Log, opts live.Options) *testServer {
	tb.Helper()
	h := live.Handler(log, opts)
	ts := &testServer{served: make(chan struct{}, 100)}
	base, stop := context.WithCancel(context.Background())
	ts.stop = stop
	ts.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() { ts.served <- struct{}{} }()
		h.ServeHTTP(w, r)
	}))
	ts.Config.BaseContext = func(net.Listener) context.Context { return base }
	ts.Start()
	tb.Cleanup(ts.Close)
	tb.Cleanup(stop) // runs first: streams end, then the server closes
	return ts
}

// message is one SSE message, or a comment when comment is set.
type message struct {
	id, event, data string
	comment         string
}

// stream is an open event stream as a client sees it.
type stream struct {
	resp   *http.Response
	cancel context.CancelFunc
	msgs   chan message
}

// get sends a GET for path with the given headers and returns the response,
// whose body the caller must close.
func get(tb testing.TB, ctx context.Context, url string, header map[string]string) *http.Response {
	tb.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		tb.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatalf("GET %s: %v", url, err)
	}
	return resp
}

// open opens a stream and fails tb unless it gets 200. The stream is closed
// when the test ends.
func open(tb testing.TB, url string, header map[string]string) *stream {
	tb.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	resp := get(tb, ctx, url, header)
	if resp.StatusCode != http.StatusOK {
		body := readBody(tb, resp)
		cancel()
		tb.Fatalf("GET %s: got status %d (%s), want 200", url, resp.StatusCode, body)
	}
	s := &stream{resp: resp, cancel: cancel, msgs: make(chan message, 100)}
	go s.read()
	tb.Cleanup(s.close)
	return s
}

// read parses the body into messages until it ends.
func (s *stream) read() {
	defer close(s.msgs)
	sc := bufio.NewScanner(s.resp.Body)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	var m message
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			s.msgs <- m
			m = message{}
			continue
		}
		field, value, _ := strings.Cut(line, ":")
		value = strings.TrimPrefix(value, " ")
		switch field {
		case "":
			m.comment = value
		case "id":
			m.id = value
		case "event":
			m.event = value
		case "data":
			if m.data != "" {
				m.data += "\n"
			}
			m.data += value
		}
	}
}

// close hangs up.
func (s *stream) close() {
	s.cancel()
	s.resp.Body.Close()
}

// next returns the next message, failing tb if none comes in time or the
// stream ends.
func (s *stream) next(tb testing.TB) message {
	tb.Helper()
	select {
	case m, ok := <-s.msgs:
		if !ok {
			tb.Fatal("stream ended, want another message")
		}
		return m
	case <-time.After(wait):
		tb.Fatal("no message within the wait, want one")
	}
	return message{}
}

// nextEvent returns the next message that is not a comment.
func (s *stream) nextEvent(tb testing.TB) message {
	tb.Helper()
	for {
		if m := s.next(tb); m.comment == "" {
			return m
		}
	}
}

func readBody(tb testing.TB, resp *http.Response) string {
	tb.Helper()
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		tb.Fatalf("read body: %v", err)
	}
	return string(b)
}

// appendEvent appends an event of type t and returns it with Seq set.
func appendEvent(tb testing.TB, log events.Log, t events.Type) events.Event {
	tb.Helper()
	p, _ := events.NewPayload(t)
	ev, err := events.New(workspace, t, p)
	if err != nil {
		tb.Fatal(err)
	}
	seq, err := log.Append(context.Background(), ev)
	if err != nil {
		tb.Fatalf("append %s: %v", t, err)
	}
	ev.Seq = seq
	return ev
}

// appendRefers appends n refer events and returns them.
func appendRefers(tb testing.TB, log events.Log, n int) []events.Event {
	tb.Helper()
	evs := make([]events.Event, n)
	for i := range evs {
		evs[i] = appendEvent(tb, log, events.TypeRefer)
	}
	return evs
}
