package node_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/clumsies/clumsies/content"
	embeddednats "github.com/clumsies/clumsies/embedded-nats"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/mcp"
	"github.com/clumsies/clumsies/node"
	"github.com/clumsies/clumsies/projections"
	"github.com/clumsies/clumsies/workspace"
)

var errInjected = errors.New("injected storage fault")

// TestHandle_ProjectorFailure makes every projector of the workspace fail
// its commits: reads through a Handle, and the MCP tools on top of it,
// answer unavailable instead of serving read models that no longer follow
// the log. Once the fault is gone, the owner that stepped down is replaced
// and everything recovers, the event that hit the fault counted once.
func TestHandle_ProjectorFailure(t *testing.T) {
	var faulty atomic.Bool
	fault := func(func(*node.Options)) func(*node.Options) {
		return func(o *node.Options) {
			o.RetryFor = 300 * time.Millisecond
			o.ProjectorFault = func(uint64) error {
				if faulty.Load() {
					return errInjected
				}
				return nil
			}
		}
	}(nil)
	ws := newWorkspace(t)
	a := attach(t, ws, fault)
	if _, err := a.Publish(context.Background()); err != nil {
		t.Fatal(err)
	}
	b := attach(t, ws, fault)
	ctx := context.Background()

	srv := mcp.NewServer(mcp.Config{WorkspaceID: ws.ID(), Catalog: b, Ledger: b, Version: "test"})
	cl, err := mcp.Connect(ctx, srv)
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	res, isErr, err := cl.Call(ctx, "memsetup", map[string]any{"session_id": "s1", "knownHashes": map[string]any{content.MetaPromptPath: ""}})
	if err != nil || isErr {
		t.Fatalf("memsetup: %v %v", err, res)
	}

	faulty.Store(true)
	// An evidence event is durable at once; the projector fails on it.
	if err := b.Record(ctx, report(t, ws, "hits the fault")); err != nil {
		t.Fatalf("record: %v", err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		_, err := b.View(ctx, content.MetaPromptPath)
		var ua interface{ Unavailable() bool }
		if errors.As(err, &ua) && ua.Unavailable() {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("reads still answer %v while every projector fails, want an unavailable error", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	// The tool answers the same; between two owners it may wait for the
	// next one first, so it is asked until the answer comes.
	for {
		res, isErr, err = cl.Call(ctx, "memdisc", map[string]any{})
		if err == nil && isErr && res["code"] == string(events.CodeUnavailable) && res["retryable"] == true {
			break
		}
		if err != nil || !isErr || time.Now().After(deadline) {
			t.Fatalf("memdisc while the read models are behind: got %v %v, want unavailable, retryable", err, res)
		}
	}

	faulty.Store(false)
	deadline = time.Now().Add(20 * time.Second)
	for {
		res, isErr, err = cl.Call(ctx, "memdisc", map[string]any{})
		if err == nil && !isErr {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("memdisc after the fault is gone: %v %v", err, res)
		}
		time.Sleep(50 * time.Millisecond)
	}
	st, err := b.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var reports uint64
	for _, s := range st.Sessions {
		reports += s.Reports
	}
	if reports != 1 {
		t.Errorf("stats count %d reports, want the one that hit the fault", reports)
	}
	if r, err := b.Verify(ctx); err != nil || !r.OK() {
		t.Fatalf("verify after recovery: %v %v", err, r.Problems)
	}
	if a.OwnerChanges()+b.OwnerChanges() == 0 {
		t.Errorf("no owner change: the failed owner did not step down")
	}
}

// TestHandle_SocketRemovedWhileOwning removes the owner's socket file
// while the owner runs: the owner binds it again, and a new process can
// attach through it.
func TestHandle_SocketRemovedWhileOwning(t *testing.T) {
	ws := newWorkspace(t)
	a := attach(t, ws)
	if !a.IsOwner() {
		t.Fatal("the first handle does not own the workspace")
	}
	if err := os.Remove(node.SocketPath(ws.StateDir())); err != nil {
		t.Fatal(err)
	}
	attachThroughSocket(t, ws)
}

// attachThroughSocket attaches a second handle to ws, whose owner runs
// in this process, and reads through the socket the owner bound again.
func attachThroughSocket(tb testing.TB, ws *workspace.Workspace) {
	tb.Helper()
	b := attach(tb, ws, func(o *node.Options) { o.AttachWait = 10 * time.Second })
	if b.IsOwner() {
		tb.Fatal("the second handle owns the workspace too")
	}
	if _, err := b.View(context.Background(), content.MetaPromptPath); err != nil && !errors.Is(err, projections.ErrNotFound) {
		tb.Fatalf("read through the socket bound again: %v", err)
	}
}

// TestHandle_SocketFolderRemovedWhileOwning removes the private folder of
// the socket of a long state path while the owner runs (a cleaner of the
// temporary folder): the owner binds in a new one and records it, and a
// new process attaches through it.
func TestHandle_SocketFolderRemovedWhileOwning(t *testing.T) {
	ws, tmp := longWorkspace(t)
	a := attach(t, ws)
	old := filepath.Dir(node.SocketPath(ws.StateDir()))
	if !a.IsOwner() || !strings.HasPrefix(old, tmp) {
		t.Fatalf("owner %v with its socket in %s, want the owner with a socket under %s", a.IsOwner(), old, tmp)
	}
	if err := os.RemoveAll(old); err != nil {
		t.Fatal(err)
	}
	attachThroughSocket(t, ws)
	if now := filepath.Dir(node.SocketPath(ws.StateDir())); now == old {
		t.Fatalf("the socket is still recorded in the removed folder %s", old)
	}
}

// TestHandle_StreamOlderThanReadModels removes the stream under read
// models that counted it (as restoring an older backup of the stream
// does): the next owner rebuilds the read models from the stream as it
// is, and new events are counted.
func TestHandle_StreamOlderThanReadModels(t *testing.T) {
	ws := newWorkspace(t)
	ctx := context.Background()
	a, err := node.Attach(ctx, ws, node.Options{Sync: embeddednats.SyncInterval})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Publish(ctx); err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		if err := a.Record(ctx, report(t, ws, fmt.Sprintf("before %d", i))); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := a.CatchUp(ctx); err != nil {
		t.Fatal(err)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(ws.StateDir(), "jetstream")); err != nil {
		t.Fatal(err)
	}

	b := attach(t, ws)
	if err := b.Record(ctx, report(t, ws, "after")); err != nil {
		t.Fatal(err)
	}
	st, err := b.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Summary.Events != 1 || st.Summary.Checkpoint != 1 {
		t.Fatalf("stats after the stream was replaced: %d events at checkpoint %d, want the 1 event of the new stream", st.Summary.Events, st.Summary.Checkpoint)
	}
	if r, err := b.Verify(ctx); err != nil || r.Digest != r.ReplayDigest {
		t.Fatalf("verify: %v %+v", err, r)
	}
}

// TestHandle_CloseWithAStuckProjector blocks the projector inside a commit
// (a stalled disk) and closes the owner: Close returns within its bound
// instead of waiting for the disk.
func TestHandle_CloseWithAStuckProjector(t *testing.T) {
	stuck := make(chan struct{})
	var block atomic.Bool
	ws := newWorkspace(t)
	h, err := node.Attach(context.Background(), ws, node.Options{Sync: embeddednats.SyncInterval,
		ProjectorFault: func(uint64) error {
			if block.Load() {
				<-stuck
			}
			return nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer close(stuck)
	block.Store(true)
	if err := h.Record(context.Background(), report(t, ws, "stuck")); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond) // the projector is in its commit by now
	closed := make(chan error, 1)
	go func() { closed <- h.Close() }()
	select {
	case <-closed:
	case <-time.After(30 * time.Second):
		t.Fatal("Close is still waiting for a projector stuck in storage after 30 s")
	}
}

// TestHandle_ReadModelsDamagedWhileServing damages the table files of the
// owner's read models while it serves: a read that finds the damage does
// not kill the process; the owner rebuilds the read models from the
// ledger, and every read succeeds again, with the right bodies.
func TestHandle_ReadModelsDamagedWhileServing(t *testing.T) {
	ws := newWorkspace(t)
	rules := filepath.Join(ws.ContentRoot(), "rules", "big")
	if err := os.MkdirAll(rules, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range 400 {
		body := fmt.Sprintf("# R%d\n\n%s\n", i, strings.Repeat("x", 30000))
		if err := os.WriteFile(filepath.Join(rules, fmt.Sprintf("R%d.md", i)), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	h := attach(t, ws)
	ctx := context.Background()
	if _, err := h.Publish(ctx); err != nil {
		t.Fatal(err)
	}
	items := list(t, h, projections.Filter{Group: "big"})
	ssts, _ := filepath.Glob(filepath.Join(node.ProjectionsDir(ws.StateDir()), "*.sst"))
	if len(ssts) == 0 {
		t.Fatal("the read models have no table file to damage")
	}
	damaged := 0
	for _, f := range ssts {
		b, err := os.ReadFile(f)
		if errors.Is(err, fs.ErrNotExist) {
			continue // compacted away meanwhile
		}
		if err != nil {
			t.Fatal(err)
		}
		for i := 100; i < len(b)-100; i += 997 {
			b[i] ^= 0xff
		}
		w, err := os.OpenFile(f, os.O_WRONLY, 0) // not created again if compacted away
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		_, err = w.Write(b)
		if cerr := w.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			t.Fatal(err)
		}
		damaged++
	}
	if damaged == 0 {
		t.Fatal("every table file was compacted away before it could be damaged")
	}
	for _, it := range items {
		v, err := h.View(ctx, it.ID)
		if err != nil {
			t.Fatalf("view %s after the damage: %v", it.Path, err)
		}
		if !strings.HasPrefix(v.Body, "# "+it.Name+"\n") || len(v.Body) < 30000 {
			t.Fatalf("view %s: a body of %d bytes starting %.20q", it.Path, len(v.Body), v.Body)
		}
	}
	if r, err := h.Verify(ctx); err != nil || !r.OK() {
		t.Fatalf("verify: %v %v", err, r.Problems)
	}
}
