package main

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	embeddednats "github.com/clumsies/clumsies/embedded-nats"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/events/natsjs"
)

// workspace is the workspace of every test event.
const workspace = "ws-analytics"

// token is the client token of the test server.
const token = "t"

// wait bounds every wait for something the test expects.
const wait = 10 * time.Second

// startServer starts an embedded NATS server with a TCP listener and a
// token, and returns its URL and the workspace's log on an in-process
// connection. Everything stops when the test ends.
func startServer(tb testing.TB) (string, *natsjs.Log) {
	tb.Helper()
	srv := &embeddednats.Server{Dir: tb.TempDir(), Listen: "127.0.0.1:0", Token: token, Sync: embeddednats.SyncInterval,
		ReaderStreams: []string{natsjs.StreamName(workspace)}}
	if err := srv.Start(); err != nil {
		tb.Fatalf("start server: %v", err)
	}
	tb.Cleanup(func() { srv.Close() })
	nc, err := srv.Connect()
	if err != nil {
		tb.Fatalf("connect in process: %v", err)
	}
	tb.Cleanup(nc.Close)
	l, err := natsjs.Open(testCtx(tb), nc, workspace, natsjs.Options{})
	if err != nil {
		tb.Fatalf("open log: %v", err)
	}
	return "nats://" + srv.NATS().Addr().String(), l
}

func testCtx(tb testing.TB) context.Context {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	tb.Cleanup(cancel)
	return ctx
}

// call describes one tool call to append.
type call struct {
	typ     events.Type
	tool    string
	session string
	code    string // error code; empty for a successful call
	payload any
}

// refer is a successful memref call declaring refs as "ruleId constraintId" pairs.
func refer(session string, refs ...[2]string) call {
	data := events.ReferData{}
	for _, r := range refs {
		data.Refs = append(data.Refs, events.Ref{RuleID: r[0], ConstraintID: r[1], Name: "n", RuleHash: "sha256:00", TextHash: "sha256:01"})
	}
	return call{typ: events.TypeRefer, tool: "memref", session: session, payload: data}
}

// appendCalls appends one event per call to l.
func appendCalls(tb testing.TB, l events.Log, calls ...call) {
	tb.Helper()
	for _, c := range calls {
		payload := c.payload
		if c.code != "" {
			payload = events.FailureData{Message: "failed", Args: json.RawMessage(`{"x":1}`)}
		}
		ev, err := events.New(workspace, c.typ, payload)
		if err != nil {
			tb.Fatal(err)
		}
		ev.Tool, ev.SessionID, ev.DurationUs = c.tool, c.session, 42
		if c.code != "" {
			ev.Outcome, ev.ErrorCode = events.OutcomeError, c.code
		}
		if _, err := l.Append(testCtx(tb), ev); err != nil {
			tb.Fatalf("append %s: %v", c.typ, err)
		}
	}
}

// publish appends a catalog event, which the consumer's filter leaves out.
func publish(tb testing.TB, l events.Log) {
	tb.Helper()
	ev, err := events.New(workspace, events.TypeCatalogPublish, events.PublishData{ID: "p-1", Kind: "rule", Path: "a/B.md", Name: "B", Hash: "sha256:00", Body: "# B"})
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := l.Append(testCtx(tb), ev); err != nil {
		tb.Fatal(err)
	}
}

// drain pulls until c has counted want events in all, then checks that
// one more pull brings nothing.
func drain(tb testing.TB, c *consumer, want int) {
	tb.Helper()
	deadline := time.Now().Add(wait)
	for c.tally.Events < want {
		if time.Now().After(deadline) {
			tb.Fatalf("got %d events counted, want %d within %s", c.tally.Events, want, wait)
		}
		if _, err := c.pull(testCtx(tb)); err != nil {
			tb.Fatalf("pull: %v", err)
		}
	}
	n, err := c.pull(testCtx(tb))
	if err != nil {
		tb.Fatalf("pull: %v", err)
	}
	if n != 0 || c.tally.Events != want {
		tb.Fatalf("got %d more events (%d in all), want none beyond %d", n, c.tally.Events, want)
	}
}

// open opens a consumer on url and closes it when the test ends.
func open(tb testing.TB, cfg config) *consumer {
	tb.Helper()
	c, err := openConsumer(testCtx(tb), cfg)
	if err != nil {
		tb.Fatalf("open consumer: %v", err)
	}
	tb.Cleanup(c.close)
	c.wait = 200 * time.Millisecond // keeps the final empty pull of drain short
	return c
}
