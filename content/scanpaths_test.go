package content

import (
	"errors"
	"strings"
	"testing"
)

// A rule with a bad glob is named with the glob, as other bad files are:
// Scan fails, ScanIndexed holds the file back and returns the rest;
// context files are markdown for agents to read and their front matter is
// not checked.
func TestScan_BadPaths(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"rules/api/HANDLERS.md": "---\npaths:\n  - \"api/**/*.{go,ts}\"\n---\n# Handlers\n\nx\n\n## Do\n\n- y\n",
		"context/NOTES.md":      "---\npaths: [\"/etc/*\"]\n---\nnotes\n",
	})
	for name, scan := range map[string]func() error{
		"Scan": func() error { _, err := Scan(root); return err },
		"ScanIndexed": func() error {
			files, idx, err := ScanIndexed(root, nil)
			if err != nil {
				return err
			}
			if len(files) != 1 || files[0].Source != "context/NOTES.md" {
				t.Errorf("ScanIndexed: got %d files, want context/NOTES.md alone", len(files))
			}
			if held := idx.Held(); len(held) == 1 {
				return held[0]
			}
			return nil
		},
	} {
		err := scan()
		var fe *FileError
		if !errors.As(err, &fe) || fe.Path != "rules/api/HANDLERS.md" || !errors.Is(err, ErrBadPaths) {
			t.Fatalf("%s: got %v, want a *FileError for rules/api/HANDLERS.md wrapping ErrBadPaths", name, err)
		}
		if !strings.Contains(err.Error(), `"api/**/*.{go,ts}"`) {
			t.Errorf("%s: %q does not name the glob", name, err)
		}
	}
	writeFiles(t, root, map[string]string{
		"rules/api/HANDLERS.md": "---\npaths:\n  - \"api/**/*.go\"\n  - \"api/**/*.ts\"\n---\n# Handlers\n\nx\n\n## Do\n\n- y\n",
	})
	if _, err := Scan(root); err != nil {
		t.Fatalf("after the fix: %v", err)
	}
}
