package main_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clumsies/clumsies/mcp"
)

const teamRule = "# Team style\n\nHow the team writes code.\n\n## Errors\n\n- wrap them\n- say what to do next\n"

// writeTree writes files (path under the content root -> body) into a new
// content tree and returns its folder.
func writeTree(tb testing.TB, files map[string]string) string {
	tb.Helper()
	root := tb.TempDir()
	for p, body := range files {
		f := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(f, []byte(body), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return root
}

type pushResult struct {
	Revision  uint64
	Published []struct {
		ID, Path string
		Revision uint64
	}
}

func pushTree(tb testing.TB, hp *hubProcess, root, team string) pushResult {
	tb.Helper()
	var res pushResult
	out := mustRun(tb, hp.dir, "hub", "catalog", "push", root, "--team", team, "--json")
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		tb.Fatalf("%v: %s", err, out)
	}
	return res
}

// discItem finds the memdisc item at path, nil if there is none.
func discItem(tb testing.TB, cl *mcp.Client, path string) map[string]any {
	tb.Helper()
	res := call(tb, cl, "memdisc", map[string]any{})
	items, _ := res["items"].([]any)
	for _, it := range items {
		m := it.(map[string]any)
		if m["path"] == path {
			return m
		}
	}
	return nil
}

// waitFor polls ok every 20 ms until it holds, failing tb after a minute.
func waitFor(tb testing.TB, what string, ok func() bool) time.Duration {
	tb.Helper()
	start := time.Now()
	for !ok() {
		if time.Since(start) > time.Minute {
			tb.Fatalf("%s: not after a minute", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
	return time.Since(start)
}

// TestHubCatalog_EndToEnd pushes a team catalog with the command line,
// joins a workspace to the team, and checks what its agents see: the team
// rule in memdisc with its source and revision, shadowing the repository
// file at the same path (publish warns), memload serving its body, memref
// recording its revision, and a change at the hub served soon after.
func TestHubCatalog_EndToEnd(t *testing.T) {
	hp := newHub(t)
	tree := writeTree(t, map[string]string{"rules/team/STYLE.md": teamRule, "META_PROMPT.md": "# Meta\n"})
	first := pushTree(t, hp, tree, "red")
	if len(first.Published) != 1 || first.Revision != 1 {
		t.Fatalf("push: got %+v, want one object at revision 1", first)
	}
	again := run(t, hp.dir, "hub", "catalog", "push", tree, "--team", "red")
	if again.code != 0 || !strings.Contains(again.stdout, "Nothing to push") {
		t.Fatalf("a second push of the same tree: %+v, want nothing to push", again)
	}
	teamID := first.Published[0].ID

	a := newWorkspace(t)
	repoRule := filepath.Join(a, ".clumsies", "rules", "team", "STYLE.md")
	if err := os.MkdirAll(filepath.Dir(repoRule), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(repoRule, []byte("# Repo style\n\nOurs.\n\n## Errors\n\n- panic\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	hp.join(t, a, "red", "ann")
	_, cl := serve(t, a)
	setup(t, cl, "team-1")

	var item map[string]any
	took := waitFor(t, "the team rule in memdisc", func() bool {
		item = discItem(t, cl, "team/STYLE.md")
		return item != nil && item["source"] == "team"
	})
	t.Logf("the team catalog reached the agent %s after serve started", took)
	if item["id"] != teamID || item["revision"] != float64(1) || item["shadows"] == nil {
		t.Fatalf("memdisc item: got %v, want %s at revision 1 shadowing the repository's file", item, teamID)
	}
	pub := run(t, a, "publish")
	if pub.code != 0 || !strings.Contains(pub.stderr, "team/STYLE.md is also in the team's catalog") {
		t.Fatalf("publish: %+v, want a warning about team/STYLE.md", pub)
	}

	load := call(t, cl, "memload", map[string]any{"ids": []string{teamID}, "knownHashes": map[string]any{teamID: ""}})
	items := load["items"].([]any)
	got := items[0].(map[string]any)
	if body, _ := got["content"].(string); !strings.HasPrefix(body, teamRule+"\n---\n") || got["source"] != "team" {
		t.Fatalf("memload: got %v, want the team rule's body", got)
	}
	call(t, cl, "memref", map[string]any{"refs": []any{map[string]any{"ruleId": teamID, "constraintId": "Errors/1"}}})
	evs := mustRun(t, a, "events", "--type", "attest.refer", "--json")
	if !strings.Contains(evs, `"revision":1`) {
		t.Fatalf("the ref's event: %s, want revision 1", evs)
	}

	changed := teamRule + "- never panic\n"
	if err := os.WriteFile(filepath.Join(tree, "rules", "team", "STYLE.md"), []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	second := pushTree(t, hp, tree, "red")
	took = waitFor(t, "the changed team rule in memload", func() bool {
		load := call(t, cl, "memload", map[string]any{"ids": []string{teamID}, "knownHashes": map[string]any{teamID: ""}})
		it := load["items"].([]any)[0].(map[string]any)
		body, _ := it["content"].(string)
		return strings.HasPrefix(body, changed+"\n---\n") && it["revision"] == float64(second.Revision)
	})
	t.Logf("a change at the hub reached the agent after %s", took)
	call(t, cl, "memref", map[string]any{"refs": []any{
		map[string]any{"ruleId": teamID, "constraintId": "Errors/1"},
		map[string]any{"ruleId": teamID, "constraintId": "Errors/3"}}})

	// The hub counts the refs against the revisions they were made at.
	var rule struct {
		ID, Path, Source string
		Refs             uint64
		Revisions        []struct{ Revision, Refs uint64 }
	}
	waitFor(t, "the refs in the hub's stats", func() bool {
		var st struct {
			Rules    []json.RawMessage
			Coverage struct{ Unlisted uint64 }
		}
		out := mustRun(t, hp.dir, "hub", "stats", "--json", "--team", "red", "--rule", teamID)
		if err := json.Unmarshal([]byte(out), &st); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		if len(st.Rules) != 1 {
			return false
		}
		json.Unmarshal(st.Rules[0], &rule)
		return rule.Refs == 3
	})
	want := fmt.Sprintf("[{1 1} {%d 2}]", second.Revision)
	if got := fmt.Sprint(rule.Revisions); got != want || rule.Source != "team" || rule.Path != "team/STYLE.md" {
		t.Fatalf("hub stats of the team rule: %+v, want revisions %s, source team, path team/STYLE.md", rule, want)
	}

	show := mustRun(t, hp.dir, "hub", "catalog", "show", "--team", "red")
	hist := mustRun(t, hp.dir, "hub", "catalog", "history", teamID, "--team", "red")
	if !strings.Contains(show, "team/STYLE.md") || strings.Count(hist, "team/STYLE.md") != 2 {
		t.Fatalf("show:\n%s\nhistory:\n%s\nwant the rule and its two revisions", show, hist)
	}
	for _, bad := range [][]string{
		{"hub", "catalog", "push", tree},
		{"hub", "catalog", "push", "--team", "red"},
		{"hub", "catalog", "push", tree, "--team", "red", "extra"},
		{"hub", "catalog", "history", "--team", "red"},
		{"hub", "catalog", "nope"},
		{"hub", "catalog"},
		{"hub", "review"},
		{"hub", "review", "nope"},
		{"hub", "review", "accept"},
		{"hub", "review", "show", "a", "b"},
		{"hub", "review", "list", "extra"},
		{"hub", "review", "decline", "x"},
		{"hub", "review", "list", "--reason", "r"},
	} {
		if r := run(t, hp.dir, bad...); r.code != 2 {
			t.Fatalf("clumsies %v: exit %d (%s), want 2", bad, r.code, r.stderr)
		}
	}
	bad := writeTree(t, map[string]string{"rules/x/BAD.md": "no title\n"})
	if r := run(t, hp.dir, "hub", "catalog", "push", bad, "--team", "red"); r.code == 0 || !strings.Contains(r.stderr, "rules/x/BAD.md: it has no title") {
		t.Fatalf("a push of a malformed rule: %+v, want it refused naming the file", r)
	}
}
