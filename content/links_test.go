//go:build unix

package content

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestScan_HardLinks(t *testing.T) {
	link := func(tb testing.TB, from, to string) {
		tb.Helper()
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.Link(from, to); err != nil {
			tb.Skipf("hard links: %v", err)
		}
	}
	t.Run("ToAFileOutsideRoot", func(t *testing.T) {
		outside := t.TempDir()
		writeFiles(t, outside, map[string]string{"secret.md": "secret"})
		root := filepath.Join(outside, "ws") // same file system, so the link works
		writeFiles(t, root, map[string]string{"rules/A.md": "a"})
		link(t, filepath.Join(outside, "secret.md"), filepath.Join(root, "rules", "go", "LEAK.md"))
		scanErr(t, root, "rules/go/LEAK.md", ErrHardLink)
	})
	t.Run("MetaPromptOutsideRoot", func(t *testing.T) {
		outside := t.TempDir()
		writeFiles(t, outside, map[string]string{"m.md": "m"})
		root := filepath.Join(outside, "ws")
		link(t, filepath.Join(outside, "m.md"), filepath.Join(root, "META_PROMPT.md"))
		scanErr(t, root, "META_PROMPT.md", ErrHardLink)
	})
	t.Run("BothNamesInsideTree", func(t *testing.T) {
		root := t.TempDir()
		writeFiles(t, root, map[string]string{"rules/A.md": "a", "rules/notes.txt": "n"})
		link(t, filepath.Join(root, "rules", "A.md"), filepath.Join(root, "context", "A.md"))
		link(t, filepath.Join(root, "rules", "notes.txt"), filepath.Join(root, "rules", "go", "NOTES.md"))
		got, err := Scan(root)
		if err != nil || !slices.Equal(sources(got), []string{"rules/A.md", "rules/go/NOTES.md", "context/A.md"}) {
			t.Errorf("got %v, %v, want [rules/A.md rules/go/NOTES.md context/A.md], nil", sources(got), err)
		}
	})
	t.Run("Message", func(t *testing.T) {
		outside := t.TempDir()
		writeFiles(t, outside, map[string]string{"s.md": "s"})
		root := filepath.Join(outside, "ws")
		link(t, filepath.Join(outside, "s.md"), filepath.Join(root, "rules", "S.md"))
		_, err := Scan(root)
		if got, want := err.Error(), "rules/S.md: content: hard link to a file outside the content tree; replace it with a copy"; got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	})
}
