package contentwatch

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// wait bounds how long a test waits for a change to be reported; reports
// come within Debounce (plus Poll when polling), far less than this.
const wait = 20 * time.Second

// snapshot is the content tree as the callback saw it: "path=body" lines.
func snapshot(tb testing.TB, root string) string {
	tb.Helper()
	var out []string
	filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		if !strings.HasPrefix(rel, "rules") && !strings.HasPrefix(rel, "context") && rel != "META_PROMPT.md" {
			return nil
		}
		b, _ := os.ReadFile(path)
		out = append(out, filepath.ToSlash(rel)+"="+strings.TrimSpace(string(b)))
		return nil
	})
	sort.Strings(out)
	return strings.Join(out, " ")
}

// watcher runs Run on root and returns a channel of what each call of
// changed saw.
func watcher(tb testing.TB, root string, opts Options) <-chan string {
	tb.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	seen := make(chan string, 100)
	done := make(chan error, 1)
	go func() { done <- Run(ctx, root, opts, func() { seen <- snapshot(tb, root) }) }()
	tb.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			tb.Errorf("Run: %v", err)
		}
	})
	return seen
}

// awaitReport waits until a call of changed sees want.
func awaitReport(tb testing.TB, seen <-chan string, what, want string) {
	tb.Helper()
	deadline := time.After(wait)
	var last string
	for {
		select {
		case s := <-seen:
			if s == want {
				return
			}
			last = s
		case <-deadline:
			tb.Fatalf("%s: no report saw the tree as\n%s\nlast report saw\n%s", what, want, last)
		}
	}
}

func write(tb testing.TB, path, body string) {
	tb.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		tb.Fatal(err)
	}
}

// steps edits the tree under root as a user would and checks that each
// change is reported.
func steps(t *testing.T, root string, seen <-chan string) {
	rule := filepath.Join(root, "rules/style/ERRORS.md")
	await := func(what, want string) { t.Helper(); awaitReport(t, seen, what, want) }
	// The initial report says Run is watching.
	await("initial", "rules/style/ERRORS.md=# Errors")

	write(t, rule, "# Errors v2")
	await("edit", "rules/style/ERRORS.md=# Errors v2")

	write(t, filepath.Join(root, "context/arch/NEW.md"), "new")
	await("a new file in a new folder", "context/arch/NEW.md=new rules/style/ERRORS.md=# Errors v2")

	if err := os.Rename(rule, filepath.Join(root, "rules/style/WRAP.md")); err != nil {
		t.Fatal(err)
	}
	await("rename", "context/arch/NEW.md=new rules/style/WRAP.md=# Errors v2")

	if err := os.Remove(filepath.Join(root, "context/arch/NEW.md")); err != nil {
		t.Fatal(err)
	}
	await("deletion", "rules/style/WRAP.md=# Errors v2")

	write(t, filepath.Join(root, "META_PROMPT.md"), "frame")
	await("a new META_PROMPT", "META_PROMPT.md=frame rules/style/WRAP.md=# Errors v2")
}

func newTree(tb testing.TB) string {
	tb.Helper()
	root := tb.TempDir()
	write(tb, filepath.Join(root, "rules/style/ERRORS.md"), "# Errors")
	write(tb, filepath.Join(root, "config.toml"), "workspace_id = \"ws-x\"")
	return root
}

func TestRun_Notifications(t *testing.T) {
	root := newTree(t)
	n, err := newNotifier(root)
	if err != nil {
		t.Fatalf("no notifications on this system (%v): the notification path is untested", err)
	}
	n.close()
	// A poll interval longer than the test: every report comes from a
	// notification.
	steps(t, root, watcher(t, root, Options{Initial: true, Poll: time.Hour}))
}

func TestRun_Polling(t *testing.T) {
	root := newTree(t)
	steps(t, root, watcher(t, root, Options{Initial: true, NoNotify: true, Poll: 20 * time.Millisecond}))
}

func TestRun_Initial(t *testing.T) {
	root := newTree(t)
	awaitReport(t, watcher(t, root, Options{Initial: true, Poll: time.Hour}), "initial", "rules/style/ERRORS.md=# Errors")
}

func TestRun_RootAppearsLater(t *testing.T) {
	parent := t.TempDir()
	root := filepath.Join(parent, "content")
	seen := watcher(t, root, Options{Initial: true, Poll: 20 * time.Millisecond})
	awaitReport(t, seen, "initial", "")
	write(t, filepath.Join(root, "rules/A.md"), "a")
	awaitReport(t, seen, "a root made after Run started", "rules/A.md=a")
}

// TestFingerprint_OnlyTheTree checks what the fingerprint covers: files
// outside META_PROMPT.md, rules/ and context/, and hidden files, change
// nothing; content files do.
func TestFingerprint_OnlyTheTree(t *testing.T) {
	root := newTree(t)
	before := fingerprint(root)
	write(t, filepath.Join(root, "config.toml"), "changed = true")
	write(t, filepath.Join(root, "state/stream/1.blk"), "data")
	write(t, filepath.Join(root, "rules/style/.ERRORS.md.swp"), "swap")
	write(t, filepath.Join(root, "rules/.git/HEAD"), "x")
	if fingerprint(root) != before {
		t.Fatal("files outside the content tree changed the fingerprint")
	}
	write(t, filepath.Join(root, "rules/style/ERRORS.md"), "# Errors, longer")
	if fingerprint(root) == before {
		t.Fatal("an edited rule left the fingerprint unchanged")
	}
}

func TestRelevant(t *testing.T) {
	for _, tc := range []struct {
		dir, name string
		want      bool
	}{
		{"/ws/.clumsies", "config.toml", false},
		{"/ws/.clumsies", "state", false},
		{"/ws/.clumsies", "rules", true},
		{"/ws/.clumsies", "META_PROMPT.md", true},
		{"/ws/.clumsies/rules/style", "ERRORS.md", true},
		{"/ws/.clumsies/rules/style", ".ERRORS.md.swp", false},
		{"/ws/.clumsies/rules/style", "", true},
	} {
		if got := relevant("/ws/.clumsies", tc.dir, tc.name); got != tc.want {
			t.Errorf("%s/%s: got %v, want %v", tc.dir, tc.name, got, tc.want)
		}
	}
}
