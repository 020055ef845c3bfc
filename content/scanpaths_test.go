package content

import (
	"errors"
	"strings"
	"testing"
)

// A rule with a bad glob fails the scan, by its name and the glob's, as
// other bad files do; context files are markdown for agents to read and
// their front matter is not checked.
func TestScan_BadPaths(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"rules/api/HANDLERS.md": "---\npaths:\n  - \"api/**/*.{go,ts}\"\n---\n# Handlers\n\nx\n\n## Do\n\n- y\n",
		"context/NOTES.md":      "---\npaths: [\"/etc/*\"]\n---\nnotes\n",
	})
	for name, scan := range map[string]func() error{
		"Scan":        func() error { _, err := Scan(root); return err },
		"ScanIndexed": func() error { _, _, err := ScanIndexed(root, nil); return err },
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
