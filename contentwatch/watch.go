package contentwatch

import (
	"context"
	"crypto/sha256"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"time"
)

// Defaults of Options.
const (
	// DefaultDebounce is how long the tree must stay quiet after a change
	// before it is reported: an editor's save (a temporary file, a rename,
	// a write) or a `git checkout` is reported once.
	DefaultDebounce = 100 * time.Millisecond
	// DefaultPoll is the shortest interval of the fingerprint comparison
	// when there are no notifications (other systems, network mounts,
	// notifications refused); a large tree is compared less often
	// (MaxPoll).
	DefaultPoll = 500 * time.Millisecond
	// MaxPoll is the longest interval the comparison stretches to on a
	// large tree when polling alone: each comparison reads every file's
	// metadata, and it takes at most about 1% of a core.
	MaxPoll = 5 * time.Second
	// DefaultRescan is the interval of the comparison while notifications
	// arrive, a safety net for a change they do not tell of.
	DefaultRescan = time.Minute
	// DefaultRescanShared is that interval when the tree is on a network
	// file system (NFS, SMB, FUSE, 9p...), where a change made on another
	// machine sends no notification here.
	DefaultRescanShared = 2 * time.Second
)

// pollShare is how many times a comparison's duration the polling
// interval is at least: about 1% of a core spent comparing.
const pollShare = 100

// Options configure Run. The zero value is ready to use.
type Options struct {
	// Debounce is the quiet time before a change is reported; zero means
	// DefaultDebounce.
	Debounce time.Duration
	// Poll is the interval of the fingerprint comparison without
	// notifications; zero means DefaultPoll, stretched on a large tree up
	// to MaxPoll.
	Poll time.Duration
	// Rescan is the interval of the fingerprint comparison while
	// notifications arrive; zero means DefaultRescan, or
	// DefaultRescanShared on a network file system.
	Rescan time.Duration
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
	// watch makes the watched folders dirs: it adds those not watched
	// yet and lets go of the others (moved out of the tree or gone). It
	// fails when the system cannot watch them all (the caller then polls).
	watch(dirs []string) error
	close()
}

// Run watches the content tree under root (its META_PROMPT.md, rules/ and
// context/; everything else under root, and hidden files, are left out)
// until ctx ends, and then returns nil. Each time the tree has changed and
// then stayed quiet for Options.Debounce, it calls changed, from Run's own
// goroutine, so never twice at once; changes made while changed runs are
// reported by a later call. The tree as it is when Run starts is not
// reported unless Options.Initial is set. A root that does not exist yet
// is watched by polling until it does.
func Run(ctx context.Context, root string, opts Options, changed func()) error {
	w := newWatch(root, opts)
	defer w.stop()
	quiet := time.NewTimer(w.debounce)
	if !opts.Initial {
		quiet.Stop()
	}
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-w.notified:
			quiet.Reset(w.debounce)
		case <-w.ticker.C:
			if w.compare() {
				quiet.Reset(w.debounce)
			}
		case <-quiet.C:
			// Folders made since the last look need their own watch.
			w.rewatch()
			w.compare()
			if ctx.Err() != nil {
				return nil
			}
			changed()
		}
	}
}

// watch is Run's state: the notifier, if any, the last fingerprint and
// the comparison's ticker.
type watch struct {
	root     string
	opts     Options
	logger   *slog.Logger
	debounce time.Duration
	n        notifier
	notified <-chan struct{} // n's changes; nil when polling
	covered  bool            // n watches root (it existed at the last rewatch)
	shared   bool            // root is on a network file system
	last     [sha256.Size]byte
	took     time.Duration // the last comparison's duration
	ticker   *time.Ticker
	every    time.Duration // the ticker's interval
}

func newWatch(root string, opts Options) *watch {
	w := &watch{opts: opts, logger: opts.Logger, debounce: opts.Debounce}
	if w.logger == nil {
		w.logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if abs, err := filepath.Abs(root); err == nil {
		root = abs
	}
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	w.root = root
	if w.debounce <= 0 {
		w.debounce = DefaultDebounce
	}
	if !opts.NoNotify {
		n, err := newNotifier(root)
		if err != nil {
			w.logger.Info("no file notifications for the content tree; polling it", "root", root, "err", err)
		} else {
			w.n, w.notified = n, n.changes()
			w.rewatch()
		}
	}
	w.compare()
	w.every = w.interval()
	w.ticker = time.NewTicker(w.every)
	return w
}

// rewatch makes the notifier watch the tree's folders as they are now;
// when it cannot, Run polls from then on.
func (w *watch) rewatch() {
	if w.n == nil {
		return
	}
	info, err := os.Stat(w.root)
	exists := err == nil && info.IsDir()
	if err := w.n.watch(dirs(w.root)); err != nil {
		w.logger.Warn("cannot watch the content tree; polling it", "root", w.root, "err", err)
		w.n.close()
		w.n, w.notified, w.covered = nil, nil, false
		return
	}
	if exists && !w.covered {
		w.shared = sharedFS(w.root)
	}
	w.covered = exists
}

// compare takes the tree's fingerprint, says whether it changed since
// the last, and sets the ticker to the interval the watch calls for now.
func (w *watch) compare() bool {
	start := time.Now()
	fp := fingerprint(w.root)
	w.took = time.Since(start)
	changed := fp != w.last
	w.last = fp
	if w.ticker != nil {
		if every := w.interval(); every != w.every {
			w.every = every
			w.ticker.Reset(every)
		}
	}
	return changed
}

// interval is how often the tree's fingerprint is compared: Rescan while
// notifications cover the tree, else Poll, which on its default grows
// with the time a comparison takes.
func (w *watch) interval() time.Duration {
	switch {
	case w.covered && w.opts.Rescan > 0:
		return w.opts.Rescan
	case w.covered && w.shared:
		return DefaultRescanShared
	case w.covered:
		return DefaultRescan
	case w.opts.Poll > 0:
		return w.opts.Poll
	}
	return min(max(DefaultPoll, pollShare*w.took), MaxPoll)
}

func (w *watch) stop() {
	w.ticker.Stop()
	if w.n != nil {
		w.n.close()
	}
}
