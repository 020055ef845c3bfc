package main_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// eventLines parses `clumsies events --json`.
func eventLines(tb testing.TB, dir string, args ...string) []map[string]any {
	tb.Helper()
	return jsonLines(tb, dir, append([]string{"events", "--json"}, args...)...)
}

// jsonLines runs the command line args in dir and parses each line it
// prints as a JSON object.
func jsonLines(tb testing.TB, dir string, args ...string) []map[string]any {
	tb.Helper()
	out := mustRun(tb, dir, args...)
	var objs []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if line == "" {
			continue
		}
		var obj map[string]any
		if err := json.Unmarshal([]byte(line), &obj); err != nil {
			tb.Fatalf("%s printed a line that is not JSON: %q", strings.Join(args, " "), line)
		}
		objs = append(objs, obj)
	}
	return objs
}

var digestRE = regexp.MustCompile(`digest (sha256:[0-9a-f]{64})`)

func digestOf(tb testing.TB, out string) string {
	tb.Helper()
	m := digestRE.FindStringSubmatch(out)
	if m == nil {
		tb.Fatalf("no digest in %q", out)
	}
	return m[1]
}

func TestCLI_PublishStatsEventsRebuildVerify(t *testing.T) {
	dir := newWorkspace(t)

	out := mustRun(t, dir, "publish")
	if got := strings.Count(out, "published "); got != 3 {
		t.Fatalf("first publish: got %d published lines, want 3 (META_PROMPT, a rule, a workflow):\n%s", got, out)
	}
	if out := mustRun(t, dir, "publish"); !strings.Contains(out, "Nothing to publish") {
		t.Fatalf("second publish: got %q, want nothing to publish", out)
	}

	evs := eventLines(t, dir)
	if len(evs) != 3 {
		t.Fatalf("got %d events, want 3 catalog.publish", len(evs))
	}
	for i, ev := range evs {
		if ev["type"] != "catalog.publish" || ev["seq"] != float64(i+1) || ev["v"] != float64(1) {
			t.Fatalf("event %d: got %v, want catalog.publish with seq %d", i, ev, i+1)
		}
	}
	if got := eventLines(t, dir, "--type", "attest"); len(got) != 0 {
		t.Fatalf("--type attest: got %d events, want 0", len(got))
	}

	var st struct {
		WorkspaceID string `json:"workspaceId"`
		Events      int    `json:"events"`
		Sessions    int    `json:"sessions"`
		Rules       []struct {
			ID, Path, Kind string
			Refs           int
			Constraints    []struct {
				ID   string
				Refs int
			}
		} `json:"rules"`
		Tools []map[string]any `json:"tools"`
	}
	if err := json.Unmarshal([]byte(mustRun(t, dir, "stats", "--json")), &st); err != nil {
		t.Fatal(err)
	}
	if st.Events != 3 || len(st.Rules) != 2 || !strings.HasPrefix(st.WorkspaceID, "ws-") {
		t.Fatalf("stats: got %+v, want 3 events and 2 rules", st)
	}

	first := digestOf(t, mustRun(t, dir, "rebuild"))
	second := digestOf(t, mustRun(t, dir, "rebuild"))
	if first != second {
		t.Fatalf("rebuild digests differ: %s then %s", first, second)
	}
	if out := mustRun(t, dir, "verify"); !strings.Contains(out, "ok:") {
		t.Fatalf("verify: got %q, want ok", out)
	}

	t.Run("VerifyNoticesUnpublishedEdit", func(t *testing.T) {
		rule := filepath.Join(dir, ".clumsies/rules/style/ERRORS.md")
		if err := os.WriteFile(rule, []byte("# Errors\n\n## New\n\nA new section.\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		r := run(t, dir, "verify")
		if r.code != 1 || !strings.Contains(r.stdout, "clumsies publish") {
			t.Fatalf("verify after an edit: got exit %d and %q, want exit 1 saying to publish", r.code, r.stdout)
		}
		mustRun(t, dir, "publish")
		mustRun(t, dir, "verify")
	})
}

func TestCLI_BadInput(t *testing.T) {
	t.Run("NotUTF8", func(t *testing.T) {
		dir := newWorkspace(t)
		bad := filepath.Join(dir, ".clumsies/rules/style/BAD.md")
		if err := os.WriteFile(bad, []byte("# bad \xff\xfe\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		r := run(t, dir, "publish")
		if r.code != 3 || !strings.Contains(r.stderr, "rules/style/BAD.md") || !strings.Contains(r.stderr, "UTF-8") {
			t.Fatalf("got exit %d, stderr %q; want exit 3 (held back) naming the file and UTF-8", r.code, r.stderr)
		}
		if n := strings.Count(strings.TrimSpace(r.stderr), "\n"); n != 0 {
			t.Fatalf("got a %d-line report, want one line: %q", n+1, r.stderr)
		}
	})
	t.Run("TooLarge", func(t *testing.T) {
		dir := newWorkspace(t)
		big := filepath.Join(dir, ".clumsies/context/BIG.md")
		os.MkdirAll(filepath.Dir(big), 0o755)
		if err := os.WriteFile(big, []byte(strings.Repeat("a", 1<<20+1)), 0o644); err != nil {
			t.Fatal(err)
		}
		r := run(t, dir, "publish")
		if r.code != 3 || !strings.Contains(r.stderr, "context/BIG.md") {
			t.Fatalf("got exit %d, stderr %q; want an error naming the file", r.code, r.stderr)
		}
	})
	t.Run("NoWorkspace", func(t *testing.T) {
		r := run(t, t.TempDir(), "stats")
		if r.code == 0 || !strings.Contains(r.stderr, "clumsies init") {
			t.Fatalf("got exit %d, stderr %q; want advice to run clumsies init", r.code, r.stderr)
		}
	})
	t.Run("StateIsAFile", func(t *testing.T) {
		dir := newWorkspace(t)
		state := filepath.Join(dir, ".clumsies/state")
		if err := os.WriteFile(state, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		r := run(t, dir, "stats")
		if r.code == 0 || !strings.Contains(r.stderr, state) {
			t.Fatalf("got exit %d, stderr %q; want an error naming %s", r.code, r.stderr, state)
		}
	})
	t.Run("CorruptProjections", func(t *testing.T) {
		dir := newWorkspace(t)
		mustRun(t, dir, "publish")
		proj := filepath.Join(dir, ".clumsies/state/projections")
		entries, err := os.ReadDir(proj)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), "MANIFEST") || e.Name() == "CURRENT" {
				os.WriteFile(filepath.Join(proj, e.Name()), []byte("garbage"), 0o644)
			}
		}
		// Read models are derived data: the owner rebuilds damaged ones
		// from the ledger, says so, and goes on.
		r := run(t, dir, "stats")
		if r.code != 0 || !strings.Contains(r.stderr, "rebuilding the read models from the ledger") || !strings.Contains(r.stdout, "3 published objects") {
			t.Fatalf("got exit %d, stdout %q, stderr %q; want the stats, after a rebuild it reports", r.code, r.stdout, r.stderr)
		}
		if out := mustRun(t, dir, "verify"); !strings.Contains(out, "ok:") {
			t.Fatalf("verify after the rebuild: %q", out)
		}
	})
	t.Run("BrokenConfig", func(t *testing.T) {
		dir := newWorkspace(t)
		cfg := filepath.Join(dir, ".clumsies/config.toml")
		os.WriteFile(cfg, []byte("workspace_id = \n"), 0o644)
		r := run(t, dir, "stats")
		if r.code == 0 || !strings.Contains(r.stderr, cfg) {
			t.Fatalf("got exit %d, stderr %q; want an error naming %s", r.code, r.stderr, cfg)
		}
	})
	t.Run("UnknownCommand", func(t *testing.T) {
		r := run(t, t.TempDir(), "frobnicate")
		if r.code != 2 || !strings.Contains(r.stderr, "frobnicate") {
			t.Fatalf("got exit %d, stderr %q; want exit 2 naming the command", r.code, r.stderr)
		}
	})
}

// TestCLI_DemoTableEqualsItsLedger runs the demo several times: the usage
// table it prints counts exactly the events of the ledger it prints (the
// table is read once the projections have applied all of them).
func TestCLI_DemoTableEqualsItsLedger(t *testing.T) {
	for round := range 3 {
		out := mustRun(t, t.TempDir(), "demo")
		ledger, table, ok := strings.Cut(out, "== Usage (clumsies stats) ==")
		if !ok {
			t.Fatalf("round %d: no usage table in:\n%s", round, out)
		}
		_, ledger, _ = strings.Cut(ledger, "== The ledger: one immutable event per tool call ==")
		var events, toolEvents int
		for line := range strings.Lines(ledger) {
			f := strings.Fields(line)
			if len(f) < 3 {
				continue
			}
			events++
			if strings.HasPrefix(f[2], "attest.") {
				toolEvents++
			}
		}
		var counted, sessions int
		// "Workspace [NAME (]ws-...[)]: N events, ..."; a name may hold spaces.
		_, header, _ := strings.Cut(table[strings.Index(table, "Workspace"):], ": ")
		if _, err := fmt.Sscanf(header, "%d events, %d sessions", &counted, &sessions); err != nil {
			t.Fatalf("round %d: read the table's header: %v\n%s", round, err, table)
		}
		if counted != events {
			t.Errorf("round %d: the table counts %d events, the ledger printed %d", round, counted, events)
		}
		calls := 0
		_, tools, _ := strings.Cut(table, "TOOL")
		for line := range strings.Lines(tools) {
			f := strings.Fields(line)
			if len(f) == 5 && f[0] != "CALLS" {
				n, err := strconv.Atoi(f[1])
				if err == nil {
					calls += n
				}
			}
		}
		if calls != toolEvents {
			t.Errorf("round %d: the tool table counts %d calls, the ledger printed %d tool events", round, calls, toolEvents)
		}
		if sessions != 1 {
			t.Errorf("round %d: got %d sessions, want the demo's one", round, sessions)
		}
	}
}

// TestCLI_DemoSaysHowToKeep: the demo deletes its workspace and says how
// to keep it; with --keep the workspace stays where it says.
func TestCLI_DemoSaysHowToKeep(t *testing.T) {
	where := regexp.MustCompile(`Demo workspace ws-[0-9a-f]+ in (\S+)`)
	out := mustRun(t, t.TempDir(), "demo")
	m := where.FindStringSubmatch(out)
	if m == nil || !strings.Contains(out, "clumsies demo --keep") {
		t.Fatalf("demo printed:\n%s\nwant where its workspace is and how to keep it", out)
	}
	if _, err := os.Stat(m[1]); !os.IsNotExist(err) {
		t.Errorf("the demo workspace %s is still there (%v)", m[1], err)
	}

	out = mustRun(t, t.TempDir(), "demo", "--keep")
	m = where.FindStringSubmatch(out)
	if m == nil || !strings.Contains(out, "Kept the workspace in "+m[1]) {
		t.Fatalf("demo --keep printed:\n%s\nwant where it kept the workspace", out)
	}
	t.Cleanup(func() { os.RemoveAll(m[1]) })
	mustRun(t, t.TempDir(), "stats", "--workspace", m[1])
}
