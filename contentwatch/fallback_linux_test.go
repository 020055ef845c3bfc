package contentwatch

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
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
	requireNotifications(t, root)
	logs := make(messages, 100)
	seen := watcher(t, root, Options{Initial: true, Rescan: time.Hour, Poll: 20 * time.Millisecond, Logger: slog.New(logs)})
	awaitReport(t, seen, "initial", "rules/style/ERRORS.md=# Errors")
	if logs.saw("polling") {
		t.Fatal("Run polls a tree it can watch")
	}
	// A fourth folder is one too many.
	write(t, filepath.Join(root, "context/arch/A.md"), "a")
	awaitReport(t, seen, "a new folder past the limit", "context/arch/A.md=a rules/style/ERRORS.md=# Errors")
	if !logs.saw("cannot watch the content tree; polling it") {
		t.Fatal("Run did not say it polls")
	}
	// Polling alone from now on: edits in old and new folders are seen.
	write(t, filepath.Join(root, "context/arch/A.md"), "a, longer")
	awaitReport(t, seen, "an edit while polling", "context/arch/A.md=a, longer rules/style/ERRORS.md=# Errors")
	if err := os.Remove(filepath.Join(root, "rules/style/ERRORS.md")); err != nil {
		t.Fatal(err)
	}
	awaitReport(t, seen, "a removal while polling", "context/arch/A.md=a, longer")
}

// messages is a slog.Handler that passes on the messages logged, for
// the test to read while Run logs.
type messages chan string

func (m messages) Enabled(context.Context, slog.Level) bool { return true }
func (m messages) WithAttrs([]slog.Attr) slog.Handler       { return m }
func (m messages) WithGroup(string) slog.Handler            { return m }

func (m messages) Handle(_ context.Context, r slog.Record) error {
	select {
	case m <- r.Message:
	default: // the test reads a few; more are not its concern
	}
	return nil
}

// saw reads the messages logged so far and says whether one contains
// text.
func (m messages) saw(text string) bool {
	for {
		select {
		case msg := <-m:
			if strings.Contains(msg, text) {
				return true
			}
		default:
			return false
		}
	}
}
