package node

import (
	"context"
	"os"
	"path/filepath"
	"sync"

	"github.com/clumsies/clumsies/treecheck"
)

// maxTreeWatchers bounds the working trees one owner watches: the
// workspace's and a few linked worktrees'.
const maxTreeWatchers = 8

// TreeQuery asks what may have changed in a working tree (Root: the
// workspace's folder, or a linked git worktree's) since a point of the
// owner's notifications (Epoch, Seq, from the last answer), leaving out
// the folders Prune names (relative to Root).
type TreeQuery struct {
	Root  string   `json:"root"`
	Epoch string   `json:"epoch"`
	Seq   uint64   `json:"seq"`
	Prune []string `json:"prune,omitempty"`
}

var mTreeDirty = register("treedirty", (*owner).treeDirty)

// TreeDirty asks the owner which paths of a working tree may have changed
// since a point (see treecheck.Dirty): the hooks' working-tree check then
// stats those instead of walking the tree. The owner starts watching a
// tree the first time it is asked about it, and that answer is
// incomplete, as is every answer where it cannot watch.
func (h *Handle) TreeDirty(ctx context.Context, q TreeQuery) (treecheck.Dirty, error) {
	return mTreeDirty.call(ctx, h, q)
}

// treeWatchers are the owner's watchers of working trees.
type treeWatchers struct {
	mu      sync.Mutex
	closed  bool
	byRoot  map[string]*treecheck.Watcher
	refused map[string]bool // trees that cannot be watched: answered incomplete
}

func (o *owner) treeDirty(_ context.Context, q TreeQuery) (treecheck.Dirty, error) {
	t := &o.trees
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed || !o.mayWatch(q.Root) {
		return treecheck.Dirty{}, nil
	}
	if w := t.byRoot[q.Root]; w != nil {
		return w.Since(q.Epoch, q.Seq), nil
	}
	if t.refused[q.Root] || len(t.byRoot) >= maxTreeWatchers {
		return treecheck.Dirty{}, nil
	}
	w, err := treecheck.NewWatcher(q.Root, q.Prune)
	if err != nil {
		o.n.logger.Info("hooks walk the working tree: it cannot be watched", "root", q.Root, "err", err)
		if t.refused == nil {
			t.refused = map[string]bool{}
		}
		t.refused[q.Root] = true
		return treecheck.Dirty{}, nil
	}
	if t.byRoot == nil {
		t.byRoot = map[string]*treecheck.Watcher{}
	}
	t.byRoot[q.Root] = w
	return w.Since(q.Epoch, q.Seq), nil
}

// mayWatch reports whether root is a working tree the owner watches: the
// workspace's folder, or a folder with a .git file (a linked worktree).
func (o *owner) mayWatch(root string) bool {
	if !filepath.IsAbs(root) {
		return false
	}
	if filepath.Clean(root) == filepath.Clean(o.n.WS.Root) {
		return true
	}
	fi, err := os.Lstat(filepath.Join(root, ".git"))
	return err == nil && fi.Mode().IsRegular()
}

// closeTrees stops every watcher.
func (o *owner) closeTrees() {
	t := &o.trees
	t.mu.Lock()
	defer t.mu.Unlock()
	t.closed = true
	for _, w := range t.byRoot {
		w.Close()
	}
	t.byRoot = nil
}
