package hooks

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// workspacePaths makes the host's paths relative to the workspace: named
// absolutely, relative to the host's folder, through a symbolic link to
// the root or the root itself; anything outside is one "(outside)".
func TestWorkspacePaths(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "shop")
	if err := os.MkdirAll(filepath.Join(root, "api"), 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(base, "link")
	if err := os.Symlink(root, link); err != nil {
		t.Fatal(err)
	}
	got := workspacePaths(link, filepath.Join(root, "api"), []string{
		filepath.Join(root, "api", "handler.go"), // the real path, the workspace opened through the link
		filepath.Join(link, "api", "handler.go"),
		"client.go",               // relative to the host's folder
		"../docs/retry.md",        // still inside
		"../../elsewhere/x.go",    // outside
		"/etc/hosts",              // outside
		filepath.Join(root, ".."), // the root's parent
	})
	want := []string{"(outside)", "api/client.go", "api/handler.go", "docs/retry.md"}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
}
