package content

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"
)

// writeRuleTree writes n rule files under root/rules and sets their
// modification times an hour back, and returns their source paths.
func writeRuleTree(tb testing.TB, root string, n int) []string {
	tb.Helper()
	files := map[string]string{}
	var rels []string
	for i := range n {
		rel := fmt.Sprintf("rules/g%02d/RULE%04d.md", i%10, i)
		files[rel] = fmt.Sprintf("# Rule %d\n\nBody of rule %d.\n", i, i)
		rels = append(rels, rel)
	}
	writeFiles(tb, root, files)
	past := time.Now().Add(-time.Hour)
	for _, rel := range rels {
		if err := os.Chtimes(filepath.Join(root, filepath.FromSlash(rel)), past, past); err != nil {
			tb.Fatal(err)
		}
	}
	return rels
}

// needStat skips where the index cannot vouch for files.
func needStat(tb testing.TB) {
	tb.Helper()
	if runtime.GOOS != "linux" {
		tb.Skip("the scan index compares change times and inodes on Linux only")
	}
}

// sameListing fails unless indexed lists the files of full, without bodies.
func sameListing(tb testing.TB, indexed, full []File) {
	tb.Helper()
	if len(indexed) != len(full) {
		tb.Fatalf("indexed scan found %d files, full scan %d", len(indexed), len(full))
	}
	for i := range full {
		want := full[i]
		want.Body = ""
		if indexed[i] != want {
			tb.Fatalf("file %d: indexed scan gave %+v, full scan %+v", i, indexed[i], want)
		}
	}
}

// rescan scans root with the index prev, checks that it lists what a
// full scan lists, and returns that listing and the new index.
func rescan(tb testing.TB, root string, prev *Index) ([]File, *Index) {
	tb.Helper()
	files, next, err := scanIndexed(root, prev, 0)
	if err != nil {
		tb.Fatal(err)
	}
	full, err := Scan(root)
	if err != nil {
		tb.Fatal(err)
	}
	sameListing(tb, files, full)
	return full, next
}

func TestScanIndexed_UnchangedTreeOpensNoContentFile(t *testing.T) {
	needStat(t)
	root := t.TempDir()
	writeRuleTree(t, root, 1000)
	full, err := Scan(root)
	if err != nil {
		t.Fatal(err)
	}
	// A window of 0: the files' change times are a moment before the
	// first scan began, which RacyWindow would not yet trust.
	files, idx, err := scanIndexed(root, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	if idx.Read() != 1000 || idx.Len() != 1000 {
		t.Fatalf("first scan: read %d files, indexed %d; want 1000 and 1000", idx.Read(), idx.Len())
	}
	sameListing(t, files, full)

	files, idx2, err := scanIndexed(root, idx, 0)
	if err != nil {
		t.Fatal(err)
	}
	if idx2.Read() != 0 {
		t.Fatalf("second scan of an unchanged tree opened %d content files, want 0", idx2.Read())
	}
	if idx2.Len() != 1000 {
		t.Fatalf("second scan indexed %d files, want 1000", idx2.Len())
	}
	sameListing(t, files, full)
}

func TestScanIndexed_CatchesChanges(t *testing.T) {
	needStat(t)
	root := t.TempDir()
	rels := writeRuleTree(t, root, 20)
	_, idx, err := scanIndexed(root, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	// File systems keep change times in coarse ticks (at most 10 ms on
	// Linux): let one pass, so that the edits below get change times
	// other than the ones the index holds.
	time.Sleep(25 * time.Millisecond)
	path := func(rel string) string { return filepath.Join(root, filepath.FromSlash(rel)) }
	restore := func(rel string, info fs.FileInfo) {
		if err := os.Chtimes(path(rel), info.ModTime(), info.ModTime()); err != nil {
			t.Fatal(err)
		}
	}
	stat := func(rel string) fs.FileInfo {
		info, err := os.Stat(path(rel))
		if err != nil {
			t.Fatal(err)
		}
		return info
	}

	// Same size, mtime restored: the change time gives it away.
	edited := rels[3]
	before := stat(edited)
	body := []byte(fmt.Sprintf("# Rule %d\n\nBody of rule X.\n", 3))
	if int64(len(body)) != before.Size() {
		t.Fatalf("test body has %d bytes, the file %d", len(body), before.Size())
	}
	if err := os.WriteFile(path(edited), body, 0o644); err != nil {
		t.Fatal(err)
	}
	restore(edited, before)

	// Same size and mtime, a new inode: replaced by a rename.
	replaced := rels[7]
	before7 := stat(replaced)
	tmp := filepath.Join(root, "rules", ".tmp")
	if err := os.WriteFile(tmp, []byte(fmt.Sprintf("# Rule %d\n\nBody of rule Y.\n", 7)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path(replaced)); err != nil {
		t.Fatal(err)
	}
	restore(replaced, before7)

	// Size changed, mtime restored.
	grown := rels[11]
	before11 := stat(grown)
	if err := os.WriteFile(path(grown), []byte("# Rule 11\n\nA longer body of rule 11.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	restore(grown, before11)

	full, idx2 := rescan(t, root, idx)
	if idx2.Read() != 3 {
		t.Fatalf("scan read %d files, want the 3 changed ones", idx2.Read())
	}
	for _, f := range full {
		if f.Source == edited && f.Hash != Hash(body) {
			t.Fatalf("edited file has hash %s, want the new body's", f.Hash)
		}
	}

	// A file removed and one added.
	if err := os.Remove(path(rels[0])); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, root, map[string]string{"rules/NEW.md": "# New\n"})
	_, idx3 := rescan(t, root, idx2)
	if idx3.Read() != 1 || idx3.Len() != 20 {
		t.Fatalf("after a removal and an addition: read %d, indexed %d; want 1 and 20", idx3.Read(), idx3.Len())
	}
	// The new index is the old one updated in place: the removed file's
	// entry is gone, and no entry keeps the scan's own marks.
	if _, ok := idx3.files[rels[0]]; ok {
		t.Fatalf("the index still holds %s after its removal", rels[0])
	}
	for rel, e := range idx3.files {
		if e.seen {
			t.Fatalf("entry %s is still marked as seen after the scan", rel)
		}
	}
}

// A file modified shortly before a scan began is read again by the next
// scan, whatever its stat says: a write in the same clock tick could have
// left the stat as it was.
func TestScanIndexed_RacyFilesAreReadAgain(t *testing.T) {
	needStat(t)
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"rules/A.md": "# A\n", "rules/B.md": "# B\n"})
	// Their times a moment ahead of the scan, however slow this machine.
	soon := time.Now().Add(RacyWindow / 2)
	for _, rel := range []string{"rules/A.md", "rules/B.md"} {
		if err := os.Chtimes(filepath.Join(root, rel), soon, soon); err != nil {
			t.Fatal(err)
		}
	}
	_, idx, err := ScanIndexed(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, idx2, err := ScanIndexed(root, idx)
	if err != nil {
		t.Fatal(err)
	}
	if idx2.Read() != 2 {
		t.Fatalf("files written just before the scan: the next scan read %d, want 2", idx2.Read())
	}

	// Modification times long past, change times a moment ago (as a
	// write that puts the modification time back leaves them): read
	// again too.
	past := time.Now().Add(-time.Hour)
	for _, rel := range []string{"rules/A.md", "rules/B.md"} {
		if err := os.Chtimes(filepath.Join(root, rel), past, past); err != nil {
			t.Fatal(err)
		}
	}
	_, idx3, err := ScanIndexed(root, idx2)
	if err != nil {
		t.Fatal(err)
	}
	_, idx4, err := ScanIndexed(root, idx3)
	if err != nil {
		t.Fatal(err)
	}
	if idx4.Read() != 2 {
		t.Fatalf("files changed just before the scan: the next scan read %d, want 2", idx4.Read())
	}
}

func TestIndex_SaveLoad(t *testing.T) {
	needStat(t)
	root := t.TempDir()
	writeRuleTree(t, root, 50)
	writeFiles(t, root, map[string]string{"context/x/NOTES.md": "notes\n"})
	symlink(t, "../../context/x/NOTES.md", root, "rules/g00/LINKED.md")
	_, idx, err := scanIndexed(root, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "scan-index")
	if err := idx.Save(file); err != nil {
		t.Fatal(err)
	}
	loaded, err := LoadIndex(file)
	if err != nil {
		t.Fatal(err)
	}
	if loaded.Len() != idx.Len() || loaded.root != idx.root || loaded.scanned != idx.scanned {
		t.Fatalf("loaded index differs: %d files at %s, saved %d at %s", loaded.Len(), loaded.root, idx.Len(), idx.root)
	}
	for rel, e := range idx.files {
		if loaded.files[rel] != e {
			t.Fatalf("entry %s: loaded %+v, saved %+v", rel, loaded.files[rel], e)
		}
	}
	_, idx2, err := scanIndexed(root, loaded, 0)
	if err != nil {
		t.Fatal(err)
	}
	if idx2.Read() != 0 {
		t.Fatalf("scan with the loaded index read %d files, want 0", idx2.Read())
	}

	// Another root: the index vouches for nothing there.
	other := t.TempDir()
	writeRuleTree(t, other, 5)
	_, idx3, err := scanIndexed(other, loaded, 0)
	if err != nil {
		t.Fatal(err)
	}
	if idx3.Read() != 5 {
		t.Fatalf("scan of another root read %d files, want 5", idx3.Read())
	}

	// Missing: no index, no error. Damaged: an error.
	if x, err := LoadIndex(filepath.Join(t.TempDir(), "none")); x != nil || err != nil {
		t.Fatalf("missing file: got %v, %v; want nil, nil", x, err)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, damaged := range [][]byte{b[:len(b)/2], append(append([]byte{}, b[:40]...), b[41:]...), nil, []byte("not an index")} {
		if err := os.WriteFile(file, damaged, 0o644); err != nil {
			t.Fatal(err)
		}
		if x, err := LoadIndex(file); x != nil || !errors.Is(err, errBadIndex) {
			t.Fatalf("damaged file of %d bytes: got %v, %v; want an error", len(damaged), x, err)
		}
	}
	flipped := append([]byte{}, b...)
	flipped[len(flipped)/2] ^= 1
	if err := os.WriteFile(file, flipped, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadIndex(file); !errors.Is(err, errBadIndex) {
		t.Fatalf("a flipped bit: got %v, want errBadIndex", err)
	}
}

func TestReader_Read(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"META_PROMPT.md":     "meta\n",
		"rules/go/STYLE.md":  "# Style\n",
		"context/x/NOTES.md": "notes\n",
		"rules/BAD.md":       "\xff\xfe",
	})
	symlink(t, "../../context/x/NOTES.md", root, "rules/go/LINKED.md")
	r, err := OpenReader(root)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, rel := range []string{"META_PROMPT.md", "rules/go/STYLE.md", "context/x/NOTES.md", "rules/go/LINKED.md"} {
		got, err := r.Read(rel)
		if err != nil {
			t.Fatalf("Read(%s): %v", rel, err)
		}
		body := map[string]string{"META_PROMPT.md": "meta\n", "rules/go/STYLE.md": "# Style\n"}[rel]
		if body == "" {
			body = "notes\n"
		}
		if want := file(t, rel, body); got != want {
			t.Fatalf("Read(%s) = %+v, want %+v", rel, got, want)
		}
	}
	if _, err := r.Read("rules/BAD.md"); !errors.Is(err, ErrNotUTF8) {
		t.Fatalf("Read of a file that is not UTF-8: got %v, want ErrNotUTF8", err)
	}
	if _, err := r.Read("rules/GONE.md"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Read of a missing file: got %v, want fs.ErrNotExist", err)
	}
	if _, err := r.Read("rules/go"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Read of a folder: got %v, want fs.ErrNotExist", err)
	}
}

// An index of a root that did not exist yet serves as the previous index
// once the root exists: it vouches for nothing there and takes the new
// entries.
func TestScanIndexed_AfterAMissingRoot(t *testing.T) {
	needStat(t)
	root := filepath.Join(t.TempDir(), "content")
	files, idx, err := scanIndexed(root, nil, 0)
	if err != nil || len(files) != 0 || idx.Len() != 0 {
		t.Fatalf("missing root: %d files, %d indexed, %v; want none and no error", len(files), idx.Len(), err)
	}
	writeRuleTree(t, root, 3)
	files, idx2, err := scanIndexed(root, idx, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 3 || idx2.Len() != 3 || idx2.Read() != 3 {
		t.Fatalf("root made: %d files, %d indexed, %d read; want 3 of each", len(files), idx2.Len(), idx2.Read())
	}
}

// TestScanIndexed_HoldsBadFiles checks that ScanIndexed leaves bad content
// files out, names them with why in the index's Held, and returns the rest
// of the tree, where Scan fails on the first.
func TestScanIndexed_HoldsBadFiles(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"rules/go/STYLE.md":  "# Style\n",
		"rules/go/BAD.md":    "# bad \xff\n",
		"context/x/NOTES.md": "notes\n",
		"rules/ BLANK.md":    "# blank name\n",
	})
	files, idx, err := ScanIndexed(root, nil)
	if err != nil {
		t.Fatalf("ScanIndexed with bad files: %v, want them held", err)
	}
	if got, want := sources(files), []string{"rules/go/STYLE.md", "context/x/NOTES.md"}; !slices.Equal(got, want) {
		t.Fatalf("files: got %v, want %v", got, want)
	}
	held := idx.Held()
	if len(held) != 2 || held[0].Path != "rules/ BLANK.md" || !errors.Is(held[0], ErrUnsafeName) ||
		held[1].Path != "rules/go/BAD.md" || !errors.Is(held[1], ErrNotUTF8) {
		t.Fatalf("held: got %v, want the blank name (unsafe) and BAD.md (not UTF-8)", held)
	}
	if idx.Len() != 2 {
		t.Fatalf("the index describes %d files, want the 2 good ones", idx.Len())
	}
	if _, err := Scan(root); err == nil {
		t.Fatal("Scan of the same tree: no error, want the first bad file")
	}
}
