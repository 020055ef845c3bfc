package repodraft

import (
	"os"
	"path/filepath"
	"testing"
)

// TestWrite_StaysInTheRoot writes, creates and moves through a folder that
// is a link outside the root, as a link made after apply looked at the
// paths would be: every write fails, and nothing lands outside.
func TestWrite_StaysInTheRoot(t *testing.T) {
	for _, p := range []Plan{
		{Op: "create", Path: "rules/evil/PWN.md", Body: "# Pwned\n"},
		{Op: "create", Path: "rules/evil/deeper/PWN.md", Body: "# Pwned\n"},
		{Op: "rename", Path: "rules/A.md", NewPath: "rules/evil/A.md"},
	} {
		t.Run(string(p.Op)+" "+p.Path+" "+p.NewPath, func(t *testing.T) {
			dir, outside := t.TempDir(), t.TempDir()
			if err := os.MkdirAll(filepath.Join(dir, "rules"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "rules", "A.md"), []byte("# A\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(outside, filepath.Join(dir, "rules", "evil")); err != nil {
				t.Fatal(err)
			}
			root, err := openTree(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer root.Close()
			if err := write(root, p); err == nil {
				t.Fatal("write through a link outside the root succeeded")
			}
			if names, err := os.ReadDir(outside); err != nil || len(names) != 0 {
				t.Fatalf("outside the root: %v, %v; want nothing", names, err)
			}
		})
	}
}
