package gitrepo_test

import (
	"context"
	"errors"
	"testing"

	"github.com/clumsies/clumsies/internal/gittest"
	"github.com/clumsies/clumsies/proof/gitrepo"
)

// TestLog: a branch's last commits newest first with their parents,
// authors and subjects, at most n; the branch HEAD is on ("" detached); a
// repository with no commit has no HEAD to list; and Open says when git
// is not installed.
func TestLog(t *testing.T) {
	dir := gittest.Init(t, "trunk")
	ctx := context.Background()
	r, err := gitrepo.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Log(ctx, "HEAD", 5); !errors.Is(err, gitrepo.ErrUnknownRev) {
		t.Fatalf("no commit yet: got %v, want ErrUnknownRev", err)
	}
	for _, m := range []string{"one", "two | with a bar", "three"} {
		write(t, dir, "f.txt", m)
		git(t, dir, "add", "f.txt")
		git(t, dir, "commit", "-qm", m+"\n\nthe body")
	}
	log, err := r.Log(ctx, "HEAD", 2)
	if err != nil || len(log) != 2 || log[0].Subject != "three" || log[1].Subject != "two | with a bar" || log[0].Author != "t" ||
		log[0].ID != git(t, dir, "rev-parse", "HEAD") || len(log[0].Parents) != 1 || log[0].Parents[0] != log[1].ID || log[0].Time.IsZero() {
		t.Fatalf("log HEAD 2: %+v, %v", log, err)
	}
	if all, err := r.Log(ctx, "HEAD", 10); err != nil || len(all) != 3 || len(all[2].Parents) != 0 {
		t.Fatalf("log HEAD 10: %+v, %v; want the 3 commits, the root without parents", all, err)
	}
	if b := r.Branch(ctx); b != "trunk" {
		t.Fatalf("branch: %q, want trunk", b)
	}
	git(t, dir, "checkout", "-q", "--detach", "HEAD~1")
	if b := r.Branch(ctx); b != "" {
		t.Fatalf("detached HEAD: branch %q, want none", b)
	}
	t.Setenv("PATH", t.TempDir())
	if _, err := gitrepo.Open(ctx, dir); !errors.Is(err, gitrepo.ErrNoGit) || !errors.Is(err, gitrepo.ErrNotRepo) {
		t.Fatalf("no git on PATH: got %v, want ErrNoGit and ErrNotRepo", err)
	}
}
