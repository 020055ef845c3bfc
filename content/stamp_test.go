package content

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// stampTree is StampTree, failing the test on an error.
func stampTree(tb testing.TB, root string) Stamp {
	tb.Helper()
	s, _, err := StampTree(root)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// stampFixture is a tree of rules, a context file, a symlinked rule and
// files a scan ignores, indexed by a scan.
func stampFixture(t *testing.T) (root string, rels []string, idx *Index) {
	t.Helper()
	needStat(t)
	root = t.TempDir()
	rels = writeRuleTree(t, root, 20)
	writeFiles(t, root, map[string]string{
		"context/ARCH.md":       "# Architecture\n",
		"rules/shared/BASE.md":  "# Base\n",
		"README.txt":            "not content",
		"rules/.hidden/SKIP.md": "# Hidden\n",
	})
	symlink(t, "../shared/BASE.md", root, "rules/linked/BASE.md")
	// A tick of the file system's coarse clock, so that the index's scan
	// begins after every file's change time.
	time.Sleep(25 * time.Millisecond)
	_, idx, err := scanIndexed(root, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	return root, rels, idx
}

// The stamp of an unchanged tree is its index's, and the index vouches
// for it once every file is older than the index's scan.
func TestStamp_UnchangedTreeIsVouchedFor(t *testing.T) {
	root, _, idx := stampFixture(t)
	s, dir, err := StampTree(root)
	if err != nil {
		t.Fatal(err)
	}
	if dir != idx.Root() {
		t.Fatalf("StampTree names the root %q, the index %q", dir, idx.Root())
	}
	x := idx.Stamp()
	if s != x || s.Files != idx.Len() || s.Files != 23 {
		t.Fatalf("tree stamp %+v, index stamp %+v (%d files), want equal, of 23 files", s, x, idx.Len())
	}
	if !s.vouchedBy(x, idx.Scanned(), 0) {
		t.Fatalf("an unchanged tree is not vouched for: newest %d, scanned %d", s.Newest, idx.Scanned().UnixNano())
	}
	// With the racy window: the change times of the files are those of
	// this test's writes, a moment ago.
	if s.VouchedBy(x, idx.Scanned()) {
		t.Fatal("files changed within RacyWindow of the scan are vouched for")
	}
}

// Every change a scan would see changes the stamp; what a scan ignores
// does not.
func TestStamp_ChangesWithEveryChangeAScanSees(t *testing.T) {
	path := func(root, rel string) string { return filepath.Join(root, filepath.FromSlash(rel)) }
	restore := func(t *testing.T, p string, info os.FileInfo) {
		if err := os.Chtimes(p, info.ModTime(), info.ModTime()); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name    string
		change  func(t *testing.T, root string, rels []string)
		changes bool
	}{
		{"SameSizeModTimeRestored", func(t *testing.T, root string, rels []string) {
			p := path(root, rels[3])
			before, _ := os.Stat(p)
			writeFiles(t, root, map[string]string{rels[3]: "# Rule 3\n\nBody of rule X.\n"})
			restore(t, p, before)
		}, true},
		{"ReplacedByARename", func(t *testing.T, root string, rels []string) {
			p := path(root, rels[7])
			before, _ := os.Stat(p)
			writeFiles(t, root, map[string]string{"rules/.tmp": "# Rule 7\n\nBody of rule 7.\n"})
			if err := os.Rename(path(root, "rules/.tmp"), p); err != nil {
				t.Fatal(err)
			}
			restore(t, p, before)
		}, true},
		{"Removed", func(t *testing.T, root string, rels []string) {
			if err := os.Remove(path(root, rels[0])); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"Added", func(t *testing.T, root string, _ []string) {
			writeFiles(t, root, map[string]string{"rules/NEW.md": "# New\n"})
		}, true},
		{"Renamed", func(t *testing.T, root string, rels []string) {
			if err := os.Rename(path(root, rels[1]), path(root, "rules/g01/MOVED.md")); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"LinkRetargeted", func(t *testing.T, root string, _ []string) {
			if err := os.Remove(path(root, "rules/linked/BASE.md")); err != nil {
				t.Fatal(err)
			}
			symlink(t, "../../context/ARCH.md", root, "rules/linked/BASE.md")
		}, true},
		{"LinkTargetEdited", func(t *testing.T, root string, _ []string) {
			writeFiles(t, root, map[string]string{"rules/shared/BASE.md": "# Base, edited\n"})
		}, true},
		{"IgnoredFilesOnly", func(t *testing.T, root string, _ []string) {
			writeFiles(t, root, map[string]string{"README.txt": "edited", "rules/.hidden/SKIP.md": "# Edited\n", "NOTES.md": "# Not in the tree\n"})
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, rels, idx := stampFixture(t)
			// Change times in a new tick of the file system's clock.
			time.Sleep(25 * time.Millisecond)
			tc.change(t, root, rels)
			got, want, n := stampTree(t, root), idx.Stamp(), idx.Len()
			if changed := got.Sum != want.Sum || got.Files != n; changed != tc.changes {
				t.Fatalf("stamp changed: %v, want %v", changed, tc.changes)
			}
			vouched := got.vouchedBy(want, idx.Scanned(), 0)
			if vouched == tc.changes {
				t.Fatalf("vouched for: %v after the change, want %v", vouched, !tc.changes)
			}
			// What vouching promises: a scan with the index (which takes
			// it over) reads no file and finds the files it describes.
			_, next := rescan(t, root, idx)
			if vouched && (next.Read() != 0 || next.Len() != n) {
				t.Fatalf("a vouched-for tree: the indexed scan read %d files and found %d, want 0 and %d", next.Read(), next.Len(), n)
			}
		})
	}
}

// A tree the scan would refuse has no stamp: the error is the scan's.
func TestStampTree_FailsAsScanDoes(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	writeFiles(t, outside, map[string]string{"X.md": "# X\n"})
	symlink(t, filepath.Join(outside, "X.md"), root, "rules/X.md")
	_, scanErr := Scan(root)
	_, _, err := StampTree(root)
	if !errors.Is(err, ErrOutsideRoot) || !errors.Is(scanErr, ErrOutsideRoot) {
		t.Fatalf("StampTree: %v; Scan: %v; want both ErrOutsideRoot", err, scanErr)
	}
	s, dir, err := StampTree(filepath.Join(root, "missing"))
	if err != nil || s != (Stamp{}) || dir != "" {
		t.Fatalf("a missing root: %+v, %q, %v; want the empty stamp", s, dir, err)
	}
}
