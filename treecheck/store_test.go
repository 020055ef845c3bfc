package treecheck

import (
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func write(t *testing.T, root, rel, body string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// check opens the store in state, checks root and closes it.
func check(t *testing.T, state, root string) []Change {
	t.Helper()
	s, err := Open(state, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	ch, err := s.Check(root, []string{".clumsies/state"})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return ch
}

func paths(ch []Change) []string {
	var out []string
	for _, c := range ch {
		out = append(out, c.Path)
	}
	return out
}

// A check reports exactly the files whose content changed since the
// previous one, by any route, with blob ids equal to git's.
func TestCheck_ReportsWhatChanged(t *testing.T) {
	root := t.TempDir()
	state := filepath.Join(root, ".clumsies", "state")
	write(t, root, "src/api/a.go", "package a\n")
	write(t, root, "src/api/b.go", "package b\n")
	write(t, root, "README.md", "hi\n")
	write(t, root, ".git/HEAD", "ref\n")
	write(t, root, "node_modules/x/index.js", "x\n")
	write(t, root, "nested/.git", "gitdir: elsewhere\n")
	write(t, root, "nested/f.txt", "n\n")
	if ch := check(t, state, root); len(ch) != 0 {
		t.Fatalf("baseline reported %v", ch)
	}
	if ch := check(t, state, root); len(ch) != 0 {
		t.Fatalf("nothing changed, reported %v", ch)
	}
	time.Sleep(10 * time.Millisecond)
	write(t, root, "src/api/a.go", "package a // changed\n") // modify
	write(t, root, "src/api/b.go", "package b\n")            // same bytes again
	write(t, root, "src/new.go", "package n\n")              // create
	os.Remove(filepath.Join(root, "README.md"))              // delete
	write(t, root, ".git/HEAD", "other\n")                   // git's store: never walked
	write(t, root, "node_modules/x/index.js", "y\n")         // installed packages: never walked
	write(t, root, "nested/f.txt", "m\n")                    // a nested repository: its own root
	write(t, root, ".clumsies/state/x", "s\n")               // the state folder: pruned
	os.Symlink("src/api", filepath.Join(root, "lnk"))        // a symbolic link is a file
	ch := check(t, state, root)
	want := []string{"README.md", "lnk", "src/api/a.go", "src/new.go"}
	if got := paths(ch); !slices.Equal(got, want) {
		t.Fatalf("changes %v, want %v", got, want)
	}
	for _, c := range ch {
		switch c.Path {
		case "README.md":
			if c.After != "" || c.Before != BlobID([]byte("hi\n")) {
				t.Errorf("deleted file: %+v", c)
			}
		case "src/api/a.go":
			if c.Before != BlobID([]byte("package a\n")) || c.After != gitBlob(t, filepath.Join(root, "src/api/a.go")) {
				t.Errorf("modified file: %+v", c)
			}
		case "src/new.go":
			if c.Before != "" || !c.BeforeKnown || c.After != BlobID([]byte("package n\n")) {
				t.Errorf("created file: %+v", c)
			}
		case "lnk":
			if c.After != BlobID([]byte("src/api")) {
				t.Errorf("symlink: %+v", c)
			}
		}
	}
	if ch := check(t, state, root); len(ch) != 0 {
		t.Fatalf("a second check reported %v again", paths(ch))
	}
}

// gitBlob asks git for a file's blob id where git is installed.
func gitBlob(t *testing.T, path string) string {
	out, err := exec.Command("git", "hash-object", path).Output()
	if err != nil {
		t.Logf("no git (%v): blob id checked against BlobID only", err)
		b, _ := os.ReadFile(path)
		return BlobID(b)
	}
	return strings.TrimSpace(string(out))
}

// Note keeps the content a tool is about to change, so the check after it
// knows the content before, and a touch of a noted file is no change.
func TestNote_KnowsBefore(t *testing.T) {
	root := t.TempDir()
	state := t.TempDir()
	check(t, state, root) // baseline of an empty tree
	write(t, root, "big.bin", strings.Repeat("x", 10))
	check(t, state, root)
	s, err := Open(state, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	got := s.Note(root, []string{"big.bin", "missing.go"})
	if got["big.bin"] != BlobID([]byte(strings.Repeat("x", 10))) || got["missing.go"] != "" {
		t.Fatalf("noted %v", got)
	}
	s.Close()
	now := time.Now().Add(time.Hour)
	os.Chtimes(filepath.Join(root, "big.bin"), now, now) // a touch
	if ch := check(t, state, root); len(ch) != 0 {
		t.Fatalf("a touch reported %v", ch)
	}
}

// A damaged snapshot is started afresh: the next check is a baseline.
func TestOpen_DamagedSnapshot(t *testing.T) {
	root, state := t.TempDir(), t.TempDir()
	write(t, root, "a", "1")
	check(t, state, root)
	os.WriteFile(filepath.Join(state, filesName), []byte("garbage"), 0o600)
	write(t, root, "a", "3")
	if ch := check(t, state, root); len(ch) != 0 {
		t.Fatalf("reported %v after damaged entries", ch)
	}
	os.WriteFile(filepath.Join(state, metaName), []byte("garbage"), 0o600)
	if ch := check(t, state, root); len(ch) != 0 {
		t.Fatalf("reported %v after a damaged snapshot", ch)
	}
	write(t, root, "a", "2")
	if ch := check(t, state, root); !slices.Equal(paths(ch), []string{"a"}) {
		t.Fatalf("reported %v", ch)
	}
}

// Calls open in other sessions are the candidates of a change; a
// session's touched paths are kept for its stop.
func TestCalls_AndTouched(t *testing.T) {
	s, err := Open(t.TempDir(), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	now := time.Now().UnixNano()
	s.OpenCall(Call{Session: "s1", ID: "c1", Started: now})
	s.OpenCall(Call{Session: "s2", ID: "c9", Started: now})
	s.OpenCall(Call{Session: "old", ID: "c0", Started: now - int64(2*callTTL)})
	if got := s.CloseCall("s1", "c1", now); !slices.Equal(got, []string{"s2"}) {
		t.Fatalf("candidates %v, want [s2]", got)
	}
	if _, ok := s.Call("s1", "c1"); ok {
		t.Fatal("closed call still open")
	}
	s.Touch("s1", []Change{{Path: "b", Before: "b0", BeforeKnown: true}, {Path: "a"}, {Path: "c", BeforeKnown: true}})
	s.Touch("s1", []Change{{Path: "b", Before: "b1", BeforeKnown: true}, {Path: "a", Before: "a1", BeforeKnown: true}})
	if got := s.Touched("s1"); !slices.Equal(got, []string{"a", "b", "c"}) {
		t.Fatalf("touched %v", got)
	}
	// The start of the session's whole change: b's first before, c new,
	// a not known then (a later change's before is not the start).
	if got, want := s.TouchedBefore("s1"), map[string]string{"b": "b0", "c": ""}; !maps.Equal(got, want) {
		t.Fatalf("touched before %v, want %v", got, want)
	}
}

// Two processes' checks never interleave: the second waits for the lock.
func TestOpen_Locks(t *testing.T) {
	state := t.TempDir()
	s, err := Open(state, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Open(state, 20*time.Millisecond); err == nil {
		t.Fatal("a second store opened while the first held the lock")
	}
	s.Close()
	s2, err := Open(state, 20*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	s2.Close()
}

func FuzzDecode(f *testing.F) {
	f.Add(encodeFiles(map[string]entry{"a": {size: 1, blob: "x"}}))
	f.Fuzz(func(t *testing.T, b []byte) {
		decodeFiles(b) // never panics
	})
}

func writeB(b *testing.B, p, body string) {
	b.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		b.Fatal(err)
	}
}
