package telemetry

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/mcp"
)

// TestSpanBatch_Request checks that the request written in front of the
// batch's spans is the ExportTraceServiceRequest written the plain way,
// for a small resource and one whose lengths take more bytes, and again
// after the batch is reused.
func TestSpanBatch_Request(t *testing.T) {
	for _, res := range [][]attr{
		{stringAttr("service.name", "clumsies")},
		{stringAttr("service.name", "clumsies"), stringAttr("big", strings.Repeat("x", 20000))},
	} {
		sb := newSpanBatch(res)
		for round, n := range []int{3, 1, 200} {
			var spans []byte
			for i := range n {
				s := span{traceID: newTraceID(), spanID: newSpanID(), name: "tools/call memload", start: time.Unix(int64(i), 0), end: time.Unix(int64(i), 5),
					attrs: []attr{stringAttr(attrTool, "memload"), stringsAttr(attrRules, []string{"r1", "r2"}), boolAttr(attrRecorded, true)}}
				sb.add(s)
				spans = message(spans, 2, func(b []byte) []byte { return appendSpan(b, s) })
			}
			want := message(nil, 1, func(b []byte) []byte {
				b = appendResource(b, 1, res)
				return message(b, 2, func(b []byte) []byte { return append(appendScope(b, 1), spans...) })
			})
			if got := sb.request(); !bytes.Equal(got, want) {
				t.Fatalf("round %d, resource of %d attributes: request of %d bytes differs from the plain one of %d", round, len(res), len(got), len(want))
			}
			sb.reset()
		}
	}
}

// TestExporter_Schedule checks the export's batching against an HTTP
// server standing for the collector: a batch that reaches
// OTEL_BSP_MAX_EXPORT_BATCH_SIZE is sent without waiting for the delay,
// and Shutdown sends the spans left and the counts.
func TestExporter_Schedule(t *testing.T) {
	t.Setenv("OTEL_BSP_MAX_EXPORT_BATCH_SIZE", "2")
	c := startSink(t)
	e := c.exporter(t)
	for i := range 3 {
		e.ToolCall(context.Background(), call(string(rune('a'+i)), ""))
	}
	c.waitFirst(t, "a full batch of 2 spans")
	if err := e.Shutdown(context.Background()); err != nil {
		t.Fatalf("shutdown: %v", err)
	}
	if got := c.spansPerRequest(t); len(got) != 2 || got[0] != 2 || got[1] != 1 {
		t.Fatalf("spans per request %v, want [2 1]", got)
	}
	metrics := c.bodies("/v1/metrics")
	if len(metrics) != 1 {
		t.Fatalf("%d metrics requests, want 1 at shutdown", len(metrics))
	}
	var names []string
	for _, m := range fieldsAt(t, metrics[0], 1, 2, 2) {
		names = append(names, string(fieldsAt(t, m, 1)[0]))
	}
	if want := []string{metricDuration, metricCalls, metricDropped}; strings.Join(names, " ") != strings.Join(want, " ") {
		t.Fatalf("metrics %v, want %v (no loads or refs yet)", names, want)
	}
}

// TestExporter_BatchBytes checks that a batch is sent once it holds
// batchBytes of spans, however few: the spans a busy serve holds are
// bounded in bytes.
func TestExporter_BatchBytes(t *testing.T) {
	c := startSink(t)
	e := c.exporter(t)
	session := strings.Repeat("s", 2000) // two attributes of 2 KB: a span of ~4 KB
	const calls = 40
	for i := range calls {
		e.ToolCall(context.Background(), call(string(rune('a'+i)), session))
	}
	c.waitFirst(t, "a batch of 64 KiB")
	if err := e.Shutdown(context.Background()); err != nil {
		t.Fatalf("shutdown: %v", err)
	}
	got := c.spansPerRequest(t)
	sum := 0
	for _, n := range got {
		sum += n
	}
	if len(got) < 2 || sum != calls {
		t.Fatalf("spans per request %v, want %d spans in more than one request", got, calls)
	}
	for _, b := range c.bodies("/v1/traces") {
		if len(b) > batchBytes+5000 {
			t.Fatalf("a request of %d bytes, want at most a span past %d", len(b), batchBytes)
		}
	}
}

// call is the record of a memsetup call.
func call(id, session string) mcp.CallRecord {
	return mcp.CallRecord{Start: time.Now(), Event: events.Event{ID: id, Tool: "memsetup", Outcome: events.OutcomeOK, SessionID: session}}
}

// sink is an HTTP server standing for the collector: it keeps the bodies
// it receives by path.
type sink struct {
	srv     *httptest.Server
	mu      sync.Mutex
	got     map[string][][]byte
	arrived chan string
}

// startSink starts a sink, and sets the export's delays to an hour, so
// that only a full batch or Shutdown sends anything.
func startSink(t *testing.T) *sink {
	t.Helper()
	t.Setenv("OTEL_BSP_SCHEDULE_DELAY", "3600000")
	t.Setenv("OTEL_METRIC_EXPORT_INTERVAL", "3600000")
	c := &sink{got: map[string][][]byte{}, arrived: make(chan string, 256)}
	c.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		c.mu.Lock()
		c.got[r.URL.Path] = append(c.got[r.URL.Path], body)
		c.mu.Unlock()
		c.arrived <- r.URL.Path
	}))
	t.Cleanup(c.srv.Close)
	return c
}

// exporter starts an Exporter sending to the sink.
func (c *sink) exporter(t *testing.T) *Exporter {
	t.Helper()
	e, err := Start(context.Background(), Options{Host: strings.TrimPrefix(c.srv.URL, "http://"), Insecure: true, WorkspaceID: "ws-1"})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// waitFirst waits for the first request, which must carry spans sent
// because of what, not of the delay (an hour).
func (c *sink) waitFirst(t *testing.T, what string) {
	t.Helper()
	select {
	case p := <-c.arrived:
		if p != "/v1/traces" {
			t.Fatalf("first request to %s, want /v1/traces", p)
		}
	case <-time.After(time.Minute):
		t.Fatalf("%s was not sent within a minute (the delay is an hour)", what)
	}
}

func (c *sink) bodies(path string) [][]byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.got[path]
}

// spansPerRequest counts the spans of each /v1/traces request.
func (c *sink) spansPerRequest(t *testing.T) []int {
	var out []int
	for _, b := range c.bodies("/v1/traces") {
		out = append(out, len(fieldsAt(t, b, 1, 2, 2)))
	}
	return out
}

// fieldsAt returns the bodies of the length-delimited fields at the path
// of field numbers in the message b: each of path[0], then each of
// path[1] within those, and so on.
func fieldsAt(tb testing.TB, b []byte, path ...protowire.Number) [][]byte {
	tb.Helper()
	level := [][]byte{b}
	for _, want := range path {
		var next [][]byte
		for _, m := range level {
			for len(m) > 0 {
				num, typ, n := protowire.ConsumeTag(m)
				if n < 0 {
					tb.Fatalf("bad tag: %v", protowire.ParseError(n))
				}
				m = m[n:]
				if typ == protowire.BytesType && num == want {
					v, n := protowire.ConsumeBytes(m)
					if n < 0 {
						tb.Fatalf("bad field %d: %v", num, protowire.ParseError(n))
					}
					next = append(next, v)
				}
				n = protowire.ConsumeFieldValue(num, typ, m)
				if n < 0 {
					tb.Fatalf("bad field %d: %v", num, protowire.ParseError(n))
				}
				m = m[n:]
			}
		}
		level = next
	}
	return level
}
