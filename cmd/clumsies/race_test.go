package main_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/clumsies/clumsies/mcp"
	"github.com/clumsies/clumsies/node"
	"github.com/clumsies/clumsies/node/nodetest"
	"github.com/clumsies/clumsies/workspace"
)

// raceRounds is how often each draft race runs.
const raceRounds = 200

// racer is one agent of a race: an MCP client bound to its own session.
type racer interface {
	Call(ctx context.Context, tool string, args any) (map[string]any, bool, error)
}

// raceWorkspace is a workspace with one rule per racer to rename (R<k>)
// and one rule they all update (U).
func raceWorkspace(tb testing.TB, racers int) string {
	tb.Helper()
	dir := newWorkspace(tb)
	rules := filepath.Join(dir, ".clumsies", "rules", "race")
	if err := os.MkdirAll(rules, 0o755); err != nil {
		tb.Fatal(err)
	}
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(rules, name), []byte(body), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	write("U.md", "# U\n\nThe rule every racer updates.\n")
	for k := range racers {
		write(fmt.Sprintf("R%d.md", k), fmt.Sprintf("# R%d\n\nRacer %d renames this one.\n", k, k))
	}
	return dir
}

// raceIDs maps the paths of the race rules to their ids.
func raceIDs(tb testing.TB, r racer) map[string]string {
	tb.Helper()
	res, isErr, err := r.Call(context.Background(), "memdisc", map[string]any{"group": "race"})
	if err != nil || isErr {
		tb.Fatalf("memdisc: %v %v", err, res)
	}
	ids := map[string]string{}
	for _, it := range res["items"].([]any) {
		m := it.(map[string]any)
		ids[m["path"].(string)] = m["id"].(string)
	}
	return ids
}

// outcome is the answer one racer got.
type outcome struct {
	ok   bool
	code string
	res  map[string]any
}

// race has every racer make its call at the same moment and returns the
// answers, in racer order.
func race(tb testing.TB, racers []racer, args func(k int) map[string]any) []outcome {
	tb.Helper()
	out := make([]outcome, len(racers))
	errs := make([]error, len(racers))
	start := make(chan struct{})
	var wg sync.WaitGroup
	for k, r := range racers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			res, isErr, err := r.Call(ctx, "artifact", args(k))
			errs[k] = err
			out[k] = outcome{ok: !isErr, res: res}
			if isErr {
				out[k].code, _ = res["code"].(string)
			}
		}()
	}
	close(start)
	wg.Wait()
	for k, err := range errs {
		if err != nil {
			tb.Fatalf("racer %d: %v", k, err)
		}
	}
	return out
}

// oneWinner checks that exactly one racer won and every other got code;
// it returns the winner.
func oneWinner(tb testing.TB, what string, round int, got []outcome, code string) int {
	tb.Helper()
	winner := -1
	for k, o := range got {
		switch {
		case o.ok && winner >= 0:
			tb.Fatalf("%s, round %d: racers %d and %d both won", what, round, winner, k)
		case o.ok:
			winner = k
		case o.code != code:
			tb.Fatalf("%s, round %d: racer %d got %s (%v), want %s", what, round, k, o.code, o.res, code)
		}
	}
	if winner < 0 {
		tb.Fatalf("%s, round %d: nobody won: %v", what, round, got)
	}
	return winner
}

// body loads id through r and returns the body it serves.
func body(tb testing.TB, r racer, id string) string {
	tb.Helper()
	res, isErr, err := r.Call(context.Background(), "memload", map[string]any{"ids": []string{id}, "knownHashes": map[string]any{id: ""}})
	if err != nil || isErr {
		tb.Fatalf("memload %s: %v %v", id, err, res)
	}
	c, _ := res["items"].([]any)[0].(map[string]any)["content"].(string)
	// Rules and workflows end with the refer reminder; the body is before it.
	b, _, _ := strings.Cut(c, "\n---\n")
	return b
}

func discard(tb testing.TB, r racer, id string) {
	tb.Helper()
	res, isErr, err := r.Call(context.Background(), "artifact", map[string]any{"resource": "rule", "op": map[string]any{"discard": map[string]any{"id": id}}})
	if err != nil || isErr {
		tb.Fatalf("discard %s: %v %v", id, err, res)
	}
}

// draftBody returns the body of the open draft of id, as h reads it.
func draftBody(tb testing.TB, h *node.Handle, id string) string {
	tb.Helper()
	st, err := h.DraftState(context.Background(), id)
	if err != nil || st.Open == nil {
		tb.Fatalf("draft of %s: %+v, %v; want an open draft", id, st, err)
	}
	return st.Open.Body
}

// runDraftRaces runs the three races of the drafts aggregate raceRounds
// times each: a create at one path, an update of one rule, renames of
// different rules onto one target, in the workspace h reads. Exactly one
// racer wins each, the others get the contract's code, and the winner's
// body is the draft's (served under the tmp- id of a create; an update's
// is in the drafts, while memload serves the rule in force).
func runDraftRaces(t *testing.T, h *node.Handle, racers []racer) {
	ids := raceIDs(t, racers[0])
	rule := ids["race/U.md"]
	for round := range raceRounds {
		path := fmt.Sprintf("race/new-%d.md", round)
		got := race(t, racers, func(k int) map[string]any {
			return map[string]any{"resource": "rule", "op": map[string]any{"create": map[string]any{
				"path": path, "body": fmt.Sprintf("# New %d\n\nFrom racer %d.\n", round, k)}}}
		})
		w := oneWinner(t, "create", round, got, "draft_exists")
		if b, want := body(t, racers[(w+1)%len(racers)], got[w].res["id"].(string)), fmt.Sprintf("# New %d\n\nFrom racer %d.\n", round, w); b != want {
			t.Fatalf("create, round %d: the draft holds %q, want the winner's %q", round, b, want)
		}

		got = race(t, racers, func(k int) map[string]any {
			return map[string]any{"resource": "rule", "op": map[string]any{"update": map[string]any{
				"id": rule, "body": fmt.Sprintf("# U\n\nRound %d, racer %d.\n", round, k)}}}
		})
		w = oneWinner(t, "update", round, got, "incompatible_draft")
		if b, want := draftBody(t, h, rule), fmt.Sprintf("# U\n\nRound %d, racer %d.\n", round, w); b != want {
			t.Fatalf("update, round %d: the draft holds %q, want the winner's %q", round, b, want)
		}
		if b, want := body(t, racers[w], rule), "# U\n\nThe rule every racer updates.\n"; b != want {
			t.Fatalf("update, round %d: memload serves %q, want the rule in force %q", round, b, want)
		}
		discard(t, racers[w], rule)

		target := fmt.Sprintf("race/target-%d.md", round)
		got = race(t, racers, func(k int) map[string]any {
			return map[string]any{"resource": "rule", "op": map[string]any{"rename": map[string]any{
				"id": ids[fmt.Sprintf("race/R%d.md", k)], "new_path": target}}}
		})
		w = oneWinner(t, "rename", round, got, "draft_exists")
		discard(t, racers[w], ids[fmt.Sprintf("race/R%d.md", w)])
	}
}

func TestServe_DraftRaces(t *testing.T) {
	if testing.Short() {
		t.Skip("races real processes")
	}
	for _, n := range []int{2, 4} {
		t.Run(fmt.Sprintf("%dProcesses", n), func(t *testing.T) {
			dir := raceWorkspace(t, n)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			c, err := nodetest.Start(ctx, binary, dir, n, "--sync", "interval")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { c.Close() })
			racers := make([]racer, n)
			for k, p := range c.Procs {
				racers[k] = p.Client
			}
			ws, err := workspace.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			h, err := node.Attach(ctx, ws, node.Options{})
			if err != nil {
				t.Fatal(err)
			}
			runDraftRaces(t, h, racers)
			if err := h.Close(); err != nil {
				t.Fatal(err)
			}
			if err := c.Close(); err != nil {
				t.Fatal(err)
			}
			if out := mustRun(t, dir, "verify"); !strings.Contains(out, "ok:") {
				t.Fatalf("verify: %s", out)
			}
		})
	}
}

// TestServe_DraftRacesInOneProcess runs the same races between four MCP
// sessions of one process.
func TestServe_DraftRacesInOneProcess(t *testing.T) {
	dir := raceWorkspace(t, 4)
	ws, err := workspace.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	h, err := node.Attach(ctx, ws, node.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	if _, err := h.Publish(ctx); err != nil {
		t.Fatal(err)
	}
	srv := mcp.NewServer(mcp.Config{WorkspaceID: ws.ID(), Catalog: h, Ledger: h, Version: "test"})
	racers := make([]racer, 4)
	for k := range racers {
		cl, err := mcp.Connect(ctx, srv)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cl.Close() })
		setup(t, cl, fmt.Sprintf("racer-%d", k))
		racers[k] = cl
	}
	runDraftRaces(t, h, racers)
	r, err := h.Verify(ctx)
	if err != nil || !r.OK() {
		t.Fatalf("verify: %v %v", err, r.Problems)
	}
}
