package gitrepo_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/clumsies/clumsies/internal/gittest"
	"github.com/clumsies/clumsies/proof/gitrepo"
)

var git = gittest.Git

func write(tb testing.TB, dir, path, body string) {
	tb.Helper()
	p := filepath.Join(dir, path)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		tb.Fatal(err)
	}
}

// TestRepo: a repository's commits, their changes with blob ids (added,
// modified, deleted, a rename as both), a range, a blob, notes, and a
// folder's prefix, read from a real repository.
func TestRepo(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	ctx := context.Background()
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	write(t, dir, "sub/a.go", "a\n")
	write(t, dir, "old name.txt", "keep\n")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-qm", "one")
	write(t, dir, "sub/a.go", "a2\n")
	git(t, dir, "mv", "old name.txt", "new name.txt")
	git(t, dir, "commit", "-qam", "two")

	if _, err := gitrepo.Open(ctx, t.TempDir()); !errors.Is(err, gitrepo.ErrNotRepo) {
		t.Fatalf("a folder outside any repository: got %v", err)
	}
	r, err := gitrepo.Open(ctx, filepath.Join(dir, "sub"))
	if err != nil || r.Prefix != "sub/" {
		t.Fatalf("open sub: %+v, %v", r, err)
	}
	head, err := r.Resolve(ctx, "HEAD")
	if err != nil || len(head.Parents) != 1 || head.ID != git(t, dir, "rev-parse", "HEAD") || head.Time.IsZero() {
		t.Fatalf("HEAD: %+v, %v", head, err)
	}
	if _, err := r.Resolve(ctx, "--all"); !errors.Is(err, gitrepo.ErrUnknownRev) {
		t.Fatalf("an option as a revision: got %v", err)
	}
	root, err := r.Changes(ctx, "", head.Parents[0])
	if err != nil || len(root) != 2 || root[0].Path != "old name.txt" || root[0].Base != "" || root[1].Blob != git(t, dir, "rev-parse", "HEAD~1:sub/a.go") {
		t.Fatalf("the root commit's changes: %+v, %v", root, err)
	}
	cs, err := r.Changes(ctx, head.Parents[0], head.ID)
	want := []gitrepo.Change{
		{Path: "new name.txt", Blob: git(t, dir, "rev-parse", "HEAD:new name.txt")},
		{Path: "old name.txt", Base: git(t, dir, "rev-parse", "HEAD~1:old name.txt")},
		{Path: "sub/a.go", Base: root[1].Blob, Blob: git(t, dir, "rev-parse", "HEAD:sub/a.go")},
	}
	if err != nil || len(cs) != 3 || cs[0] != want[0] || cs[1] != want[1] || cs[2] != want[2] {
		t.Fatalf("changes: got %+v, %v; want %+v", cs, err, want)
	}
	if b, err := r.Blob(ctx, head.ID, "sub/a.go"); err != nil || b != want[2].Blob {
		t.Fatalf("blob: %q, %v", b, err)
	}
	if b, err := r.Blob(ctx, head.ID, "old name.txt"); err != nil || b != "" {
		t.Fatalf("a file the commit does not hold: %q, %v", b, err)
	}
	rng, err := r.Range(ctx, "HEAD~1", "HEAD")
	if err != nil || len(rng) != 1 || rng[0].ID != head.ID {
		t.Fatalf("range: %+v, %v", rng, err)
	}
	git(t, dir, "checkout", "-q", "-b", "side", "HEAD~1")
	write(t, dir, "side.txt", "s\n")
	git(t, dir, "add", "side.txt")
	git(t, dir, "commit", "-qm", "side")
	if mb, err := r.MergeBase(ctx, "main", "side"); err != nil || mb.ID != head.Parents[0] {
		t.Fatalf("merge base of main and side: %+v, %v; want %s", mb, err, head.Parents[0])
	}
	const ref = "refs/notes/test"
	if _, err := r.Note(ctx, ref, head.ID); !errors.Is(err, gitrepo.ErrNoNote) {
		t.Fatalf("no note yet: got %v", err)
	}
	t.Setenv("GIT_AUTHOR_NAME", "t")
	t.Setenv("GIT_AUTHOR_EMAIL", "t@example.com")
	t.Setenv("GIT_COMMITTER_NAME", "t")
	t.Setenv("GIT_COMMITTER_EMAIL", "t@example.com")
	for _, body := range []string{"first\n", "second\n"} {
		if err := r.AddNote(ctx, ref, head.ID, []byte(body)); err != nil {
			t.Fatal(err)
		}
		if got, err := r.Note(ctx, ref, head.ID); err != nil || string(got) != body {
			t.Fatalf("note: got %q, %v; want %q (a note replaces the last)", got, err, body)
		}
	}
}
