package main_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/clumsies/clumsies/internal/testbin"
)

// TestDrafts_DiffAppliesFromTheRoot: the diff `drafts diff` prints names
// the files from the repository's root, so that `git apply` run there
// makes the draft's change.
func TestDrafts_DiffAppliesFromTheRoot(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("no git here")
	}
	dir := draftsWorkspace(t)
	_, cl := serve(t, dir)
	setup(t, cl, "diff-paths")
	id := itemsByPath(t, cl)["go/A.md"]["id"].(string)
	draft := "# A\n\n## Do\n\n- One, then two.\n"
	tmp := artifact(t, cl, "rule", "update", map[string]any{"id": id, "body": draft})["id"].(string)
	cl.Close()
	patch := filepath.Join(t.TempDir(), "draft.patch")
	if err := os.WriteFile(patch, []byte(mustRun(t, dir, "drafts", "diff", tmp)), 0o644); err != nil {
		t.Fatal(err)
	}
	apply := exec.Command(git, "apply", patch)
	apply.Dir = dir
	if out, errs, code, err := testbin.Run(apply); err != nil || code != 0 {
		t.Fatalf("git apply from the repository's root: exit %d %v\n%s%s", code, err, out, errs)
	}
	if b, err := os.ReadFile(filepath.Join(dir, ".clumsies", "rules", "go", "A.md")); err != nil || string(b) != draft {
		t.Fatalf("the file after git apply: %q (%v), want the draft %q", b, err, draft)
	}
}
