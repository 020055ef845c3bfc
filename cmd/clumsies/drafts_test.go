package main_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/mcp"
)

// draftJSON is what the drafts commands print of a draft.
type draftJSON struct {
	ID       string `json:"id"`
	Op       string `json:"op"`
	Path     string `json:"path"`
	NewPath  string `json:"newPath"`
	Body     string `json:"body"`
	Seq      uint64 `json:"seq"`
	Status   string `json:"status"`
	Reviewer string `json:"reviewer"`
	Reason   string `json:"reason"`
	Diff     string `json:"diff"`
}

// draftsWorkspace is a workspace with rules go/A.md and go/B.md and the
// context file notes/C.md besides the starter content, published.
func draftsWorkspace(tb testing.TB) string {
	tb.Helper()
	dir := newWorkspace(tb)
	for name, body := range map[string]string{
		"rules/go/A.md":      "# A\n\n## Do\n\n- One.\n",
		"rules/go/B.md":      "# B\n\nBe brief.\n",
		"context/notes/C.md": "Notes.\n",
	} {
		p := filepath.Join(dir, ".clumsies", filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	mustRun(tb, dir, "publish")
	return dir
}

// contentTree returns every file of the workspace's content tree (all of
// .clumsies but its state) by slash path.
func contentTree(tb testing.TB, dir string) map[string]string {
	tb.Helper()
	root := filepath.Join(dir, ".clumsies")
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "state" && filepath.Dir(p) == root {
			return filepath.SkipDir
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(root, p)
		out[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

// itemsByPath lists memdisc's items by path.
func itemsByPath(tb testing.TB, cl *mcp.Client) map[string]map[string]any {
	tb.Helper()
	res := call(tb, cl, "memdisc", map[string]any{})
	out := map[string]map[string]any{}
	for _, it := range res["items"].([]any) {
		m := it.(map[string]any)
		out[m["path"].(string)] = m
	}
	return out
}

// artifact stages a draft and returns the answer.
func artifact(tb testing.TB, cl *mcp.Client, resource, op string, args map[string]any) map[string]any {
	tb.Helper()
	return call(tb, cl, "artifact", map[string]any{"resource": resource, "op": map[string]any{op: args}})
}

func draftList(tb testing.TB, dir string, args ...string) []draftJSON {
	tb.Helper()
	var out struct {
		Drafts []draftJSON `json:"drafts"`
	}
	if err := json.Unmarshal([]byte(mustRun(tb, dir, append([]string{"drafts", "list", "--json"}, args...)...)), &out); err != nil {
		tb.Fatal(err)
	}
	return out.Drafts
}

// waitUntil polls cond every 50ms for up to a minute (the owner's content
// watch publishes an applied file on its own time).
func waitUntil(tb testing.TB, what string, cond func() bool) {
	tb.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			tb.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestDrafts_ApplyWithServeRunning stages a create, an update, a rename
// and a delete through a real agent session, applies each with the
// command line while serve owns the workspace, and checks the whole tree
// after, what the agent sees once serve's content watch has published the
// files (the same ids for the update and the rename), and that a rebuild
// replays the same statuses.
func TestDrafts_ApplyWithServeRunning(t *testing.T) {
	dir := draftsWorkspace(t)
	_, cl := serve(t, dir)
	setup(t, cl, "agent-1")
	before := itemsByPath(t, cl)
	idA, idB, idC := before["go/A.md"]["id"].(string), before["go/B.md"]["id"].(string), before["notes/C.md"]["id"].(string)
	const newBody, bodyA = "# New\n\n## Steps\n\n- Go.\n", "# A\n\n## Do\n\n- One.\n- Two.\n"
	created := artifact(t, cl, "rule", "create", map[string]any{"path": "go/NEW.md", "body": newBody})
	tmp := created["id"].(string)
	artifact(t, cl, "rule", "update", map[string]any{"id": idA, "body": bodyA})
	artifact(t, cl, "rule", "rename", map[string]any{"id": idB, "new_path": "py/B.md"})
	artifact(t, cl, "context", "delete", map[string]any{"id": idC})
	if open := draftList(t, dir); len(open) != 4 {
		t.Fatalf("drafts list: got %+v, want 4 open drafts", open)
	}

	tree := contentTree(t, dir)
	want := maps.Clone(tree)
	want["rules/go/NEW.md"] = newBody
	want["rules/go/A.md"] = bodyA
	want["rules/py/B.md"] = tree["rules/go/B.md"]
	delete(want, "rules/go/B.md")
	delete(want, "context/notes/C.md")
	for _, id := range []string{tmp, idA, idB, idC} {
		var out struct {
			Type  string    `json:"type"`
			Draft draftJSON `json:"draft"`
		}
		if err := json.Unmarshal([]byte(mustRun(t, dir, "drafts", "apply", id, "--json")), &out); err != nil {
			t.Fatal(err)
		}
		if out.Type != "attest.draft.apply" || out.Draft.Status != "applied" {
			t.Fatalf("apply %s: got %+v", id, out)
		}
	}
	if got := contentTree(t, dir); !maps.Equal(got, want) {
		t.Fatalf("content tree after apply:\ngot  %q\nwant %q", got, want)
	}

	var items map[string]map[string]any
	waitUntil(t, "serve to publish the applied files", func() bool {
		items = itemsByPath(t, cl)
		_, oldB := items["go/B.md"]
		_, c := items["notes/C.md"]
		return items["go/NEW.md"] != nil && items["py/B.md"] != nil && !oldB && !c &&
			items["go/A.md"]["hash"] == content.Hash([]byte(bodyA))
	})
	if items["go/A.md"]["id"] != idA || items["py/B.md"]["id"] != idB || items["go/A.md"]["hasDraft"] != nil {
		t.Fatalf("published items %v: want %s kept for the update, %s for the rename, no draft left", items, idA, idB)
	}
	if s := items["go/A.md"]["draftStatus"]; s != "applied" {
		t.Fatalf("memdisc of the updated rule: draftStatus %v, want applied", s)
	}
	loaded := call(t, cl, "memload", map[string]any{"ids": []string{items["go/NEW.md"]["id"].(string)}, "knownHashes": map[string]any{items["go/NEW.md"]["id"].(string): ""}})
	if b, _ := json.Marshal(loaded); !strings.Contains(string(b), "Go.") {
		t.Fatalf("memload of the created rule: %s", b)
	}

	all := draftList(t, dir, "--all")
	if len(all) != 4 {
		t.Fatalf("drafts list --all: got %+v, want the 4 applied drafts", all)
	}
	for _, d := range all {
		if d.Status != "applied" || d.Reviewer == "" {
			t.Fatalf("drafts list --all: %+v, want applied with a reviewer", d)
		}
	}
	mustRun(t, dir, "rebuild")
	if again := draftList(t, dir, "--all"); !equalJSON(t, again, all) {
		t.Fatalf("after rebuild: %+v, want %+v", again, all)
	}
}

func equalJSON(tb testing.TB, a, b any) bool {
	tb.Helper()
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// TestDrafts_ConflictAndDeclineWithoutOwner reviews with no process
// owning the workspace: a file edited after its draft was made is refused
// as conflicted, with the diff; a declined draft's reason reaches the
// agent in memdisc.
func TestDrafts_ConflictAndDeclineWithoutOwner(t *testing.T) {
	dir := draftsWorkspace(t)
	_, cl := serve(t, dir)
	setup(t, cl, "agent-1")
	items := itemsByPath(t, cl)
	idA, idB := items["go/A.md"]["id"].(string), items["go/B.md"]["id"].(string)
	artifact(t, cl, "rule", "update", map[string]any{"id": idA, "body": "# A\n\n## Do\n\n- Draft.\n"})
	artifact(t, cl, "rule", "update", map[string]any{"id": idB, "body": "# B\n\nBe briefer.\n"})
	cl.Close()

	fileA := filepath.Join(dir, ".clumsies", "rules", "go", "A.md")
	if err := os.WriteFile(fileA, []byte("# A\n\n## Do\n\n- Edited.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tree := contentTree(t, dir)
	r := run(t, dir, "drafts", "apply", idA)
	wantDiff := "--- a/.clumsies/rules/go/A.md\n+++ b/.clumsies/rules/go/A.md\n@@ -2,4 +2,4 @@\n \n ## Do\n \n-- Edited.\n+- Draft.\n"
	if r.code != 1 || r.stdout != wantDiff || !strings.Contains(r.stderr, "conflicted") || !strings.Contains(r.stderr, "changed since") {
		t.Fatalf("apply after an edit: exit %d, stdout %q, stderr %q; want exit 1, the diff\n%s", r.code, r.stdout, r.stderr, wantDiff)
	}
	if got := contentTree(t, dir); !maps.Equal(got, tree) {
		t.Fatal("a conflicted apply changed the content tree")
	}
	r = run(t, dir, "drafts", "decline", idB)
	if r.code != 2 || !strings.Contains(r.stderr, "--reason") {
		t.Fatalf("decline without a reason: exit %d, stderr %q", r.code, r.stderr)
	}
	mustRun(t, dir, "drafts", "decline", idB, "--reason", "brief is enough")
	if got := contentTree(t, dir); !maps.Equal(got, tree) {
		t.Fatal("a decline changed the content tree")
	}
	var shown struct {
		Draft   draftJSON   `json:"draft"`
		History []draftJSON `json:"history"`
	}
	if err := json.Unmarshal([]byte(mustRun(t, dir, "drafts", "show", idA, "--json")), &shown); err != nil {
		t.Fatal(err)
	}
	if shown.Draft.Status != "conflicted" || shown.Draft.Diff != wantDiff || len(shown.History) != 1 {
		t.Fatalf("drafts show: %+v, want the conflicted draft with its diff", shown)
	}
	r = run(t, dir, "drafts", "apply", idB)
	if r.code != 1 || !strings.Contains(r.stderr, "declined") {
		t.Fatalf("apply of a declined draft: exit %d, stderr %q; want refused, saying it was declined", r.code, r.stderr)
	}

	_, cl = serve(t, dir)
	setup(t, cl, "agent-2")
	items = itemsByPath(t, cl)
	if b := items["go/B.md"]; b["draftStatus"] != "declined" || b["draftReason"] != "brief is enough" || b["hasDraft"] != nil {
		t.Fatalf("memdisc of the declined rule: %v", b)
	}
	if a := items["go/A.md"]; a["draftStatus"] != "conflicted" || !strings.Contains(fmt.Sprint(a["draftReason"]), "changed since") {
		t.Fatalf("memdisc of the conflicted rule: %v", a)
	}
}

// TestDrafts_UpdateRacesApply races an agent's update of a draft against
// `drafts apply` of the same draft, round after round. Exactly one wins:
// either the apply records the draft as it was and the update, coming
// after, starts a new draft; or the update comes first and the apply
// writes nothing (or applies the updated draft). Whatever the order, the
// file holds exactly the body recorded as applied, and the update's body
// is never lost.
func TestDrafts_UpdateRacesApply(t *testing.T) {
	dir := draftsWorkspace(t)
	_, cl := serve(t, dir)
	setup(t, cl, "agent-1")
	id := itemsByPath(t, cl)["go/A.md"]["id"].(string)
	file := filepath.Join(dir, ".clumsies", "rules", "go", "A.md")
	outcomes := map[string]int{}
	// The update starts later and later into the apply's run (a process
	// that starts, attaches to the owner, reads, writes and records), so
	// that the rounds meet it at each of its steps.
	applyTook := time.Duration(0)
	for round := range 12 {
		original, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		v1 := fmt.Sprintf("# A\n\n## Do\n\n- Round %d, first.\n", round)
		v2 := fmt.Sprintf("# A\n\n## Do\n\n- Round %d, second.\n", round)
		artifact(t, cl, "rule", "update", map[string]any{"id": id, "body": v1})
		var (
			wg     sync.WaitGroup
			applyR result
			update map[string]any
			isErr  bool
			uerr   error
		)
		delay := applyTook * time.Duration(round) / 12
		wg.Add(2)
		go func() {
			defer wg.Done()
			start := time.Now()
			applyR = run(t, dir, "drafts", "apply", id, "--json")
			applyTook = time.Since(start)
		}()
		go func() {
			defer wg.Done()
			time.Sleep(delay)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			update, isErr, uerr = cl.Call(ctx, "artifact", map[string]any{"resource": "rule", "op": map[string]any{"update": map[string]any{"id": id, "body": v2}}})
		}()
		wg.Wait()
		if uerr != nil || isErr {
			t.Fatalf("round %d: the update failed: %v %v", round, uerr, update)
		}
		now, _ := os.ReadFile(file)
		var shown struct {
			Draft   draftJSON   `json:"draft"`
			History []draftJSON `json:"history"`
		}
		if err := json.Unmarshal([]byte(mustRun(t, dir, "drafts", "show", id, "--json")), &shown); err != nil {
			t.Fatal(err)
		}
		var applied *draftJSON
		for i := range shown.History {
			if h := &shown.History[i]; h.Status == "applied" && strings.Contains(h.Body, fmt.Sprintf("Round %d,", round)) {
				applied = h
			}
		}
		switch {
		case applyR.code == 0 && applied != nil && applied.Body == v1:
			// The apply came first: the file holds v1, and the update
			// made a new draft holding v2.
			if string(now) != v1 || shown.Draft.Status != "draft" || shown.Draft.Body != v2 || shown.Draft.Seq <= applied.Seq {
				t.Fatalf("round %d: applied v1, but file %q and open draft %+v", round, now, shown.Draft)
			}
			outcomes["apply first"]++
		case applyR.code == 0 && applied != nil && applied.Body == v2:
			// The update came before the apply read the draft.
			if string(now) != v2 || shown.Draft.Status != "applied" {
				t.Fatalf("round %d: applied v2, but file %q and draft %+v", round, now, shown.Draft)
			}
			outcomes["update first"]++
		case applyR.code == 1 && strings.Contains(applyR.stderr, "changed while it was applied"):
			// The update landed between the apply's write and its record:
			// the files are put back and the draft holds v2.
			if string(now) != string(original) || shown.Draft.Status != "draft" || shown.Draft.Body != v2 || applied != nil {
				t.Fatalf("round %d: apply refused, but file %q and draft %+v", round, now, shown.Draft)
			}
			outcomes["update between"]++
		default:
			t.Fatalf("round %d: apply exit %d (%s), applied %+v, file %q, draft %+v", round, applyR.code, applyR.stderr, applied, now, shown.Draft)
		}
		// Start the next round from a published file and no open draft.
		if shown.Draft.Status == "draft" {
			artifact(t, cl, "rule", "discard", map[string]any{"id": id})
		}
		waitUntil(t, "the file to be published", func() bool {
			b, _ := os.ReadFile(file)
			return itemsByPath(t, cl)["go/A.md"]["hash"] == content.Hash(b)
		})
	}
	t.Logf("outcomes: %v (an apply took %v)", outcomes, applyTook)
}

// TestDrafts_Help: every drafts command lists its flags the way they are
// typed, --workspace and --json everywhere, --sync where events are
// written.
func TestDrafts_Help(t *testing.T) {
	dir := t.TempDir()
	for _, sub := range []string{"list", "show", "diff", "apply", "decline"} {
		t.Run(sub, func(t *testing.T) {
			r := run(t, dir, "drafts", sub, "-h")
			if r.code != 0 {
				t.Fatalf("drafts %s -h: exit %d", sub, r.code)
			}
			if m := singleDash.FindString(r.stderr); m != "" {
				t.Errorf("drafts %s -h prints a flag with one dash (%q):\n%s", sub, m, r.stderr)
			}
			writes := sub == "apply" || sub == "decline"
			if !strings.Contains(r.stderr, "--workspace DIR") || !strings.Contains(r.stderr, "--json") ||
				strings.Contains(r.stderr, "--sync always|interval") != writes {
				t.Errorf("drafts %s -h: want --workspace DIR, --json and --sync only where events are written:\n%s", sub, r.stderr)
			}
		})
	}
	if r := run(t, dir, "drafts", "help"); r.code != 0 || !strings.Contains(r.stdout, "apply ID") {
		t.Fatalf("drafts help: exit %d, stdout %q", r.code, r.stdout)
	}
}

// TestDrafts_ApplyKilled kills `drafts apply`, the workspace's only
// process, at a different moment of its run each round (before it wrote,
// between its write and its record, after), then applies again. Whatever
// the moment: the draft is recorded applied exactly once, the file holds
// its body, and nothing else of the tree changed.
func TestDrafts_ApplyKilled(t *testing.T) {
	dir := newWorkspace(t)
	const rounds = 16
	for i := range rounds {
		p := filepath.Join(dir, ".clumsies", "rules", "kill", fmt.Sprintf("R%d.md", i))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(fmt.Sprintf("# R%d\n\nBefore.\n", i)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mustRun(t, dir, "publish")
	_, cl := serve(t, dir)
	setup(t, cl, "agent-1")
	items := itemsByPath(t, cl)
	ids := make([]string, rounds)
	for i := range rounds {
		ids[i] = items[fmt.Sprintf("kill/R%d.md", i)]["id"].(string)
		artifact(t, cl, "rule", "update", map[string]any{"id": ids[i], "body": fmt.Sprintf("# R%d\n\nAfter.\n", i)})
	}
	cl.Close()

	start := time.Now()
	mustRun(t, dir, "drafts", "list")
	took := time.Since(start) // a run that opens the workspace as its owner
	outcomes := map[string]int{}
	for i, id := range ids {
		want := contentTree(t, dir)
		name := fmt.Sprintf("rules/kill/R%d.md", i)
		want[name] = fmt.Sprintf("# R%d\n\nAfter.\n", i)
		cmd := exec.Command(binary, "drafts", "apply", id)
		cmd.Dir = dir
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(took * time.Duration(i) / rounds * 3 / 2)
		cmd.Process.Kill()
		cmd.Wait()
		r := run(t, dir, "drafts", "apply", id)
		switch {
		case r.code != 0 && strings.Contains(r.stderr, "its last draft was applied"):
			outcomes["recorded before the kill"]++
		case r.code == 0 && strings.Contains(r.stdout, "already held"):
			outcomes["written, not recorded"]++
		case r.code == 0:
			outcomes["nothing written"]++
		default:
			t.Fatalf("round %d: apply after the kill: exit %d, %s", i, r.code, r.stderr)
		}
		if got := contentTree(t, dir); !maps.Equal(got, want) {
			t.Fatalf("round %d: content tree\ngot  %q\nwant %q", i, got, want)
		}
		var shown struct {
			Draft   draftJSON   `json:"draft"`
			History []draftJSON `json:"history"`
		}
		if err := json.Unmarshal([]byte(mustRun(t, dir, "drafts", "show", id, "--json")), &shown); err != nil {
			t.Fatal(err)
		}
		if len(shown.History) != 1 || shown.Draft.Status != "applied" {
			t.Fatalf("round %d: %+v, want the draft applied once", i, shown)
		}
	}
	applied := 0
	for _, line := range strings.Split(mustRun(t, dir, "events", "--type", "attest.draft.apply"), "\n") {
		if strings.TrimSpace(line) != "" {
			applied++
		}
	}
	if applied != rounds {
		t.Fatalf("%d apply events, want %d", applied, rounds)
	}
	t.Logf("outcomes: %v (a run took %v)", outcomes, took)
	mustRun(t, dir, "publish") // nothing ran serve's content watch
	mustRun(t, dir, "verify")
}

// TestDrafts_TeamDraftsAreReviewedAtTheHub: a draft of a team rule is
// submitted to the hub; drafts apply and decline refuse it, pointing at
// the hub's review, and leave the repository's content as it is.
func TestDrafts_TeamDraftsAreReviewedAtTheHub(t *testing.T) {
	hp := newHub(t)
	tree := writeTree(t, map[string]string{"rules/team/STYLE.md": teamRule, "META_PROMPT.md": "# Meta\n"})
	teamID := pushTree(t, hp, tree, "red").Published[0].ID
	dir := newWorkspace(t)
	hp.join(t, dir, "red", "ann")
	_, cl := serve(t, dir)
	setup(t, cl, "team-1")
	waitUntil(t, "the team rule in memdisc", func() bool {
		it := discItem(t, cl, "team/STYLE.md")
		return it != nil && it["source"] == "team"
	})
	artifact(t, cl, "rule", "update", map[string]any{"id": teamID, "body": teamRule + "- with %w\n"})
	waitUntil(t, "the team draft in review", func() bool {
		return discItem(t, cl, "team/STYLE.md")["draftStatus"] == "in_review"
	})
	before := contentTree(t, dir)
	for _, args := range [][]string{{"drafts", "apply", teamID}, {"drafts", "decline", teamID, "--reason", "no"}} {
		r := run(t, dir, args...)
		if r.code != 1 || !strings.Contains(r.stderr, "at the hub") {
			t.Fatalf("%v: exit %d, stderr %q; want refused, pointing at the hub", args, r.code, r.stderr)
		}
	}
	if got := contentTree(t, dir); !maps.Equal(got, before) {
		t.Fatalf("the repository's content changed: %q", got)
	}
}

// TestDrafts_ApplyRefusesALinkOutside: rules/evil is a symbolic link to
// a folder outside the repository and an agent drafts evil/PWN.md.
// drafts apply refuses the draft as conflicted, naming the link, and
// writes nothing, outside or in.
func TestDrafts_ApplyRefusesALinkOutside(t *testing.T) {
	dir := draftsWorkspace(t)
	_, cl := serve(t, dir)
	setup(t, cl, "agent-1")
	id := artifact(t, cl, "rule", "create", map[string]any{"path": "evil/PWN.md", "body": "# Pwned\n"})["id"].(string)
	cl.Close()

	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(dir, ".clumsies", "rules", "evil")); err != nil {
		t.Fatal(err)
	}
	tree := contentTree(t, dir)
	r := run(t, dir, "drafts", "apply", id)
	if r.code != 1 || !strings.Contains(r.stderr, "conflicted") || !strings.Contains(r.stderr, "rules/evil is a symbolic link to "+outside+", outside the content root") {
		t.Fatalf("apply through the link: exit %d, stdout %q, stderr %q; want exit 1, conflicted, naming rules/evil", r.code, r.stdout, r.stderr)
	}
	if got := contentTree(t, dir); !maps.Equal(got, tree) {
		t.Fatalf("content tree after the refused apply:\ngot  %q\nwant %q", got, tree)
	}
	if names, err := os.ReadDir(outside); err != nil || len(names) != 0 {
		t.Fatalf("outside the repository: %v, %v; want nothing written", names, err)
	}
	if d := draftList(t, dir, "--all"); len(d) != 1 || d[0].Status != "conflicted" || !strings.Contains(d[0].Reason, "rules/evil") {
		t.Fatalf("drafts list --all: %+v, want the draft conflicted, naming the link", d)
	}
}
