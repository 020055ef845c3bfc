package main_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestServe_OwnerKilledDuringDrafts kills the owning `clumsies serve`
// twice while three other processes stage drafts as fast as they can, each
// at paths of its own. A decision that was read from one owner and appended
// to the next (or appended by the one that died, its answer lost) must
// still get the answer of its own decision: every create is answered ok,
// none draft_exists (nobody else uses its path), every acknowledged
// create is in the ledger once with the body that was sent, and verify
// passes.
func TestServe_OwnerKilledDuringDrafts(t *testing.T) {
	dir := newWorkspace(t)
	c := cluster(t, dir, 5)
	const calls = 150
	var (
		mu     sync.Mutex
		acked  = map[string]string{} // path -> body
		wrong  []string
		killed = map[int]bool{}
	)
	victims := make(chan struct{}, 2)
	kills := 0
	killOwner := func() {
		victim, err := c.Owner()
		if err != nil {
			t.Error(err)
			return
		}
		mu.Lock()
		for k, p := range c.Procs {
			if p == victim {
				killed[k] = true
			}
		}
		mu.Unlock()
		victim.Cmd.Process.Kill()
		kills++
	}
	var wg sync.WaitGroup
	for k, p := range c.Procs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range calls {
				path := fmt.Sprintf("kill/p%d-%d.md", k, i)
				body := fmt.Sprintf("# P%d %d\n\nBody of %s.\n", k, i, path)
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				res, isErr, err := p.Client.Call(ctx, "artifact", map[string]any{"resource": "rule",
					"op": map[string]any{"create": map[string]any{"path": path, "body": body}}})
				cancel()
				mu.Lock()
				dead := killed[k]
				switch {
				case err != nil && dead:
					mu.Unlock()
					return // this process was killed
				case err != nil:
					wrong = append(wrong, fmt.Sprintf("%s: %v", path, err))
				case isErr && !dead:
					wrong = append(wrong, fmt.Sprintf("%s: %v\nstderr of pid %d:\n%s", path, res, p.Pid(), p.Stderr()))
				case !isErr:
					acked[path] = body
				}
				n := len(acked)
				mu.Unlock()
				if n == calls || n == 3*calls {
					select {
					case victims <- struct{}{}:
					default:
					}
				}
			}
		}()
	}
	go func() {
		for range 2 {
			<-victims
			killOwner()
		}
	}()
	wg.Wait()
	if kills != 2 {
		t.Fatalf("killed %d owners, want 2", kills)
	}
	if len(wrong) > 0 {
		t.Fatalf("%d wrong answers, first: %s", len(wrong), wrong[0])
	}
	for _, p := range c.Procs {
		p.Cmd.Process.Kill()
	}
	c.Close()

	stored := map[string]int{}
	bodies := map[string]string{}
	for _, ev := range eventLines(t, dir, "--type", "attest.draft.create") {
		if ev["outcome"] != "ok" {
			continue
		}
		var d struct{ Path, Body string }
		b, _ := json.Marshal(ev["data"])
		json.Unmarshal(b, &d)
		stored[d.Path]++
		bodies[d.Path] = d.Body
	}
	for path, body := range acked {
		if stored[path] != 1 || bodies[path] != body {
			t.Errorf("acknowledged create of %s: stored %d times with body %q, want once with %q", path, stored[path], bodies[path], body)
		}
	}
	for path, n := range stored {
		if n != 1 {
			t.Errorf("create of %s stored %d times", path, n)
		}
	}
	if out := mustRun(t, dir, "verify"); !strings.Contains(out, "ok:") {
		t.Fatalf("verify after the kills: %s", out)
	}
	t.Logf("%d creates acknowledged, %d stored, 2 owners killed", len(acked), len(stored))
}
