package main_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clumsies/clumsies/catalog"
	"github.com/clumsies/clumsies/content"
	embeddednats "github.com/clumsies/clumsies/embedded-nats"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/node"
	"github.com/clumsies/clumsies/workspace"
)

// git runs git in dir, with an author for commits.
func git(tb testing.TB, dir string, args ...string) string {
	tb.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "init.defaultBranch=main"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		tb.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// gitRepo commits the workspace dir into a new repository and returns a
// clone of it.
func gitRepo(tb testing.TB, dir string) string {
	tb.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		tb.Skip("git is not installed")
	}
	git(tb, dir, "init", "-q")
	git(tb, dir, "add", "-A")
	git(tb, dir, "commit", "-qm", "workspace")
	clone := filepath.Join(tb.TempDir(), "clone")
	git(tb, filepath.Dir(clone), "clone", "-q", dir, clone)
	return clone
}

// localRule is a rule of `clumsies stats --json`.
type localRule struct {
	ID, Path, Kind string
	Refs           int
}

// localRules returns the rules and workflows of dir's stats by path.
func localRules(tb testing.TB, dir string) map[string]localRule {
	tb.Helper()
	var st struct{ Rules []localRule }
	if err := json.Unmarshal([]byte(mustRun(tb, dir, "stats", "--json")), &st); err != nil {
		tb.Fatal(err)
	}
	out := map[string]localRule{}
	for _, r := range st.Rules {
		if _, twice := out[r.Path]; twice && r.Path != "" {
			r.ID = "listed twice"
		}
		out[r.Path] = r
	}
	return out
}

// TestIDs_SurviveClones: two clones of one repository give each file the
// same id, and a rename committed in one clone, with an edit committed
// after it, keeps its id in the other clone that pulls both: the rename
// is not recognised by its hash there, only by .clumsies/ids.
func TestIDs_SurviveClones(t *testing.T) {
	a := newWorkspace(t)
	b := gitRepo(t, a)
	mustRun(t, a, "publish")
	mustRun(t, b, "publish")
	ra, rb := localRules(t, a), localRules(t, b)
	if len(ra) != 2 || len(rb) != 2 {
		t.Fatalf("got %d and %d rules, want 2 in each clone", len(ra), len(rb))
	}
	for path, r := range ra {
		if rb[path].ID != r.ID {
			t.Fatalf("%s has id %s in one clone and %s in the other", path, r.ID, rb[path].ID)
		}
	}
	old := ra["style/ERRORS.md"].ID
	referTo(t, b, old, 2)

	// a renames the rule and commits, then edits it and commits.
	git(t, a, "mv", ".clumsies/rules/style/ERRORS.md", ".clumsies/rules/style/FAILURES.md")
	mustRun(t, a, "publish")
	if got := localRules(t, a)["style/FAILURES.md"].ID; got != old {
		t.Fatalf("the renamed rule has id %s in the clone that renamed it, want %s", got, old)
	}
	ids, err := os.ReadFile(filepath.Join(a, ".clumsies", "ids"))
	if err != nil || !strings.Contains(string(ids), old+" rules/style/FAILURES.md\n") {
		t.Fatalf("the ids file does not record the rename: %q, %v", ids, err)
	}
	git(t, a, "add", "-A")
	git(t, a, "commit", "-qm", "rename")
	edited := "# Failures\n\nWrap every error with what failed.\n"
	if err := os.WriteFile(filepath.Join(a, ".clumsies", "rules", "style", "FAILURES.md"), []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	mustRun(t, a, "publish")
	git(t, a, "commit", "-qam", "edit")

	git(t, b, "pull", "-q", "--ff-only")
	mustRun(t, b, "publish")
	rb = localRules(t, b)
	got := rb["style/FAILURES.md"]
	if got.ID != old || got.Refs != 2 {
		t.Fatalf("after the pull the renamed rule is %+v, want id %s with its 2 refs", got, old)
	}
	if _, ok := rb["style/ERRORS.md"]; ok {
		t.Fatalf("after the pull the old path is still a rule: %+v", rb)
	}
	if out := git(t, b, "status", "--porcelain"); out != "" {
		t.Fatalf("publishing in the clone that pulled changed tracked files:\n%s", out)
	}
}

// referTo records n refs of rule id's first constraint in dir through
// memref.
func referTo(tb testing.TB, dir, id string, n int) {
	tb.Helper()
	cmd, cl := serve(tb, dir)
	defer func() { cl.Close(); cmd.Wait() }()
	setup(tb, cl, "sess-refer")
	call(tb, cl, "memload", map[string]any{"ids": []string{id}, "knownHashes": map[string]any{id: ""}})
	for range n {
		call(tb, cl, "memref", map[string]any{"refs": []any{map[string]any{"ruleId": id, "constraintId": "Messages"}}})
	}
}

// legacyPublish appends to the ledger of the workspace in dir what a
// version that gave random ids published, refs refs of the workflow under
// its random id and, with draft, an open draft of the workflow; it returns
// the workflow's random id.
func legacyPublish(tb testing.TB, dir string, refs int, draft bool) string {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	ws, err := workspace.Open(dir)
	if err != nil {
		tb.Fatal(err)
	}
	n, err := node.Open(ctx, ws, node.Options{Sync: embeddednats.SyncInterval})
	if err != nil {
		tb.Fatal(err)
	}
	defer n.Close()
	files, err := content.Scan(ws.ContentRoot())
	if err != nil {
		tb.Fatal(err)
	}
	var workflow, workflowHash string
	for _, f := range files {
		id := content.MetaPromptPath
		if f.Kind != content.KindMPF {
			var b [16]byte
			rand.Read(b[:])
			id = "p-" + hex.EncodeToString(b[:])
		}
		if f.Kind == content.KindWorkflow {
			workflow, workflowHash = id, f.Hash
		}
		ev, err := catalog.Change{File: f, ID: id}.Event(ws.ID())
		if err != nil {
			tb.Fatal(err)
		}
		if _, err := n.Log.Append(ctx, ev); err != nil {
			tb.Fatal(err)
		}
	}
	for range refs {
		ev, err := events.New(ws.ID(), events.TypeRefer, events.ReferData{Refs: []events.Ref{{RuleID: workflow, ConstraintID: "Steps/1", Reason: "legacy"}}})
		if err != nil {
			tb.Fatal(err)
		}
		ev.SessionID, ev.Tool = "sess-legacy", "memref"
		if _, err := n.Log.Append(ctx, ev); err != nil {
			tb.Fatal(err)
		}
	}
	if draft {
		ev, err := events.New(ws.ID(), events.TypeDraftUpdate, events.DraftData{Resource: events.ResourceRule, ID: workflow,
			Op: events.DraftOpUpdate, Path: "workflow/CODING.md", Body: "# Coding\n\n## Steps\n\n- one\n", BaseHash: workflowHash})
		if err != nil {
			tb.Fatal(err)
		}
		ev.SessionID, ev.Tool = "sess-legacy", "artifact"
		if _, err := n.Log.Append(ctx, ev); err != nil {
			tb.Fatal(err)
		}
	}
	return workflow
}

// TestIDs_MigrationWaitsForADraft: an object with an open draft keeps its
// old id, and the ids file does not record it, until the draft is closed;
// the next publish then gives it its path's id, with its refs.
func TestIDs_MigrationWaitsForADraft(t *testing.T) {
	a := newWorkspace(t)
	old := legacyPublish(t, a, 2, true)
	mustRun(t, a, "publish")
	if got := localRules(t, a)["workflow/CODING.md"]; got.ID != old || got.Refs != 2 {
		t.Fatalf("with an open draft the workflow is %+v, want its old id %s with 2 refs", got, old)
	}
	if b, err := os.ReadFile(filepath.Join(a, ".clumsies", "ids")); err == nil && strings.Contains(string(b), old) {
		t.Fatalf("the ids file records the old id of an object waiting for its draft:\n%s", b)
	}
	mustRun(t, a, "drafts", "decline", old, "--reason", "not now")
	mustRun(t, a, "publish")
	want := catalog.DerivedID(content.KindWorkflow, "workflow/CODING.md")
	if got := localRules(t, a)["workflow/CODING.md"]; got.ID != want || got.Refs != 2 {
		t.Fatalf("after the draft was declined the workflow is %+v, want %s with 2 refs", got, want)
	}
}

// TestIDs_MigrateClones: two clones of one repository published by a
// version that gave random ids, linked to one hub, move to the ids their
// paths derive when they publish: each keeps its refs under the new id,
// and the hub lists each rule of the workspace once, with the refs of
// both clones, and counts 2 published rules, not 4.
func TestIDs_MigrateClones(t *testing.T) {
	hp := newHub(t)
	a := newWorkspace(t)
	b := gitRepo(t, a)
	oldA, oldB := legacyPublish(t, a, 3, false), legacyPublish(t, b, 2, false)
	if oldA == oldB {
		t.Fatal("the legacy clones share an id")
	}
	hp.join(t, a, "red", "ann")
	hp.join(t, b, "red", "bob")
	for _, dir := range []string{a, b} {
		serve(t, dir) // publishes on start, and links the clone to the hub
	}
	want := catalog.DerivedID(content.KindWorkflow, "workflow/CODING.md")
	for dir, refs := range map[string]int{a: 3, b: 2} {
		var got localRule
		waitFor(t, "the clone to publish its new ids", func() bool {
			rules := localRules(t, dir)
			_, stale := rules[""] // refs of an id no longer published
			got = rules["workflow/CODING.md"]
			return got.ID == want && !stale
		})
		if got.ID != want || got.Refs != refs {
			t.Fatalf("after the migration the workflow is %+v, want id %s with %d refs\n%s", got, want, refs, mustRun(t, dir, "events"))
		}
	}

	var st struct {
		Rules []struct {
			ID   string
			Refs uint64
		}
		Coverage struct{ Published uint64 }
	}
	waitFor(t, "the hub to count the migrated clones", func() bool {
		if err := json.Unmarshal([]byte(mustRun(t, hp.dir, "hub", "stats", "--json")), &st); err != nil {
			t.Fatal(err)
		}
		listed, refs := map[string]int{}, uint64(0)
		for _, r := range st.Rules {
			listed[r.ID]++
			if r.ID == want {
				refs = r.Refs
			}
		}
		return st.Coverage.Published == 2 && listed[want] == 1 && listed[oldA] == 0 && listed[oldB] == 0 && refs == 5
	})
}

// TestIDs_NoReidBackToAnOldID: a workflow that moved from its random id
// to its path's id keeps the new one when a stale ids file (pulled from a
// clone that never published the move) names the old id again: a reid
// back would make the two ids each other's newer id, a cycle the hub
// would follow. Its refs stay under the path's id and the ledger holds
// one reid.
func TestIDs_NoReidBackToAnOldID(t *testing.T) {
	a := newWorkspace(t)
	old := legacyPublish(t, a, 2, false)
	mustRun(t, a, "publish")
	want := catalog.DerivedID(content.KindWorkflow, "workflow/CODING.md")
	if got := localRules(t, a)["workflow/CODING.md"]; got.ID != want {
		t.Fatalf("after the migration the workflow is %+v, want %s", got, want)
	}
	ids := filepath.Join(a, ".clumsies", "ids")
	if err := os.WriteFile(ids, []byte(old+" "+content.SourcePath(content.KindWorkflow, "workflow/CODING.md")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mustRun(t, a, "publish")
	if got := localRules(t, a)["workflow/CODING.md"]; got.ID != want || got.Refs != 2 {
		t.Fatalf("after a publish with the stale ids file the workflow is %+v, want %s with 2 refs", got, want)
	}
	if b, err := os.ReadFile(ids); err == nil && strings.Contains(string(b), old) {
		t.Errorf("the ids file still names the old id after the publish:\n%s", b)
	}
	if n := strings.Count(mustRun(t, a, "events", "--type", "catalog.reid"), "workflow/CODING.md"); n != 1 {
		t.Fatalf("the ledger holds %d reids of the workflow, want the one migration:\n%s", n, mustRun(t, a, "events", "--type", "catalog.reid"))
	}
}
