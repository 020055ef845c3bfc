package mcp

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections"
)

const testWorkspace = "ws-mcp-test"

// testRoot is the workspace folder the test server names: memdisc reads
// absolute paths under it.
const testRoot = "/home/dev/project"

// env is a server over real parts: a MemoryLog, a projections store on an
// in-memory file system following it, and a LogLedger.
type env struct {
	tb      testing.TB
	log     *events.MemoryLog
	ledger  *closableLog // what the server appends to
	catalog *projections.Store
	srv     *Server
	logs    *syncBuffer // the server's log
}

type envOptions struct {
	readOnly bool
	// separateCatalog makes the server read from a store of its own, so that
	// closing it (closeCatalog) breaks reads while the ledger still works.
	separateCatalog bool
	// ready, if set, is the server's Config.Ready.
	ready <-chan struct{}
}

func newEnv(tb testing.TB, opts envOptions) *env {
	tb.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	e := &env{tb: tb, log: events.NewMemoryLog(), logs: &syncBuffer{}}
	e.ledger = &closableLog{MemoryLog: e.log}
	waiter := e.openStore(ctx, "/ledger")
	e.catalog = waiter
	if opts.separateCatalog {
		e.catalog = e.openStore(ctx, "/catalog")
	}
	tb.Cleanup(cancel)
	e.srv = NewServer(Config{
		WorkspaceID: testWorkspace,
		Root:        testRoot,
		Catalog:     e.catalog,
		Ledger:      LogLedger{Log: e.ledger, Store: waiter},
		Logger:      slog.New(slog.NewTextHandler(e.logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
		Version:     "test",
		ReadOnly:    opts.readOnly,
		Ready:       opts.ready,
	})
	return e
}

// openStore opens a store on an in-memory file system and runs its
// projector until the test ends.
func (e *env) openStore(ctx context.Context, dir string) *projections.Store {
	e.tb.Helper()
	st, err := projections.Open(dir, projections.Options{FS: vfs.NewMem(), Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		e.tb.Fatalf("open store: %v", err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = st.Run(ctx, e.log)
	}()
	e.tb.Cleanup(func() {
		<-done
		_ = st.Close()
	})
	return st
}

// append adds a non-tool event to the log and waits until the catalog has
// applied it.
func (e *env) append(t events.Type, payload any) {
	e.tb.Helper()
	ev, err := events.New(testWorkspace, t, payload)
	if err != nil {
		e.tb.Fatal(err)
	}
	seq, err := e.log.Append(context.Background(), ev)
	if err != nil {
		e.tb.Fatal(err)
	}
	if err := e.catalog.WaitFor(context.Background(), seq); err != nil {
		e.tb.Fatal(err)
	}
}

// publish publishes a content file given by its source path
// ("rules/go/ERRORS.md") and returns its id.
func (e *env) publish(source, body string) string {
	e.tb.Helper()
	kind, public, ok := content.Classify(source)
	if !ok {
		e.tb.Fatalf("%s is not a content path", source)
	}
	id := objectID(kind, public)
	e.append(events.TypeCatalogPublish, events.PublishData{
		ID: id, Kind: string(kind), Path: public, Name: content.NameOf(public),
		Group: content.GroupOf(public), Hash: content.Hash([]byte(body)), Body: body,
	})
	return id
}

// objectID is the id the tests give a published path: stable, like the
// real ones.
func objectID(kind content.Kind, public string) string {
	sum := sha256.Sum256([]byte(public))
	switch kind {
	case content.KindMPF:
		return content.MetaPromptPath
	case content.KindContext:
		return "c-" + hex.EncodeToString(sum[:16])
	}
	return "p-" + hex.EncodeToString(sum[:16])
}

// events returns every event in the log.
func (e *env) events() []events.Event {
	e.tb.Helper()
	var out []events.Event
	if err := e.log.Replay(context.Background(), 1, func(ev events.Event) error {
		out = append(out, ev)
		return nil
	}); err != nil {
		e.tb.Fatal(err)
	}
	return out
}

// toolEvents returns the events of tool calls.
func (e *env) toolEvents() []events.Event {
	var out []events.Event
	for _, ev := range e.events() {
		if ev.Type.IsTool() {
			out = append(out, ev)
		}
	}
	return out
}

// connect connects a client that the test closes at its end.
func (e *env) connect() *Client {
	e.tb.Helper()
	c, err := Connect(context.Background(), e.srv)
	if err != nil {
		e.tb.Fatalf("connect: %v", err)
	}
	e.tb.Cleanup(func() { _ = c.Close() })
	return c
}

// closableLog is a real log that can be closed under the server: once
// closed, Append fails as a closed durable log does.
type closableLog struct {
	*events.MemoryLog
	closed atomic.Bool
}

func (l *closableLog) Append(ctx context.Context, ev events.Event) (uint64, error) {
	if l.closed.Load() {
		return 0, events.ErrClosed
	}
	return l.MemoryLog.Append(ctx, ev)
}

func (l *closableLog) AppendExpecting(ctx context.Context, ev events.Event, exp events.Expectation) (uint64, error) {
	if l.closed.Load() {
		return 0, events.ErrClosed
	}
	return l.MemoryLog.AppendExpecting(ctx, ev, exp)
}

// syncBuffer is a bytes.Buffer safe for concurrent writers.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// call calls a tool and fails the test on a protocol error.
func callTool(tb testing.TB, c *Client, tool string, args any) (map[string]any, bool) {
	tb.Helper()
	res, isErr, err := c.Call(context.Background(), tool, args)
	if err != nil {
		tb.Fatalf("call %s: %v", tool, err)
	}
	return res, isErr
}

// mustOK calls a tool that must succeed.
func mustOK(tb testing.TB, c *Client, tool string, args any) map[string]any {
	tb.Helper()
	res, isErr := callTool(tb, c, tool, args)
	if isErr {
		tb.Fatalf("%s: got error %v, want success", tool, res)
	}
	return res
}

// mustFail calls a tool that must fail with code.
func mustFail(tb testing.TB, c *Client, tool string, args any, code events.Code) map[string]any {
	tb.Helper()
	res, isErr := callTool(tb, c, tool, args)
	if !isErr || res["code"] != string(code) {
		tb.Fatalf("%s: got isError=%v %v, want code %s", tool, isErr, res, code)
	}
	return res
}

// setup binds c to session id.
func setup(tb testing.TB, c *Client, id string) map[string]any {
	tb.Helper()
	return mustOK(tb, c, "memsetup", map[string]any{"session_id": id, "knownHashes": map[string]any{"META_PROMPT.md": ""}})
}

// jsonOf renders v as indented JSON, without escaping <, > and &.
func jsonOf(tb testing.TB, v any) string {
	tb.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		tb.Fatal(err)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func mustContain(tb testing.TB, s, sub, what string) {
	tb.Helper()
	if !strings.Contains(s, sub) {
		tb.Errorf("%s: got %q, want it to contain %q", what, s, sub)
	}
}
