package contentwatch

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestRun_FallbackToPolling forces what happens when the system cannot
// watch the tree's folders (the user's inotify watches used up): Run says
// so, polls, and still sees every change.
func TestRun_FallbackToPolling(t *testing.T) {
	defer func(old int) { maxWatches = old }(maxWatches)
	maxWatches = 3 // root, rules and rules/style
	root := newTree(t)
	logs := newMessages()
	logger := slog.New(logs)
	seen := watcher(t, root, Options{Initial: true, Rescan: time.Hour, Poll: 20 * time.Millisecond, Logger: logger})
	awaitReport(t, seen, "initial", "rules/style/ERRORS.md=# Errors")
	if strings.Contains(logs.String(), "polling") {
		t.Fatalf("Run polls a tree it can watch: %s", logs.String())
	}
	// A fourth folder is one too many.
	write(t, filepath.Join(root, "context/arch/A.md"), "a")
	awaitReport(t, seen, "a new folder past the limit", "context/arch/A.md=a rules/style/ERRORS.md=# Errors")
	if !strings.Contains(logs.String(), "cannot watch the content tree; polling it") {
		t.Fatalf("Run did not say it polls: %q", logs.String())
	}
	// Polling alone from now on: edits in old and new folders are seen.
	write(t, filepath.Join(root, "context/arch/A.md"), "a, longer")
	awaitReport(t, seen, "an edit while polling", "context/arch/A.md=a, longer rules/style/ERRORS.md=# Errors")
	if err := os.Remove(filepath.Join(root, "rules/style/ERRORS.md")); err != nil {
		t.Fatal(err)
	}
	awaitReport(t, seen, "a removal while polling", "context/arch/A.md=a, longer")
}

// messages is a slog.Handler that keeps the messages logged, for the test
// to read while Run logs.
type messages struct {
	mu  *sync.Mutex
	got *[]string
}

func newMessages() messages { return messages{&sync.Mutex{}, new([]string)} }

func (m messages) Enabled(context.Context, slog.Level) bool { return true }
func (m messages) WithAttrs([]slog.Attr) slog.Handler       { return m }
func (m messages) WithGroup(string) slog.Handler            { return m }

func (m messages) Handle(_ context.Context, r slog.Record) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	*m.got = append(*m.got, r.Message)
	return nil
}

func (m messages) String() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return strings.Join(*m.got, "\n")
}
