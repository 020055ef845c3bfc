package commitcheck_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/clumsies/clumsies/internal/gittest"
	"github.com/clumsies/clumsies/proof/attest"
	"github.com/clumsies/clumsies/proof/commitcheck"
	"github.com/clumsies/clumsies/proof/gitrepo"
	"github.com/clumsies/clumsies/workspace"
)

// TestJudge_RootCommit: a root commit is judged against nothing, its
// files human with an empty ledger, and the rules' pattern checks run on
// every line it adds (against git's empty tree): a forbidden pattern is a
// finding that fails it, naming the rule's constraint and the line.
func TestJudge_RootCommit(t *testing.T) {
	dir := gittest.Init(t, "main")
	ctx := context.Background()
	ws, _, err := workspace.Init(dir)
	if err != nil {
		t.Fatal(err)
	}
	rule := filepath.Join(ws.ContentRoot(), "rules", "api", "ERRORS.md")
	if err := os.MkdirAll(filepath.Dir(rule), 0o755); err != nil {
		t.Fatal(err)
	}
	body := "---\npaths: [\"src/**\"]\nchecks:\n  - constraint: \"Do/1\"\n    forbid: 'panic\\('\n    message: \"return errors\"\n---\n# Errors\n\n## Do\n\n- Return errors.\n"
	if err := os.WriteFile(rule, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	commit(t, dir, "src/a.go", "package a\n\nfunc f() { panic(1) }\n", "root")
	repo, err := gitrepo.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	ch, err := commitcheck.Resolve(ctx, repo, "HEAD")
	if err != nil || ch.Base.ID != "" {
		t.Fatalf("the root commit: %+v, %v", ch, err)
	}
	r, err := commitcheck.Judge(ctx, ws, repo, attest.NewEvidence(ws.ID(), repo.Prefix), ch)
	if err != nil {
		t.Fatal(err)
	}
	var found []attest.Finding
	for _, f := range r.Files {
		if f.By != attest.ByHuman {
			t.Errorf("%s: by %s, want human (the ledger is empty)", f.Path, f.By)
		}
		if f.Path == "src/a.go" {
			found = f.Findings
		}
	}
	if r.OK || r.Findings != 1 || len(found) != 1 || found[0].Line != 3 || found[0].ConstraintID != "Do/1" || found[0].Message != "return errors" {
		t.Fatalf("the root commit's findings: %+v (ok %v), want the panic on line 3 of src/a.go", found, r.OK)
	}
}
