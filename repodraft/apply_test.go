package repodraft_test

import (
	"context"
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/catalog"
	"github.com/clumsies/clumsies/content"
	embeddednats "github.com/clumsies/clumsies/embedded-nats"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/node"
	"github.com/clumsies/clumsies/projections"
	"github.com/clumsies/clumsies/repodraft"
	"github.com/clumsies/clumsies/workspace"
)

// env is a published starter workspace, opened as its owner, with a
// reviewer of its drafts.
type env struct {
	t  *testing.T
	ws *workspace.Workspace
	h  *node.Handle
	r  *repodraft.Reviewer
}

func newEnv(t *testing.T) *env {
	t.Helper()
	ws, _, err := workspace.Init(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	h, err := node.Attach(context.Background(), ws, node.Options{Sync: embeddednats.SyncInterval})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	if _, err := h.Publish(context.Background()); err != nil {
		t.Fatal(err)
	}
	return &env{t: t, ws: ws, h: h, r: &repodraft.Reviewer{Ledger: h, WorkspaceID: ws.ID(), Root: ws.ContentRoot(), Name: "ann"}}
}

// stage stages a draft as the artifact tool does: decided on the facts,
// appended on the condition that they still hold.
func (e *env) stage(c catalog.DraftCommand) catalog.DraftDecision {
	e.t.Helper()
	ctx := context.Background()
	if c.Session == "" {
		c.Session = "agent-1"
	}
	for {
		f, err := e.h.DraftFacts(ctx, c.Query())
		if err != nil {
			e.t.Fatal(err)
		}
		d, err := catalog.DecideDraft(f, c)
		if err != nil {
			e.t.Fatalf("stage %s: %v", c.Op, err)
		}
		ev, _ := events.New(e.ws.ID(), d.Type, d.Data)
		ev.Tool, ev.SessionID = "artifact", c.Session
		err = e.h.RecordExpecting(ctx, ev, events.Expectation{Aggregate: events.AggregateDrafts, LastSeq: f.Seq})
		if errors.Is(err, events.ErrConflict) {
			continue
		}
		if err != nil {
			e.t.Fatal(err)
		}
		return d
	}
}

// idAt returns the id of the object published at rule path p.
func (e *env) idAt(p string) string {
	e.t.Helper()
	for _, it := range e.list() {
		if it.Path == p && it.Published {
			return it.ID
		}
	}
	e.t.Fatalf("nothing published at %s", p)
	return ""
}

func (e *env) list() []projections.Item {
	e.t.Helper()
	items, err := e.h.List(context.Background(), projections.Filter{})
	if err != nil {
		e.t.Fatal(err)
	}
	return items
}

// tree returns every file under the content root by slash path, but
// for the workspace's own state and config.
func (e *env) tree() map[string]string {
	e.t.Helper()
	out := map[string]string{}
	root := e.ws.ContentRoot()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p == e.ws.StateDir() {
			return filepath.SkipDir
		}
		if d.IsDir() || !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(root, p)
		out[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		e.t.Fatal(err)
	}
	return out
}

func (e *env) state(id string) projections.DraftState {
	e.t.Helper()
	st, err := e.h.DraftState(context.Background(), id)
	if err != nil {
		e.t.Fatal(err)
	}
	return st
}

func sameTree(t *testing.T, got, want map[string]string) {
	t.Helper()
	if !maps.Equal(got, want) {
		t.Fatalf("content tree:\ngot  %q\nwant %q", got, want)
	}
}

const errorsPath = "style/ERRORS.md"

// TestApply_WritesTheTree applies a draft of each operation and compares
// the whole content tree before and after; publishing then serves the
// draft's content, under the same id for an update and a rename.
func TestApply_WritesTheTree(t *testing.T) {
	const body = "# Errors\n\n## Wrap\n\n- Wrap with %w.\n"
	tests := []struct {
		name    string
		cmd     func(id string) catalog.DraftCommand
		change  func(tree map[string]string)
		publish func(t *testing.T, e *env, id string)
	}{
		{"Create", func(string) catalog.DraftCommand {
			return catalog.DraftCommand{Resource: events.ResourceRule, Op: events.DraftOpCreate, Path: "go/NEW.md", Body: body}
		}, func(tr map[string]string) { tr["rules/go/NEW.md"] = body }, func(t *testing.T, e *env, _ string) {
			o := objectAt(t, e, "go/NEW.md")
			if o.Hash != content.Hash([]byte(body)) || !strings.HasPrefix(o.ID, "p-") {
				t.Fatalf("published %+v, want the draft's body under a new id", o)
			}
		}},
		{"Update", func(id string) catalog.DraftCommand {
			return catalog.DraftCommand{Resource: events.ResourceRule, Op: events.DraftOpUpdate, ID: id, Body: body}
		}, func(tr map[string]string) { tr["rules/"+errorsPath] = body }, func(t *testing.T, e *env, id string) {
			if o := objectAt(t, e, errorsPath); o.ID != id || o.Hash != content.Hash([]byte(body)) {
				t.Fatalf("published %+v, want %s with the draft's body", o, id)
			}
		}},
		{"Rename", func(id string) catalog.DraftCommand {
			return catalog.DraftCommand{Resource: events.ResourceRule, Op: events.DraftOpRename, ID: id, NewPath: "go/deep/ERRORS.md"}
		}, func(tr map[string]string) {
			tr["rules/go/deep/ERRORS.md"] = tr["rules/"+errorsPath]
			delete(tr, "rules/"+errorsPath)
		}, func(t *testing.T, e *env, id string) {
			if o := objectAt(t, e, "go/deep/ERRORS.md"); o.ID != id {
				t.Fatalf("published %+v, want %s moved", o, id)
			}
		}},
		{"Delete", func(id string) catalog.DraftCommand {
			return catalog.DraftCommand{Resource: events.ResourceRule, Op: events.DraftOpDelete, ID: id}
		}, func(tr map[string]string) { delete(tr, "rules/"+errorsPath) }, func(t *testing.T, e *env, id string) {
			if _, err := e.h.View(context.Background(), id); !errors.Is(err, projections.ErrNotFound) {
				t.Fatalf("view of the deleted rule: %v, want not found", err)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			id := e.idAt(errorsPath)
			d := e.stage(tt.cmd(id))
			before := e.tree()
			out, err := e.r.Apply(context.Background(), d.ID, 0)
			if err != nil {
				t.Fatalf("apply: %v", err)
			}
			if out.Type != events.TypeDraftApply || out.Draft.Status != catalog.StatusApplied || out.Recovered {
				t.Fatalf("outcome %+v, want applied", out)
			}
			want := maps.Clone(before)
			tt.change(want)
			sameTree(t, e.tree(), want)
			st := e.state(d.ID)
			if st.Open != nil || len(st.History) != 1 || st.History[0].Status != catalog.StatusApplied || st.History[0].Reviewer != "ann" {
				t.Fatalf("draft state %+v, want one applied draft in the history", st)
			}
			if _, err := e.h.Publish(context.Background()); err != nil {
				t.Fatal(err)
			}
			tt.publish(t, e, id)
			// Applied is final: a second apply is refused and writes nothing.
			after := e.tree()
			_, err = e.r.Apply(context.Background(), d.ID, 0)
			var de *catalog.DraftError
			if !errors.As(err, &de) || de.Code != events.CodeNotFound || !strings.Contains(de.Message, "applied") {
				t.Fatalf("second apply: %v, want not_found saying it was applied", err)
			}
			sameTree(t, e.tree(), after)
		})
	}
}

func objectAt(t *testing.T, e *env, path string) projections.Item {
	t.Helper()
	for _, it := range e.list() {
		if it.Path == path {
			return it
		}
	}
	t.Fatalf("nothing at %s in %+v", path, e.list())
	return projections.Item{}
}

// TestApply_ConflictAfterAnEdit edits the file after the draft was made:
// apply records the draft conflicted, with a diff from the file to the
// draft, and writes nothing.
func TestApply_ConflictAfterAnEdit(t *testing.T) {
	e := newEnv(t)
	id := e.idAt(errorsPath)
	d := e.stage(catalog.DraftCommand{Resource: events.ResourceRule, Op: events.DraftOpUpdate, ID: id, Body: "# Errors\n\nDraft.\n"})
	file := filepath.Join(e.ws.ContentRoot(), "rules", errorsPath)
	if err := os.WriteFile(file, []byte("# Errors\n\nEdited by hand.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := e.tree()
	out, err := e.r.Apply(context.Background(), d.ID, 0)
	if err != nil {
		t.Fatalf("apply: %v", err)
	}
	wantDiff := "--- a/rules/style/ERRORS.md\n+++ b/rules/style/ERRORS.md\n@@ -1,3 +1,3 @@\n # Errors\n \n-Edited by hand.\n+Draft.\n"
	if out.Type != events.TypeDraftConflict || out.Data.Diff != wantDiff || !strings.Contains(out.Data.Reason, "changed since") ||
		out.Data.CurrentHash != content.Hash([]byte("# Errors\n\nEdited by hand.\n")) {
		t.Fatalf("outcome %+v, want conflicted with the diff\n%s", out, wantDiff)
	}
	sameTree(t, e.tree(), before)
	st := e.state(d.ID)
	if st.Open != nil || len(st.History) != 1 || st.History[0].Status != catalog.StatusConflicted || st.History[0].Diff != wantDiff {
		t.Fatalf("draft state %+v, want the conflicted draft with its diff", st)
	}
}

// TestApply_CreateOnATakenPath: the path of a create draft was taken
// since: conflicted.
func TestApply_CreateOnATakenPath(t *testing.T) {
	e := newEnv(t)
	d := e.stage(catalog.DraftCommand{Resource: events.ResourceContext, Op: events.DraftOpCreate, Path: "ops/deploy.md", Body: "Deploy.\n"})
	file := filepath.Join(e.ws.ContentRoot(), "context", "ops", "deploy.md")
	os.MkdirAll(filepath.Dir(file), 0o755)
	if err := os.WriteFile(file, []byte("Someone else's.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := e.r.Apply(context.Background(), d.ID, 0)
	if err != nil || out.Type != events.TypeDraftConflict || !strings.Contains(out.Data.Reason, "was created since") {
		t.Fatalf("apply: %+v, %v; want conflicted", out, err)
	}
	if b, _ := os.ReadFile(file); string(b) != "Someone else's.\n" {
		t.Fatalf("the file became %q", b)
	}
}

// TestApply_RecordsWhatACrashLeft: the files already hold the draft (an
// apply wrote them and died before recording): apply records the outcome
// and writes nothing.
func TestApply_RecordsWhatACrashLeft(t *testing.T) {
	e := newEnv(t)
	id := e.idAt(errorsPath)
	const body = "# Errors\n\nAfter the crash.\n"
	d := e.stage(catalog.DraftCommand{Resource: events.ResourceRule, Op: events.DraftOpUpdate, ID: id, Body: body})
	if err := os.WriteFile(filepath.Join(e.ws.ContentRoot(), "rules", errorsPath), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	before := e.tree()
	out, err := e.r.Apply(context.Background(), d.ID, 0)
	if err != nil || out.Type != events.TypeDraftApply || !out.Recovered {
		t.Fatalf("apply: %+v, %v; want applied, recovered", out, err)
	}
	sameTree(t, e.tree(), before)
}

// TestApply_SeqOfTheReviewedDraft: a draft changed since the person saw
// it is refused and nothing is written.
func TestApply_SeqOfTheReviewedDraft(t *testing.T) {
	e := newEnv(t)
	id := e.idAt(errorsPath)
	e.stage(catalog.DraftCommand{Resource: events.ResourceRule, Op: events.DraftOpUpdate, ID: id, Body: "# Errors\n\nOne.\n"})
	seen := e.state(id).Open.Seq
	e.stage(catalog.DraftCommand{Resource: events.ResourceRule, Op: events.DraftOpUpdate, ID: id, Body: "# Errors\n\nTwo.\n"})
	before := e.tree()
	_, err := e.r.Apply(context.Background(), id, seen)
	var de *catalog.DraftError
	if !errors.As(err, &de) || de.Code != events.CodeIncompatibleDraft {
		t.Fatalf("apply of a changed draft: %v, want incompatible_draft", err)
	}
	sameTree(t, e.tree(), before)
}

// TestDecline records the reason; memdisc's item shows it, and the agent
// may stage a new draft.
func TestDecline(t *testing.T) {
	e := newEnv(t)
	id := e.idAt(errorsPath)
	e.stage(catalog.DraftCommand{Resource: events.ResourceRule, Op: events.DraftOpUpdate, ID: id, Body: "# Errors\n\nNo.\n"})
	before := e.tree()
	if _, err := e.r.Decline(context.Background(), id, ""); err == nil {
		t.Fatal("decline without a reason was accepted")
	}
	out, err := e.r.Decline(context.Background(), id, "we keep the old wording")
	if err != nil || out.Draft.Status != catalog.StatusDeclined {
		t.Fatalf("decline: %+v, %v", out, err)
	}
	sameTree(t, e.tree(), before)
	it := objectAt(t, e, errorsPath)
	if it.HasDraft || it.DraftStatus != catalog.StatusDeclined || it.DraftReason != "we keep the old wording" {
		t.Fatalf("item %+v, want declined with the reason", it)
	}
	e.stage(catalog.DraftCommand{Resource: events.ResourceRule, Op: events.DraftOpUpdate, ID: id, Body: "# Errors\n\nAgain.\n"})
	if st := e.state(id); st.Open == nil || st.Open.Status != catalog.StatusDraft || len(st.History) != 1 {
		t.Fatalf("state %+v, want a new open draft and the declined one in the history", st)
	}
}

// TestApply_MetaPrompt applies an update of the META_PROMPT, which lives at
// the content root under its fixed name.
func TestApply_MetaPrompt(t *testing.T) {
	e := newEnv(t)
	const body = "# Frame\n\nNew frame.\n"
	d := e.stage(catalog.DraftCommand{Resource: events.ResourceMPF, Op: events.DraftOpUpdate, ID: content.MetaPromptPath, Body: body})
	want := e.tree()
	want[content.MetaPromptPath] = body
	if _, err := e.r.Apply(context.Background(), d.ID, 0); err != nil {
		t.Fatal(err)
	}
	sameTree(t, e.tree(), want)
}

// TestPlanOf_RefusesUnsafePaths: a draft whose path is not a safe content
// path (which artifact never records, an imported ledger might) is
// refused before anything is read or written.
func TestPlanOf_RefusesUnsafePaths(t *testing.T) {
	for _, p := range []string{"../escape.md", "/abs.md", "go/../../x.md", "go/.hidden.md", "go/x.txt"} {
		_, err := repodraft.PlanOf(catalog.Draft{ID: "tmp-rule-x", Resource: events.ResourceRule, Op: events.DraftOpCreate, Path: p, Body: "x"})
		if err == nil {
			t.Errorf("path %q: planned, want refused", p)
		}
	}
	_, err := repodraft.PlanOf(catalog.Draft{ID: "p-1", Resource: events.ResourceRule, Op: events.DraftOpUpdate, Path: "go/A.md", Body: "x"})
	if err == nil {
		t.Error("an update without a base hash was planned")
	}
}

// interleaved is the workspace's ledger with one step run just before the
// next record: another writer's event landing between an apply's write
// and its record.
type interleaved struct {
	repodraft.Ledger
	before func()
}

func (l *interleaved) RecordExpecting(ctx context.Context, ev events.Event, exp events.Expectation) error {
	if f := l.before; f != nil {
		l.before = nil
		f()
	}
	return l.Ledger.RecordExpecting(ctx, ev, exp)
}

// TestApply_DraftChangedBeforeTheRecord: the agent updates the draft after
// apply wrote the file and before it recorded the outcome; the file is
// put back, nothing is recorded, and the draft holds the agent's update.
// An event of another draft in the same window only makes apply decide
// again.
func TestApply_DraftChangedBeforeTheRecord(t *testing.T) {
	t.Run("SameDraft", func(t *testing.T) {
		e := newEnv(t)
		id := e.idAt(errorsPath)
		e.stage(catalog.DraftCommand{Resource: events.ResourceRule, Op: events.DraftOpUpdate, ID: id, Body: "# Errors\n\nOne.\n"})
		before := e.tree()
		var during map[string]string
		r := *e.r
		r.Ledger = &interleaved{Ledger: e.h, before: func() {
			during = e.tree()
			e.stage(catalog.DraftCommand{Resource: events.ResourceRule, Op: events.DraftOpUpdate, ID: id, Body: "# Errors\n\nTwo.\n"})
		}}
		_, err := r.Apply(context.Background(), id, 0)
		if !errors.Is(err, repodraft.ErrChanged) {
			t.Fatalf("apply: %v, want ErrChanged", err)
		}
		if during["rules/"+errorsPath] != "# Errors\n\nOne.\n" {
			t.Fatalf("the file before the record: %q, want the draft written", during["rules/"+errorsPath])
		}
		sameTree(t, e.tree(), before)
		if st := e.state(id); st.Open == nil || st.Open.Body != "# Errors\n\nTwo.\n" || len(st.History) != 0 {
			t.Fatalf("state %+v, want the agent's update open and nothing closed", st)
		}
	})
	t.Run("OtherDraft", func(t *testing.T) {
		e := newEnv(t)
		id := e.idAt(errorsPath)
		const body = "# Errors\n\nOne.\n"
		e.stage(catalog.DraftCommand{Resource: events.ResourceRule, Op: events.DraftOpUpdate, ID: id, Body: body})
		r := *e.r
		r.Ledger = &interleaved{Ledger: e.h, before: func() {
			e.stage(catalog.DraftCommand{Resource: events.ResourceRule, Op: events.DraftOpCreate, Path: "go/OTHER.md", Body: "# Other\n"})
		}}
		out, err := r.Apply(context.Background(), id, 0)
		if err != nil || out.Type != events.TypeDraftApply || out.Recovered {
			t.Fatalf("apply: %+v, %v; want applied", out, err)
		}
		if got := e.tree()["rules/"+errorsPath]; got != body {
			t.Fatalf("file %q, want the draft", got)
		}
	})
}

// teamMarked is the workspace's ledger as an owner with a team's catalog
// answers for a draft of the team's content: its state marked Team.
type teamMarked struct{ repodraft.Ledger }

func (l teamMarked) DraftState(ctx context.Context, id string) (projections.DraftState, error) {
	st, err := l.Ledger.DraftState(ctx, id)
	st.Team = true
	return st, err
}

// TestApply_TeamDraftRefused: a team draft not yet submitted (its owner
// stopped before submitting it) is neither applied nor declined in the
// workspace.
func TestApply_TeamDraftRefused(t *testing.T) {
	e := newEnv(t)
	id := e.idAt(errorsPath)
	e.stage(catalog.DraftCommand{Resource: events.ResourceRule, Op: events.DraftOpUpdate, ID: id, Body: "# Errors\n\nTeam.\n"})
	before := e.tree()
	r := *e.r
	r.Ledger = teamMarked{e.h}
	var de *catalog.DraftError
	if _, err := r.Apply(context.Background(), id, 0); !errors.As(err, &de) || !strings.Contains(de.Message, "hub") {
		t.Fatalf("apply of a team draft: %v, want refused", err)
	}
	if _, err := r.Decline(context.Background(), id, "no"); !errors.As(err, &de) || !strings.Contains(de.Message, "hub") {
		t.Fatalf("decline of a team draft: %v, want refused", err)
	}
	sameTree(t, e.tree(), before)
	if st := e.state(id); st.Open == nil || st.Open.Status != catalog.StatusDraft {
		t.Fatalf("state %+v, want the draft still open", st)
	}
}

// TestApply_RefusesLinks puts a symbolic link on the path of a draft, as
// the file itself or as a folder at each depth, pointing outside the
// content root or inside it: apply records the draft conflicted, naming
// the link, and writes nothing, neither through the link nor over it.
func TestApply_RefusesLinks(t *testing.T) {
	const body = "# Pwned\n"
	create := func(r events.Resource, p string) func(*env) catalog.DraftCommand {
		return func(*env) catalog.DraftCommand {
			return catalog.DraftCommand{Resource: r, Op: events.DraftOpCreate, Path: p, Body: body}
		}
	}
	tests := []struct {
		name   string
		link   string // the link, a source path under the content root
		target func(outside string) string
		// published: the link is made before the workspace publishes
		// again (publishing reads a link to a file inside the root), so
		// that the draft can be of the object it holds.
		published bool
		cmd       func(e *env) catalog.DraftCommand
	}{
		{"FileOutside", "rules/go/PWN.md", func(out string) string { return filepath.Join(out, "PWN.md") }, false,
			create(events.ResourceRule, "go/PWN.md")},
		{"FolderOutsideAtTheTop", "context", func(out string) string { return out }, false,
			create(events.ResourceContext, "ops/PWN.md")},
		{"FolderOutsideDepth1", "rules/evil", func(out string) string { return out }, false,
			create(events.ResourceRule, "evil/PWN.md")},
		{"FolderOutsideDepth2", "rules/go/evil", func(out string) string { return out }, false,
			create(events.ResourceRule, "go/evil/PWN.md")},
		{"RenameIntoFolderOutside", "rules/evil", func(out string) string { return out }, false,
			func(e *env) catalog.DraftCommand {
				return catalog.DraftCommand{Resource: events.ResourceRule, Op: events.DraftOpRename, ID: e.idAt(errorsPath), NewPath: "evil/ERRORS.md"}
			}},
		{"FolderInside", "rules/alias", func(string) string { return "style" }, false,
			create(events.ResourceRule, "alias/PWN.md")},
		{"FileInside", "rules/go/LINKED.md", func(string) string { return "../style/ERRORS.md" }, true,
			func(e *env) catalog.DraftCommand {
				return catalog.DraftCommand{Resource: events.ResourceRule, Op: events.DraftOpUpdate, ID: e.idAt("go/LINKED.md"), Body: body}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			root := e.ws.ContentRoot()
			outside := t.TempDir()
			if err := os.WriteFile(filepath.Join(outside, "KEEP.md"), []byte("outside\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			link := filepath.Join(root, filepath.FromSlash(tt.link))
			if tt.link == "context" {
				if err := os.RemoveAll(link); err != nil {
					t.Fatal(err)
				}
			}
			makeLink := func() {
				if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(tt.target(outside), link); err != nil {
					t.Fatal(err)
				}
			}
			if tt.published {
				makeLink()
				if _, err := e.h.Publish(context.Background()); err != nil {
					t.Fatal(err)
				}
			}
			d := e.stage(tt.cmd(e))
			if !tt.published {
				makeLink()
			}
			before := e.tree()
			out, err := e.r.Apply(context.Background(), d.ID, 0)
			if err != nil {
				t.Fatalf("apply: %v", err)
			}
			if out.Type != events.TypeDraftConflict || !strings.HasPrefix(out.Data.Reason, tt.link+" is a symbolic link to ") || out.Data.CurrentHash != "" {
				t.Fatalf("outcome %s, reason %q, hash %q; want conflicted, naming the link %s, no hash read through it", out.Type, out.Data.Reason, out.Data.CurrentHash, tt.link)
			}
			if leaves := strings.Contains(out.Data.Reason, "outside the content root"); leaves != strings.Contains(tt.name, "Outside") {
				t.Fatalf("reason %q: says it leaves the root %v, want %v", out.Data.Reason, leaves, !leaves)
			}
			sameTree(t, e.tree(), before)
			if info, err := os.Lstat(link); err != nil || info.Mode()&fs.ModeSymlink == 0 {
				t.Fatalf("the link %s: %v, %v; want it left a link", tt.link, info, err)
			}
			got := map[string]string{}
			filepath.WalkDir(outside, func(p string, d fs.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					b, _ := os.ReadFile(p)
					got[d.Name()] = string(b)
				}
				return nil
			})
			if want := map[string]string{"KEEP.md": "outside\n"}; !maps.Equal(got, want) {
				t.Fatalf("outside the root: got %q, want %q", got, want)
			}
			if st := e.state(d.ID); st.Open != nil || len(st.History) != 1 || st.History[0].Status != catalog.StatusConflicted {
				t.Fatalf("draft state %+v, want the draft conflicted", st)
			}
		})
	}
}

// TestApply_LinkedRoot: the content root itself may be a symbolic link,
// as publishing allows: apply writes below it.
func TestApply_LinkedRoot(t *testing.T) {
	e := newEnv(t)
	linked := filepath.Join(t.TempDir(), "linked")
	if err := os.Symlink(e.ws.ContentRoot(), linked); err != nil {
		t.Fatal(err)
	}
	e.r.Root = linked
	d := e.stage(catalog.DraftCommand{Resource: events.ResourceRule, Op: events.DraftOpCreate, Path: "go/NEW.md", Body: "# New\n"})
	out, err := e.r.Apply(context.Background(), d.ID, 0)
	if err != nil || out.Type != events.TypeDraftApply {
		t.Fatalf("apply: %+v, %v; want applied", out, err)
	}
	if b, err := os.ReadFile(filepath.Join(e.ws.ContentRoot(), "rules", "go", "NEW.md")); err != nil || string(b) != "# New\n" {
		t.Fatalf("rules/go/NEW.md: %q, %v", b, err)
	}
}
