package node_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/clumsies/clumsies/catalog"
	"github.com/clumsies/clumsies/content"
	embeddednats "github.com/clumsies/clumsies/embedded-nats"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/mcp"
	"github.com/clumsies/clumsies/node"
	"github.com/clumsies/clumsies/projections"
	"github.com/clumsies/clumsies/workspace"
)

var (
	_ mcp.Catalog = (*node.Opening)(nil)
	_ mcp.Ledger  = (*node.Opening)(nil)
	_ mcp.Catalog = (*node.Handle)(nil)
	_ mcp.Ledger  = (*node.Handle)(nil)
)

// newWorkspace creates a workspace with the starter content.
func newWorkspace(tb testing.TB) *workspace.Workspace {
	tb.Helper()
	ws, _, err := workspace.Init(tb.TempDir())
	if err != nil {
		tb.Fatal(err)
	}
	return ws
}

// attach attaches to ws with interval syncs (the tests do not need fsync)
// and closes the handle at the end of the test.
func attach(tb testing.TB, ws *workspace.Workspace, opts ...func(*node.Options)) *node.Handle {
	tb.Helper()
	o := node.Options{Sync: embeddednats.SyncInterval}
	for _, f := range opts {
		f(&o)
	}
	h, err := node.Attach(context.Background(), ws, o)
	if err != nil {
		tb.Fatalf("attach: %v", err)
	}
	tb.Cleanup(func() { h.Close() })
	return h
}

// ownerAndRemote returns the owner of a published workspace and a second
// handle that reaches it through the socket.
func ownerAndRemote(tb testing.TB) (*workspace.Workspace, *node.Handle, *node.Handle) {
	tb.Helper()
	ws := newWorkspace(tb)
	a := attach(tb, ws)
	if !a.IsOwner() {
		tb.Fatal("the first handle is not the owner")
	}
	if _, err := a.Publish(context.Background()); err != nil {
		tb.Fatal(err)
	}
	b := attach(tb, ws)
	if b.IsOwner() {
		tb.Fatal("the second handle is an owner too")
	}
	return ws, a, b
}

func report(tb testing.TB, ws *workspace.Workspace, summary string) events.Event {
	tb.Helper()
	ev, err := events.New(ws.ID(), events.TypeAgentReport, events.AgentReportData{Summary: summary})
	if err != nil {
		tb.Fatal(err)
	}
	ev.SessionID, ev.Tool = "s1", "agentreport"
	return ev
}

// jsonOf renders v as the tools would.
func jsonOf(tb testing.TB, v any) string {
	tb.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		tb.Fatal(err)
	}
	return string(b)
}

func TestHandle_RemoteReadsEqualOwnerReads(t *testing.T) {
	ws, a, b := ownerAndRemote(t)
	ctx := context.Background()

	// A draft, recorded through the remote, is visible to both at once.
	tmp := "tmp-rule-00000000000a"
	draft, _ := events.New(ws.ID(), events.TypeDraftCreate, events.DraftData{Resource: "rule", ID: tmp, Path: "go/NEW.md", Body: "# New\n\n## One\n\nDo it.\n"})
	draft.SessionID, draft.Tool = "s1", "artifact"
	if err := b.Record(ctx, draft); err != nil {
		t.Fatal(err)
	}

	items := list(t, a, projections.Filter{})
	if len(items) < 3 {
		t.Fatalf("owner lists %d items, want the starter rule, workflow and the draft", len(items))
	}
	if got, want := jsonOf(t, list(t, b, projections.Filter{})), jsonOf(t, items); got != want {
		t.Fatalf("List: remote got %s, owner %s", got, want)
	}
	f := projections.Filter{Kind: "workflow"}
	if got, want := jsonOf(t, list(t, b, f)), jsonOf(t, list(t, a, f)); got != want {
		t.Fatalf("List(%v): remote got %s, owner %s", f, got, want)
	}
	for _, id := range append([]string{content.MetaPromptPath}, idsOf(items)...) {
		ov, oerr := a.View(ctx, id)
		rv, rerr := b.View(ctx, id)
		if oerr != nil || rerr != nil || jsonOf(t, rv) != jsonOf(t, ov) {
			t.Fatalf("View(%s): remote got %v %s, owner %v %s", id, rerr, jsonOf(t, rv), oerr, jsonOf(t, ov))
		}
	}
	for _, q := range []catalog.DraftQuery{
		{Resource: events.ResourceRule, ID: tmp},
		{Resource: events.ResourceRule, Path: "go/NEW.md"},
		{Resource: events.ResourceRule, ID: idsOf(items)[0], Path: "no/SUCH.md"},
	} {
		of, oerr := a.DraftFacts(ctx, q)
		rf, rerr := b.DraftFacts(ctx, q)
		if oerr != nil || rerr != nil || jsonOf(t, rf) != jsonOf(t, of) {
			t.Fatalf("DraftFacts(%+v): remote got %v %s, owner %v %s", q, rerr, jsonOf(t, rf), oerr, jsonOf(t, of))
		}
	}
	if f, _ := b.DraftFacts(ctx, catalog.DraftQuery{Resource: events.ResourceRule, ID: tmp, Path: "go/NEW.md"}); f.Draft == nil || f.Seq == 0 {
		t.Fatalf("DraftFacts of the draft: got %s, want the draft and the drafts' sequence", jsonOf(t, f))
	}
	os, err := a.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	rs, err := b.Stats(ctx)
	if err != nil || jsonOf(t, rs) != jsonOf(t, os) {
		t.Fatalf("Stats: remote got %v %s, owner %s", err, jsonOf(t, rs), jsonOf(t, os))
	}
	if rs.Summary.Events != 4 {
		t.Fatalf("Stats: got %d events, want 4 (3 published, 1 draft)", rs.Summary.Events)
	}
	rep, err := b.Verify(ctx)
	if err != nil || !rep.OK() {
		t.Fatalf("Verify through the remote: %v %+v", err, rep)
	}
	if p, err := b.Publish(ctx); err != nil || p.Count != 0 {
		t.Fatalf("Publish through the remote: got %d events, %v; want none", p.Count, err)
	}
}

// TestHandle_LongReplies has the read service cut every reply into many
// messages, as it does for a reply longer than a NATS message can hold.
func TestHandle_LongReplies(t *testing.T) {
	defer node.SetChunkSize(7)()
	_, a, b := ownerAndRemote(t)
	ctx := context.Background()
	if got, want := jsonOf(t, list(t, b, projections.Filter{})), jsonOf(t, list(t, a, projections.Filter{})); got != want || len(got) < 100 {
		t.Fatalf("List: remote got %s, owner %s", got, want)
	}
	ov, _ := a.View(ctx, content.MetaPromptPath)
	rv, err := b.View(ctx, content.MetaPromptPath)
	if err != nil || jsonOf(t, rv) != jsonOf(t, ov) {
		t.Fatalf("View: remote got %v %s, owner %s", err, jsonOf(t, rv), jsonOf(t, ov))
	}
	if _, err := b.View(ctx, "nope"); !errors.Is(err, projections.ErrNotFound) {
		t.Fatalf("View of an unknown id: got %v, want ErrNotFound", err)
	}
}

// list lists through h, failing the test on an error.
func list(tb testing.TB, h *node.Handle, f projections.Filter) []projections.Item {
	tb.Helper()
	items, err := h.List(context.Background(), f)
	if err != nil {
		tb.Fatalf("list %+v: %v", f, err)
	}
	return items
}

func idsOf(items []projections.Item) []string {
	ids := make([]string, len(items))
	for i, it := range items {
		ids[i] = it.ID
	}
	return ids
}

func TestHandle_ErrNotFoundSurvivesTheWire(t *testing.T) {
	_, _, b := ownerAndRemote(t)
	if _, err := b.View(context.Background(), "p-0123456789abcdef0123456789abcdef"); !errors.Is(err, projections.ErrNotFound) {
		t.Fatalf("View of an unknown id: got %v, want ErrNotFound", err)
	}
}

// countIDs replays the log and counts the events of each id.
func countIDs(tb testing.TB, log events.Log) map[string]int {
	tb.Helper()
	seen := map[string]int{}
	var last uint64
	err := log.Replay(context.Background(), 1, func(ev events.Event) error {
		if ev.Seq != last+1 {
			return fmt.Errorf("got seq %d after %d", ev.Seq, last)
		}
		last = ev.Seq
		seen[ev.ID]++
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return seen
}

func TestHandle_RecordAcrossOwnerChange(t *testing.T) {
	t.Run("SameEventTwice", func(t *testing.T) {
		ws, a, b := ownerAndRemote(t)
		ev := report(t, ws, "before and after")
		if err := b.Record(context.Background(), ev); err != nil {
			t.Fatal(err)
		}
		// The owner goes; the remote's retry of the same event, as after a
		// lost acknowledgement, lands on the new owner: itself.
		a.Close()
		if err := b.Record(context.Background(), ev); err != nil {
			t.Fatal(err)
		}
		if !b.IsOwner() || b.OwnerChanges() != 1 {
			t.Fatalf("after the owner closed: owner %v, changes %d; want the remote to take over once", b.IsOwner(), b.OwnerChanges())
		}
		if n := countIDs(t, b)[ev.ID]; n != 1 {
			t.Fatalf("event stored %d times, want once", n)
		}
	})

	t.Run("Burst", func(t *testing.T) {
		ws, a, b := ownerAndRemote(t)
		c := attach(t, ws)
		ctx := context.Background()
		const workers, each = 6, 60
		var (
			wg       sync.WaitGroup
			mu       sync.Mutex
			recorded []string
			errs     []error
		)
		half := make(chan struct{})
		var once sync.Once
		for w := 0; w < workers; w++ {
			h := []*node.Handle{b, c}[w%2]
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; i < each; i++ {
					ev := report(t, ws, fmt.Sprintf("w%d-%d", w, i))
					if i%10 == 9 {
						// A catalog change: the remote waits for the owner's
						// projections, across the change too.
						ev, _ = events.New(ws.ID(), events.TypeDraftCreate, events.DraftData{Resource: "rule", ID: fmt.Sprintf("tmp-rule-%012x", w*1000+i), Path: fmt.Sprintf("burst/W%dN%d.md", w, i), Body: "# X\n"})
					}
					err := h.Record(ctx, ev)
					mu.Lock()
					if err != nil {
						errs = append(errs, err)
					} else {
						recorded = append(recorded, ev.ID)
					}
					if len(recorded) == workers*each/3 {
						once.Do(func() { close(half) })
					}
					mu.Unlock()
					if ev.Type == events.TypeDraftCreate && err == nil {
						d, _ := ev.Payload()
						if _, err := h.View(context.Background(), d.(*events.DraftData).ID); err != nil {
							t.Errorf("draft %s not visible right after its record: %v", ev.ID, err)
						}
					}
				}
			}()
		}
		<-half
		a.Close()
		wg.Wait()
		if len(errs) > 0 {
			t.Fatalf("%d records failed across the owner change, first: %v", len(errs), errs[0])
		}
		if b.OwnerChanges() != 1 || c.OwnerChanges() != 1 {
			t.Fatalf("owner changes: b saw %d, c %d; want 1 each", b.OwnerChanges(), c.OwnerChanges())
		}
		if b.IsOwner() == c.IsOwner() {
			t.Fatalf("after the change: b owner %v, c owner %v; want exactly one owner", b.IsOwner(), c.IsOwner())
		}
		seen := countIDs(t, b)
		for _, id := range recorded {
			if seen[id] != 1 {
				t.Errorf("event %s stored %d times, want once", id, seen[id])
			}
		}
		if len(seen) != 3+workers*each {
			t.Fatalf("log holds %d events, want %d", len(seen), 3+workers*each)
		}
		st, err := c.Stats(ctx)
		if err != nil || st.Summary.Events != uint64(3+workers*each) {
			t.Fatalf("stats after the change: %v, %d events; want %d", err, st.Summary.Events, 3+workers*each)
		}
		rep, err := c.Verify(ctx)
		if err != nil || !rep.OK() {
			t.Fatalf("verify after the change: %v %v", err, rep.Problems)
		}
	})
}

func TestHandle_SubscribeAcrossOwnerChange(t *testing.T) {
	ws, a, b := ownerAndRemote(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	got := make(chan events.Event, 100)
	done := make(chan error, 1)
	go func() {
		done <- b.Subscribe(ctx, 1, func(ev events.Event) error {
			got <- ev
			return nil
		})
	}()
	next := func() events.Event {
		select {
		case ev := <-got:
			return ev
		case <-time.After(10 * time.Second):
			t.Fatal("no event within 10s")
		}
		return events.Event{}
	}
	for i := 1; i <= 3; i++ {
		if ev := next(); ev.Seq != uint64(i) {
			t.Fatalf("got seq %d, want %d", ev.Seq, i)
		}
	}
	a.Close()
	c := attach(t, ws)
	for i := 4; i <= 8; i++ {
		if err := c.Record(ctx, report(t, ws, fmt.Sprint(i))); err != nil {
			t.Fatal(err)
		}
		if ev := next(); ev.Seq != uint64(i) {
			t.Fatalf("got seq %d, want %d", ev.Seq, i)
		}
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Subscribe ended with %v, want context.Canceled", err)
	}
}

func TestHandle_RebuildThroughTheOwner(t *testing.T) {
	ws, a, b := ownerAndRemote(t)
	ctx := context.Background()
	for i := 0; i < 20; i++ {
		if err := b.Record(ctx, report(t, ws, fmt.Sprint(i))); err != nil {
			t.Fatal(err)
		}
	}
	first, err := b.Rebuild(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	second, err := a.Rebuild(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if first.Events != 23 || first.Digest == "" || first != second {
		t.Fatalf("rebuilds: remote got %+v, owner %+v; want 23 events and equal digests", first, second)
	}
	// The owner's readers carry on with the new store.
	if _, err := b.View(context.Background(), content.MetaPromptPath); err != nil {
		t.Fatal(err)
	}
	if _, err := a.View(context.Background(), content.MetaPromptPath); err != nil {
		t.Fatal(err)
	}
}

func TestHandle_TokenAndListener(t *testing.T) {
	ws := newWorkspace(t)
	const token = "s3cret-token"
	a := attach(t, ws, func(o *node.Options) { o.NATSListen, o.NATSToken = "127.0.0.1:0", token })
	if !a.IsOwner() {
		t.Fatal("not the owner")
	}
	// A remote needs no token: the socket is its credential.
	b := attach(t, ws)
	if err := b.Record(context.Background(), report(t, ws, "via the socket")); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Publish(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := b.View(context.Background(), content.MetaPromptPath); err != nil {
		t.Fatal(err)
	}
}

func TestHandle_Close(t *testing.T) {
	ws, a, b := ownerAndRemote(t)
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if err := b.Close(); !errors.Is(err, net.ErrClosed) {
		t.Fatalf("second Close: got %v, want net.ErrClosed", err)
	}
	if _, err := b.View(context.Background(), content.MetaPromptPath); !errors.Is(err, net.ErrClosed) {
		t.Fatalf("View after Close: got %v, want net.ErrClosed", err)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	// The owner let go: the socket is gone and the lock is free.
	if _, locked, _ := embeddednats.Owner(ws.StateDir()); locked {
		t.Fatal("the lock is still held after the owner closed")
	}
	if _, err := nats.Connect("nats://127.0.0.1:4222", nats.SetCustomDialer(dialer(node.SocketPath(ws.StateDir()))), nats.NoReconnect()); err == nil {
		t.Fatal("the socket still answers after the owner closed")
	}
}

type dialer string

func (d dialer) Dial(_, _ string) (net.Conn, error) { return net.Dial("unix", string(d)) }

// longWorkspace returns a workspace whose socket path is too long to be
// used as is, with TMPDIR pointed at a fresh short folder tmp (and
// XDG_RUNTIME_DIR unset), where its owner binds the socket.
func longWorkspace(tb testing.TB) (ws *workspace.Workspace, tmp string) {
	tb.Helper()
	tmp, err := os.MkdirTemp("", "cs") // short: socket paths are limited to about 100 bytes
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { os.RemoveAll(tmp) })
	tb.Setenv("TMPDIR", tmp)
	tb.Setenv("XDG_RUNTIME_DIR", "")
	dir := filepath.Join(tb.TempDir(), strings.Repeat("deep-folder/", 8))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		tb.Fatal(err)
	}
	ws, _, err = workspace.Init(dir)
	if err != nil {
		tb.Fatal(err)
	}
	return ws, tmp
}

func TestSocketPath(t *testing.T) {
	short := t.TempDir()
	if got, want := node.SocketPath(short), short+"/owner.sock"; got != want {
		t.Fatalf("SocketPath(%s): got %s, want %s", short, got, want)
	}
	t.Run("AttachInALongFolder", func(t *testing.T) {
		// Another local user made the folder every owner of a long path
		// used to bind in (/tmp/clumsies-<uid>), open to all and with a
		// file in it: it must not keep the workspace from being served.
		ws, tmp := longWorkspace(t)
		hostile := filepath.Join(tmp, "clumsies-"+strconv.Itoa(os.Getuid()))
		if err := os.Mkdir(hostile, 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(hostile, 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(hostile, "planted"), nil, 0o666); err != nil {
			t.Fatal(err)
		}
		if os.Getuid() == 0 {
			if err := os.Chown(hostile, 65534, 65534); err != nil {
				t.Fatal(err)
			}
		}
		a := attach(t, ws)
		b := attach(t, ws)
		if !a.IsOwner() || b.IsOwner() {
			t.Fatalf("owner %v, remote %v", a.IsOwner(), b.IsOwner())
		}
		if err := b.Record(context.Background(), report(t, ws, "through a socket in the temporary folder")); err != nil {
			t.Fatal(err)
		}
		if got := node.SocketPath(ws.StateDir()); len(got) > 100 || !strings.HasPrefix(got, tmp+"/") || strings.HasPrefix(got, hostile+"/") {
			t.Fatalf("SocketPath of a long folder: got %s, want a short path in a private folder of %s", got, tmp)
		}
	})
}

// TestHandle_OwnerReadsWithoutContexts checks that a view and a listing
// on the owner in this process run under the caller's context: they read
// memory and wait on nothing, and a context of their own, bound to the
// owner's loss, cost every memload and memdisc allocations and
// registrations with the caller's context. Measured as the allocations
// the Handle adds to the read models' own, under a cancellable context
// (a tool call's).
func TestHandle_OwnerReadsWithoutContexts(t *testing.T) {
	h := attach(t, newWorkspace(t))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if _, err := h.Publish(ctx); err != nil {
		t.Fatal(err)
	}
	s := node.OwnerStore(h)
	if s == nil {
		t.Fatal("the only handle does not own the workspace")
	}
	items := list(t, h, projections.Filter{Kind: "rule"})
	if len(items) == 0 {
		t.Fatal("list: no rule; want the starter rules")
	}
	id := items[0].ID
	for _, tc := range []struct {
		name          string
		handle, store func()
	}{
		{"view", func() { h.View(ctx, id) }, func() { s.View(ctx, id) }},
		{"list", func() { h.List(ctx, projections.Filter{Kind: "rule"}) }, func() { s.List(ctx, projections.Filter{Kind: "rule"}) }},
	} {
		added := testing.AllocsPerRun(200, tc.handle) - testing.AllocsPerRun(200, tc.store)
		// The Handle's own are one or none (the call's closure); a context
		// bound to the owner's loss adds four.
		if added > 2 {
			t.Errorf("%s: the Handle adds %.0f allocations to the read models' own, want at most 2 (no context of its own)", tc.name, added)
		}
	}
}
