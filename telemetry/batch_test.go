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
	var mu sync.Mutex
	got := map[string][][]byte{}
	arrived := make(chan string, 16)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		got[r.URL.Path] = append(got[r.URL.Path], body)
		mu.Unlock()
		arrived <- r.URL.Path
	}))
	defer srv.Close()
	t.Setenv("OTEL_BSP_SCHEDULE_DELAY", "3600000")
	t.Setenv("OTEL_BSP_MAX_EXPORT_BATCH_SIZE", "2")
	t.Setenv("OTEL_METRIC_EXPORT_INTERVAL", "3600000")
	e, err := Start(context.Background(), Options{Host: strings.TrimPrefix(srv.URL, "http://"), Insecure: true, WorkspaceID: "ws-1"})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		now := time.Now()
		e.ToolCall(context.Background(), mcp.CallRecord{Start: now, Event: events.Event{ID: string(rune('a' + i)), Tool: "memsetup", Outcome: events.OutcomeOK}})
	}
	select {
	case p := <-arrived:
		if p != "/v1/traces" {
			t.Fatalf("first request to %s, want /v1/traces", p)
		}
	case <-time.After(time.Minute):
		t.Fatal("a full batch of 2 spans was not sent within a minute (the delay is an hour)")
	}
	if err := e.Shutdown(context.Background()); err != nil {
		t.Fatalf("shutdown: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	var perRequest []int
	for _, b := range got["/v1/traces"] {
		perRequest = append(perRequest, len(fieldsAt(t, b, 1, 2, 2)))
	}
	if len(perRequest) != 2 || perRequest[0] != 2 || perRequest[1] != 1 {
		t.Fatalf("spans per request %v, want [2 1]", perRequest)
	}
	if len(got["/v1/metrics"]) != 1 {
		t.Fatalf("%d metrics requests, want 1 at shutdown", len(got["/v1/metrics"]))
	}
	var names []string
	for _, m := range fieldsAt(t, got["/v1/metrics"][0], 1, 2, 2) {
		names = append(names, string(fieldsAt(t, m, 1)[0]))
	}
	if want := []string{metricDuration, metricCalls, metricDropped}; strings.Join(names, " ") != strings.Join(want, " ") {
		t.Fatalf("metrics %v, want %v (no loads or refs yet)", names, want)
	}
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
