package node_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/internal/gcpace"
	"github.com/clumsies/clumsies/node"
	"github.com/clumsies/clumsies/projections"
	"github.com/clumsies/clumsies/workspace"
)

// writeRules writes n rules into ws's content tree.
func writeRules(tb testing.TB, ws *workspace.Workspace, n int) {
	tb.Helper()
	for i := range n {
		dir := filepath.Join(ws.ContentRoot(), "rules", fmt.Sprintf("g%02d", i%10))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			tb.Fatal(err)
		}
		body := fmt.Sprintf("# Rule %04d\n\n## Steps\n\n- Check input %d.\n- Keep it small.\n", i, i)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("RULE%04d.md", i)), []byte(body), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
}

// A publish large enough to apply its own events leaves the read models
// as a rebuild from the ledger makes them, while an agent's events land
// between its events and are applied as they come.
func TestPublish_LargeAppliesItsOwnEvents(t *testing.T) {
	ctx := context.Background()
	ws := newWorkspace(t)
	rules := node.BulkPublish + 50
	writeRules(t, ws, rules)
	n := openNode(t, ws)
	defer n.Close()

	// An agent appends reports and waits for each to be applied, as a
	// tool call does, until the publish is done.
	done := make(chan struct{})
	agent := make(chan error, 1)
	reports := 0
	go func() {
		for {
			select {
			case <-done:
				agent <- nil
				return
			default:
			}
			seq, err := n.Log.Append(ctx, report(t, ws, "work"))
			if err == nil {
				wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
				err = n.WaitApplied(wctx, seq)
				cancel()
			}
			if err != nil {
				agent <- err
				return
			}
			reports++
		}
	}()
	p, err := n.Publish(ctx)
	close(done)
	if aerr := <-agent; aerr != nil {
		t.Fatalf("an agent's event during the publish: %v", aerr)
	}
	if err != nil {
		t.Fatal(err)
	}
	if p.Count < rules {
		t.Fatalf("published %d events, want at least %d", p.Count, rules)
	}
	t.Logf("%d reports during the publish; its events came in %d runs", reports, len(p.Runs))

	if _, err := n.CatchUp(ctx); err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{0, rules / 2, rules - 1} {
		path := fmt.Sprintf("g%02d/RULE%04d.md", i%10, i)
		if _, ok := n.Store.ObjectIDByPath(content.NSRule, path); !ok {
			t.Fatalf("%s is not in the manifest", path)
		}
	}
	live, err := n.Store.Digest()
	if err != nil {
		t.Fatal(err)
	}
	rebuilt, err := projections.Rebuild(ctx, n.Log, t.TempDir(), projections.Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rebuilt.Close()
	want, err := rebuilt.Digest()
	if err != nil {
		t.Fatal(err)
	}
	if live != want || n.Store.Checkpoint() != rebuilt.Checkpoint() {
		t.Fatalf("read models after the publish: %s at %d; rebuilt from the ledger: %s at %d",
			live, n.Store.Checkpoint(), want, rebuilt.Checkpoint())
	}
}

// The owner's checkpoints wait for a large publish: its events are one
// run of sequences, and a checkpoint follows them.
func TestPublish_LargeIsNotSplitByCheckpoints(t *testing.T) {
	ctx := context.Background()
	ws := newWorkspace(t)
	writeRules(t, ws, node.BulkPublish+50)
	h := attach(t, ws, func(o *node.Options) { o.CheckpointEvery = 10 })
	if !h.IsOwner() {
		t.Fatal("the handle does not own the workspace")
	}
	p, err := h.Publish(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Runs) != 1 {
		t.Fatalf("the publish's %d events came in runs %v, want one run", p.Count, p.Runs)
	}
	last := p.Runs[0].To
	errFound := errors.New("found")
	deadline := time.Now().Add(10 * time.Second)
	for {
		err := h.Replay(ctx, last+1, func(ev events.Event) error {
			if ev.Type == events.TypeCheckpoint {
				return errFound
			}
			return nil
		})
		if errors.Is(err, errFound) {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		if time.Now().After(deadline) {
			t.Fatalf("no checkpoint after the publish's events (through %d)", last)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A hold stops the projector's reading: what is appended meanwhile is
// applied once it is released, a second hold waits for the first, and a
// held node closes.
func TestHoldProjector(t *testing.T) {
	ctx := context.Background()
	ws := newWorkspace(t)
	n := openNode(t, ws)
	closed := false
	defer func() {
		if !closed {
			n.Close()
		}
	}()

	release, err := node.HoldProjector(ctx, n)
	if err != nil {
		t.Fatal(err)
	}
	seq, err := n.Log.Append(ctx, report(t, ws, "held"))
	if err != nil {
		t.Fatal(err)
	}
	wctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	err = n.WaitApplied(wctx, seq)
	cancel()
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("wait for an event appended while held: %v, want the deadline", err)
	}

	second := make(chan func(), 1)
	go func() {
		r, err := node.HoldProjector(ctx, n)
		if err != nil {
			t.Error(err)
		}
		second <- r
	}()
	select {
	case <-second:
		t.Fatal("a second hold did not wait for the first")
	case <-time.After(100 * time.Millisecond):
	}
	release()
	release() // a second call does nothing
	release2 := <-second
	if got := n.Store.Checkpoint(); got >= seq {
		t.Fatalf("the projector applied up to %d under the second hold", got)
	}
	release2()
	wctx, cancel = context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := n.WaitApplied(wctx, seq); err != nil {
		t.Fatalf("after the release: %v", err)
	}

	if _, err := node.HoldProjector(ctx, n); err != nil {
		t.Fatal(err)
	}
	closeDone := make(chan error, 1)
	go func() { closeDone <- n.Close() }()
	select {
	case err := <-closeDone:
		closed = true
		if err != nil {
			t.Fatalf("close while held: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("close while held did not return")
	}
}

// A large publish runs the collector at gcpace.LeanPercent, and the
// process's own setting is back once it ends.
func TestPublish_LargeCollectsLean(t *testing.T) {
	t.Setenv("GOGC", "")
	before := debug.SetGCPercent(100)
	defer debug.SetGCPercent(before)
	ws := newWorkspace(t)
	writeRules(t, ws, node.BulkPublish+50)
	n := openNode(t, ws)
	defer n.Close()

	gogc := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	seen := make(chan bool)
	stop := make(chan struct{})
	go func() {
		lean := false
		for {
			metrics.Read(gogc)
			lean = lean || gogc[0].Value.Uint64() == gcpace.LeanPercent
			select {
			case <-stop:
				seen <- lean
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	_, err := n.Publish(context.Background())
	close(stop)
	if lean := <-seen; !lean {
		t.Error("the collector never ran at the lean percentage during the publish")
	}
	if err != nil {
		t.Fatal(err)
	}
	if metrics.Read(gogc); gogc[0].Value.Uint64() != 100 {
		t.Fatalf("GOGC %d after the publish, want the process's 100", gogc[0].Value.Uint64())
	}
}
