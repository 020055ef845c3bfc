package contentwatch

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"time"
)

// Defaults of Options.
const (
	// DefaultDebounce is how long the tree must stay quiet after a change
	// before it is reported: an editor's save (a temporary file, a rename,
	// a write) or a `git checkout` is reported once.
	DefaultDebounce = 100 * time.Millisecond
	// DefaultPoll is how often the tree's fingerprint is compared while
	// notifications arrive, in case the file system sends none for some
	// changes (a network mount written from another machine).
	DefaultPoll = 2 * time.Second
	// DefaultPollAlone is how often it is compared when there are no
	// notifications at all.
	DefaultPollAlone = 500 * time.Millisecond
)

// Options configure Run. The zero value is ready to use.
type Options struct {
	// Debounce is the quiet time before a change is reported; zero means
	// DefaultDebounce.
	Debounce time.Duration
	// Poll is the interval of the fingerprint comparison; zero means
	// DefaultPoll, or DefaultPollAlone without notifications.
	Poll time.Duration
	// NoNotify leaves the operating system's notifications unused: Run
	// only polls.
	NoNotify bool
	// Initial makes Run call changed once as soon as it watches, for the
	// tree as it is then (changes made while nothing watched).
	Initial bool
	// Logger receives why notifications are not used; nil discards it.
	Logger *slog.Logger
}

// notifier is the operating system's view of changes under a set of
// folders.
type notifier interface {
	// changes receives a value when something changed under a folder
	// being watched (several changes may share one value).
	changes() <-chan struct{}
	// watch adds the folders not watched yet. It fails when the system
	// cannot watch more (the caller then polls).
	watch(dirs []string) error
	close()
}

// Run watches the content tree under root (its META_PROMPT.md, rules/ and
// context/; everything else under root, and hidden files, are left out)
// until ctx ends, and then returns nil. Each time the tree has changed and
// then stayed quiet for Options.Debounce, it calls changed, from Run's own
// goroutine, so never twice at once; changes made while changed runs are
// reported by a later call. The tree as it is when Run starts is not
// reported unless Options.Initial is set. A root that does not exist yet is watched by polling until it
// does.
func Run(ctx context.Context, root string, opts Options, changed func()) error {
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if abs, err := filepath.Abs(root); err == nil {
		root = abs
	}
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	debounce := opts.Debounce
	if debounce <= 0 {
		debounce = DefaultDebounce
	}

	var n notifier
	if !opts.NoNotify {
		var err error
		if n, err = newNotifier(root); err != nil {
			logger.Info("no file notifications for the content tree; polling it", "root", root, "err", err)
			n = nil
		} else if err := n.watch(dirs(root)); err != nil {
			logger.Warn("cannot watch the content tree; polling it", "root", root, "err", err)
			n.close()
			n = nil
		}
	}
	poll := opts.Poll
	if poll <= 0 {
		poll = DefaultPoll
		if n == nil {
			poll = DefaultPollAlone
		}
	}
	var notified <-chan struct{}
	if n != nil {
		defer n.close()
		notified = n.changes()
	}

	last := fingerprint(root)
	ticker := time.NewTicker(poll)
	defer ticker.Stop()
	quiet := time.NewTimer(debounce)
	if !opts.Initial {
		quiet.Stop()
	}
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-notified:
			quiet.Reset(debounce)
		case <-ticker.C:
			if fp := fingerprint(root); fp != last {
				last = fp
				quiet.Reset(debounce)
			}
		case <-quiet.C:
			if n != nil {
				// Folders made since the last look need their own watch.
				if err := n.watch(dirs(root)); err != nil {
					logger.Warn("cannot watch the content tree; polling it", "root", root, "err", err)
					n.close()
					n, notified = nil, nil
					ticker.Reset(DefaultPollAlone)
				}
			}
			last = fingerprint(root)
			if ctx.Err() != nil {
				return nil
			}
			changed()
		}
	}
}
