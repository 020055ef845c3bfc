package commitcheck_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/internal/gittest"
	"github.com/clumsies/clumsies/proof/commitcheck"
	"github.com/clumsies/clumsies/proof/gitrepo"
)

var git = gittest.Git

func commit(tb testing.TB, dir, path, body, msg string) {
	tb.Helper()
	if err := os.WriteFile(filepath.Join(dir, path), []byte(body), 0o644); err != nil {
		tb.Fatal(err)
	}
	git(tb, dir, "add", path)
	git(tb, dir, "commit", "-qm", msg)
}

// TestResolve: a commit is its change against its first parent (a root
// commit against nothing); BASE..HEAD is HEAD's change against where it
// forked from BASE, not what BASE gained since; a revision git does not
// know and a malformed range are told apart.
func TestResolve(t *testing.T) {
	dir := gittest.Init(t, "main")
	ctx := context.Background()
	commit(t, dir, "a.txt", "a\n", "root")
	git(t, dir, "checkout", "-q", "-b", "feature")
	commit(t, dir, "b.txt", "b\n", "b")
	git(t, dir, "checkout", "-q", "main")
	commit(t, dir, "c.txt", "c\n", "c on main")
	repo, err := gitrepo.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	paths := func(ch commitcheck.Change) string {
		var ps []string
		for _, c := range ch.Target.Changes {
			ps = append(ps, c.Path)
		}
		return strings.Join(ps, " ")
	}
	root := git(t, dir, "rev-list", "--max-parents=0", "HEAD")
	for _, c := range []struct{ arg, base, paths string }{
		{root, "", "a.txt"},
		{"feature", root, "b.txt"},
		{"main..feature", root, "b.txt"},
		{"feature..main", root, "c.txt"},
	} {
		ch, err := commitcheck.Resolve(ctx, repo, c.arg)
		if err != nil || ch.Base.ID != c.base || paths(ch) != c.paths || ch.Target.Base != c.base || ch.Target.Commit != ch.Head.ID {
			t.Errorf("Resolve %s: base %q, files %q, %v; want base %q, files %q", c.arg, ch.Base.ID, paths(ch), err, c.base, c.paths)
		}
	}
	for _, arg := range []string{"nope", "main..nope", "nope..main"} {
		if _, err := commitcheck.Resolve(ctx, repo, arg); !errors.Is(err, gitrepo.ErrUnknownRev) {
			t.Errorf("Resolve %s: %v, want ErrUnknownRev", arg, err)
		}
	}
	for _, arg := range []string{"", "main..", "..main", "main...feature"} {
		if _, err := commitcheck.Resolve(ctx, repo, arg); !errors.Is(err, commitcheck.ErrBadRange) {
			t.Errorf("Resolve %q: %v, want ErrBadRange", arg, err)
		}
	}
}
