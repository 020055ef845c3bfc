package main_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/clumsies/clumsies/mcp"
)

// seeWithin bounds how long the test waits for an edit to reach the agent.
// The watch reports a change after 100 ms of quiet and the publish takes
// milliseconds, so an edit shows well within a second; the bound is
// generous so that a loaded machine cannot make the test flaky
// (`clumsies serve` logs nothing about timing; the test logs what it saw).
const seeWithin = 30 * time.Second

// TestServe_LiveContentEdits edits the content tree while an agent's
// session is open, as a user would in an editor, and checks that the agent
// sees each change without `clumsies publish`: an edit, a new file, a
// rename, a deletion; and that a bad file keeps the last good content and
// says why on stderr until it is fixed.
func TestServe_LiveContentEdits(t *testing.T) {
	dir := newWorkspace(t)
	cmd := exec.Command(binary, "serve", "--workspace", dir)
	var stderr syncWriter
	cmd.Stderr = &stderr
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cl, err := mcp.ConnectCommand(ctx, cmd)
	if err != nil {
		t.Fatalf("connect to clumsies serve: %v", err)
	}
	defer cl.Close()
	setup(t, cl, "live-edits")

	rules := filepath.Join(dir, ".clumsies/rules/style")
	errorsRule := filepath.Join(rules, "ERRORS.md")
	id := ruleID(t, cl, "style/ERRORS.md")

	// eventually waits until the agent's view satisfies ok.
	eventually := func(what string, ok func() bool) {
		t.Helper()
		start := time.Now()
		for !ok() {
			if time.Since(start) > seeWithin {
				t.Fatalf("%s: the agent did not see it within %s; serve's stderr:\n%s", what, seeWithin, stderr.String())
			}
			time.Sleep(20 * time.Millisecond)
		}
		t.Logf("%s: seen after %s", what, time.Since(start).Round(time.Millisecond))
	}
	writeFile := func(path, body string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	writeFile(errorsRule, "# Errors\n\n## Wrap\n\n- Wrap every error with the live-edit marker.\n")
	eventually("an edit", func() bool { return strings.Contains(load(t, cl, id), "live-edit marker") })

	writeFile(filepath.Join(rules, "LOGS.md"), "# Logs\n\n## Levels\n\nLog at warn or above.\n")
	eventually("a new file", func() bool { return slices.Contains(paths(t, cl), "style/LOGS.md") })

	if err := os.Rename(errorsRule, filepath.Join(rules, "WRAP.md")); err != nil {
		t.Fatal(err)
	}
	eventually("a rename", func() bool {
		p := paths(t, cl)
		return slices.Contains(p, "style/WRAP.md") && !slices.Contains(p, "style/ERRORS.md")
	})
	if got := ruleID(t, cl, "style/WRAP.md"); got != id {
		t.Errorf("the renamed rule: got id %s, want %s (a rename keeps the id)", got, id)
	}

	if err := os.Remove(filepath.Join(rules, "LOGS.md")); err != nil {
		t.Fatal(err)
	}
	eventually("a deletion", func() bool { return !slices.Contains(paths(t, cl), "style/LOGS.md") })

	// A bad file holds back only itself: a good edit made with it is
	// published, the bad file is not, and stderr names it once. A rule
	// that turns bad keeps its last published content.
	bad := filepath.Join(rules, "BAD.md")
	writeFile(bad, "# bad \xff\n")
	writeFile(filepath.Join(rules, "WRAP.md"), "# Wrap\n\nAn edit made while BAD.md is broken.\n")
	eventually("the good edit made with a bad file", func() bool { return strings.Contains(load(t, cl, id), "while BAD.md is broken") })
	eventually("the bad file reported", func() bool { return strings.Contains(stderr.String(), "rules/style/BAD.md") })
	if p := paths(t, cl); slices.Contains(p, "style/BAD.md") {
		t.Fatalf("the bad file was published: %v", p)
	}
	writeFile(filepath.Join(rules, "WRAP.md"), "# Wrap\n\nBroken \xff\n")
	eventually("the second bad file reported", func() bool { return strings.Contains(stderr.String(), "rules/style/WRAP.md") })
	if got := load(t, cl, id); !strings.Contains(got, "while BAD.md is broken") {
		t.Fatalf("a rule turned bad: the agent got %q, want its last published content", got)
	}
	if n := strings.Count(stderr.String(), "rules/style/BAD.md"); n != 1 {
		t.Errorf("the bad file was reported %d times, want once:\n%s", n, stderr.String())
	}

	// Fixed, each is published.
	writeFile(bad, "# Fine now\n")
	writeFile(filepath.Join(rules, "WRAP.md"), "# Wrap\n\nFixed while serving.\n")
	eventually("the fixed tree", func() bool {
		return strings.Contains(load(t, cl, id), "Fixed while serving") && slices.Contains(paths(t, cl), "style/BAD.md")
	})
	cl.Close() // closes stdin and waits for serve to exit
	if out := mustRun(t, dir, "verify"); !strings.Contains(out, "ok:") {
		t.Fatalf("verify after the live edits: %q", out)
	}
}

// paths returns the public paths memdisc lists.
func paths(tb testing.TB, cl *mcp.Client) []string {
	tb.Helper()
	var out []string
	for _, it := range call(tb, cl, "memdisc", map[string]any{})["items"].([]any) {
		out = append(out, it.(map[string]any)["path"].(string))
	}
	return out
}

// ruleID returns the id memdisc gives the rule at path.
func ruleID(tb testing.TB, cl *mcp.Client, path string) string {
	tb.Helper()
	for _, it := range call(tb, cl, "memdisc", map[string]any{})["items"].([]any) {
		if m := it.(map[string]any); m["path"] == path {
			return m["id"].(string)
		}
	}
	tb.Fatalf("memdisc lists no %s", path)
	return ""
}

// load returns the content memload gives for id.
func load(tb testing.TB, cl *mcp.Client, id string) string {
	tb.Helper()
	res := call(tb, cl, "memload", map[string]any{"ids": []string{id}, "knownHashes": map[string]any{id: ""}})
	s, _ := res["items"].([]any)[0].(map[string]any)["content"].(string)
	return s
}

// TestServe_LiveContentEditsAfterTakeover checks that the process that
// takes a workspace over watches its content tree from then on.
func TestServe_LiveContentEditsAfterTakeover(t *testing.T) {
	dir := newWorkspace(t)
	owner, _ := serve(t, dir)
	_, cl := serve(t, dir)
	setup(t, cl, "takeover-edits")
	id := ruleID(t, cl, "style/ERRORS.md")

	// SIGKILL; the MCP client of that process reaps it (a second Wait here
	// would race with it).
	owner.Process.Kill()
	// The survivor's next call waits for the takeover.
	call(t, cl, "agentreport", map[string]any{"summary": "after the takeover"})
	if err := os.WriteFile(filepath.Join(dir, ".clumsies/rules/style/ERRORS.md"), []byte("# Errors\n\nEdited after the takeover.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	for !strings.Contains(load(t, cl, id), "Edited after the takeover") {
		if time.Since(start) > seeWithin {
			t.Fatalf("the new owner did not publish an edit within %s", seeWithin)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestEventsFollow_PublishesEdits checks that a long-lived `events
// --follow` that owns the workspace publishes content edits for the
// serve processes that work through it.
func TestEventsFollow_PublishesEdits(t *testing.T) {
	dir := newWorkspace(t)
	mustRun(t, dir, "publish")
	follow := exec.Command(binary, "events", "--follow", "--workspace", dir)
	stdout := &syncWriter{}
	follow.Stdout = stdout
	if err := follow.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		follow.Process.Signal(os.Interrupt)
		follow.Wait()
	}()
	// The follower owns the workspace once it prints the ledger.
	start := time.Now()
	for !strings.Contains(stdout.String(), "catalog.publish") {
		if time.Since(start) > seeWithin {
			t.Fatal("events --follow printed nothing")
		}
		time.Sleep(20 * time.Millisecond)
	}
	_, cl := serve(t, dir)
	setup(t, cl, "follow-edits")
	id := ruleID(t, cl, "style/ERRORS.md")
	if err := os.WriteFile(filepath.Join(dir, ".clumsies/rules/style/ERRORS.md"), []byte("# Errors\n\nEdited while events --follow owns the workspace.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	start = time.Now()
	for !strings.Contains(load(t, cl, id), "while events --follow owns") {
		if time.Since(start) > seeWithin {
			t.Fatalf("the edit did not reach the agent within %s", seeWithin)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
