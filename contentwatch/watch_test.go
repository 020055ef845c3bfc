package contentwatch

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/clumsies/clumsies/internal/notifytest"
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

// requireNotifications skips t when the system refuses file notifications
// for root (the user's inotify instances or watches used up, no inotify),
// and fails it when they cannot be had for any other reason.
func requireNotifications(t *testing.T, root string) {
	t.Helper()
	n, err := newNotifier(root)
	if err == nil {
		err = n.watch([]string{root})
		n.close()
	}
	notifytest.Require(t, err)
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
	requireNotifications(t, root)
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

// notified runs Run on a new tree with notifications and a rescan longer
// than the test, so that every report comes from a notification, and
// waits for the initial report.
func notified(t *testing.T) (root string, await func(what, want string)) {
	t.Helper()
	root = newTree(t)
	requireNotifications(t, root)
	seen := watcher(t, root, Options{Initial: true, Rescan: time.Hour})
	await = func(what, want string) { t.Helper(); awaitReport(t, seen, what, want) }
	await("initial", "rules/style/ERRORS.md=# Errors")
	return root, await
}

// TestRun_EditorSaves checks that each way an editor saves a file is
// reported by a notification: a temporary file renamed over the file
// (vim's writebackup, VS Code, JetBrains' safe write), a truncation and
// a write (vim's default, nano), a removal and a new file.
func TestRun_EditorSaves(t *testing.T) {
	root, await := notified(t)
	rule := filepath.Join(root, "rules/style/ERRORS.md")

	tmp := filepath.Join(root, "rules/style/.ERRORS.md.tmp")
	write(t, tmp, "# Errors A")
	if err := os.Rename(tmp, rule); err != nil {
		t.Fatal(err)
	}
	await("a temporary file renamed over the rule", "rules/style/ERRORS.md=# Errors A")

	f, err := os.OpenFile(rule, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("# Errors B"); err != nil { // as long as before: only the time differs
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	await("a truncation and a write", "rules/style/ERRORS.md=# Errors B")

	if err := os.Remove(rule); err != nil {
		t.Fatal(err)
	}
	write(t, rule, "# Errors C")
	await("a removal and a new file", "rules/style/ERRORS.md=# Errors C")

	// A backup beside the file (emacs, vim's backup), then the write.
	write(t, rule+"~", "# Errors C")
	write(t, rule, "# Errors D")
	await("a backup and a write", "rules/style/ERRORS.md=# Errors D rules/style/ERRORS.md~=# Errors C")
}

// TestRun_NewFolders checks that folders made while Run watches are
// watched: a file written at once in a new nested folder is reported,
// and so is a later edit in it.
func TestRun_NewFolders(t *testing.T) {
	root, await := notified(t)
	deep := filepath.Join(root, "rules/a/b/c/D.md")
	write(t, deep, "d")
	await("a file in new nested folders", "rules/a/b/c/D.md=d rules/style/ERRORS.md=# Errors")
	write(t, deep, "d2")
	await("an edit in the new folder", "rules/a/b/c/D.md=d2 rules/style/ERRORS.md=# Errors")
	write(t, filepath.Join(root, "context/E.md"), "e")
	await("a new context folder", "context/E.md=e rules/a/b/c/D.md=d2 rules/style/ERRORS.md=# Errors")
}

// TestRun_RenameOut checks that a file and a folder moved out of the tree
// are reported gone, and that a new folder made under the moved one's
// name is watched (the kernel keeps watching the moved one where it went).
func TestRun_RenameOut(t *testing.T) {
	root, await := notified(t)
	outside := t.TempDir()
	write(t, filepath.Join(root, "rules/style/WRAP.md"), "wrap")
	await("a second rule", "rules/style/ERRORS.md=# Errors rules/style/WRAP.md=wrap")

	if err := os.Rename(filepath.Join(root, "rules/style/WRAP.md"), filepath.Join(outside, "WRAP.md")); err != nil {
		t.Fatal(err)
	}
	await("a file moved out", "rules/style/ERRORS.md=# Errors")

	if err := os.Rename(filepath.Join(root, "rules/style"), filepath.Join(outside, "style")); err != nil {
		t.Fatal(err)
	}
	await("a folder moved out", "")
	// The moved folder, outside, is no concern of the tree's.
	write(t, filepath.Join(outside, "style/ERRORS.md"), "# Errors outside")

	write(t, filepath.Join(root, "rules/style/NEW.md"), "new")
	await("a folder made again under the old name", "rules/style/NEW.md=new")
	write(t, filepath.Join(root, "rules/style/NEW.md"), "new, edited")
	await("an edit in the folder made again", "rules/style/NEW.md=new, edited")
}

// TestRun_NoMissedChange writes many files in many new folders as fast
// as it can, then edits the last one: the reports end on the tree as it
// is.
func TestRun_NoMissedChange(t *testing.T) {
	root, await := notified(t)
	var want []string
	for i := range 300 {
		rel := fmt.Sprintf("rules/g%02d/h%d/R%03d.md", i%30, i%3, i)
		write(t, filepath.Join(root, rel), fmt.Sprint(i))
		want = append(want, fmt.Sprintf("%s=%d", rel, i))
	}
	want = append(want, "rules/style/ERRORS.md=# Errors")
	sort.Strings(want)
	await("300 files in 120 new folders", strings.Join(want, " "))

	last := "rules/g29/h2/R299.md"
	write(t, filepath.Join(root, last), "edited")
	for i, w := range want {
		if strings.HasPrefix(w, last+"=") {
			want[i] = last + "=edited"
		}
	}
	await("an edit in the last new folder", strings.Join(want, " "))
}

// TestInterval checks how often the fingerprint is compared: the rescan
// while notifications cover the tree, faster on a network file system,
// and without notifications an interval that grows with a comparison's
// time, between DefaultPoll and MaxPoll.
func TestInterval(t *testing.T) {
	for _, tc := range []struct {
		name string
		w    watch
		want time.Duration
	}{
		{"notified", watch{covered: true, took: time.Second}, DefaultRescan},
		{"notified, on a network file system", watch{covered: true, shared: true}, DefaultRescanShared},
		{"notified, Rescan set", watch{covered: true, shared: true, opts: Options{Rescan: time.Hour}}, time.Hour},
		{"polling a small tree", watch{took: time.Millisecond}, DefaultPoll},
		{"polling a tree that takes 20 ms", watch{took: 20 * time.Millisecond}, 2 * time.Second},
		{"polling a huge tree", watch{took: time.Second}, MaxPoll},
		{"polling, Poll set", watch{took: time.Second, opts: Options{Poll: time.Millisecond}}, time.Millisecond},
		{"a root not made yet", watch{covered: false, n: nil}, DefaultPoll},
	} {
		if got := tc.w.interval(); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
