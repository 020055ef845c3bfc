package main_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"testing"
)

// TestHubReview_TwoHubsAcceptOneReview runs three hubs as one cluster and
// accepts each of a workspace's drafts on two hubs at once: one accept
// stores the review's outcome and answers applied, the other is refused as
// decided (never conflicted by the first, never a second outcome), and the
// object gets one new revision.
func TestHubReview_TwoHubsAcceptOneReview(t *testing.T) {
	hubs := newCluster(t)
	const n = 3
	files := map[string]string{}
	for i := range n {
		files[fmt.Sprintf("rules/team/R%d.md", i)] = teamRule
	}
	pushed := pushTree(t, hubs[0], writeTree(t, files), "red")
	ws := newWorkspace(t)
	hubs[0].join(t, ws, "red", "ann")
	_, cl := serve(t, ws)
	setup(t, cl, "s-1")
	waitFor(t, "the team rules", func() bool { return discItem(t, cl, fmt.Sprintf("team/R%d.md", n-1)) != nil })
	for _, p := range pushed.Published {
		stage(t, cl, p.ID, teamRule+"- from "+p.Path+"\n")
	}
	var rs []reviewRow
	for _, hp := range hubs[:2] {
		waitFor(t, "the drafts in a hub's review queue", func() bool { rs = reviews(t, hp); return len(rs) == n })
	}
	for _, r := range rs {
		type answer struct {
			out    []byte
			stderr string
			err    error
		}
		answers := make([]answer, 2)
		var wg sync.WaitGroup
		for i, hp := range hubs[:2] {
			wg.Add(1)
			go func() {
				defer wg.Done()
				cmd := exec.Command(binary, "hub", "review", "accept", r.ID, "--json")
				cmd.Dir = hp.dir
				var stderr bytes.Buffer
				cmd.Stderr = &stderr
				out, err := cmd.Output()
				answers[i] = answer{out, stderr.String(), err}
			}()
		}
		wg.Wait()
		accepted := 0
		for i, a := range answers {
			var exit *exec.ExitError
			switch {
			case a.err == nil:
				var row reviewRow
				if err := json.Unmarshal(a.out, &row); err != nil || row.Status != "applied" {
					t.Fatalf("review %s: hub-%d answered %s (%v), want applied or refused as decided", r.ID, i+1, a.out, err)
				}
				accepted++
			case errors.As(a.err, &exit) && strings.Contains(a.stderr, "no longer in review"):
			default:
				t.Fatalf("review %s: hub-%d: %v: %s", r.ID, i+1, a.err, a.stderr)
			}
		}
		if accepted != 1 {
			logHubs(t, hubs)
			t.Fatalf("review %s: %d hubs accepted it, want one (the other refused as decided)", r.ID, accepted)
		}
		var hist []struct{ Revision uint64 }
		if err := json.Unmarshal([]byte(mustRun(t, hubs[2].dir, "hub", "catalog", "history", r.DraftID, "--team", "red", "--json")), &hist); err != nil {
			t.Fatal(err)
		}
		if len(hist) != 2 {
			logHubs(t, hubs)
			t.Fatalf("review %s: %s has %d revisions, want 2 (the push and the accept)", r.ID, r.DraftID, len(hist))
		}
	}
}

// logHubs logs what each hub said on stderr.
func logHubs(tb testing.TB, hubs []*hubProcess) {
	tb.Helper()
	for i, hp := range hubs {
		tb.Logf("hub-%d said:\n%s", i+1, hp.said.String())
	}
}
