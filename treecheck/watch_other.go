//go:build !linux

package treecheck

import "errors"

// Watcher is not available on this system: checks walk the tree.
type Watcher struct{}

// NewWatcher fails: there are no notifications to watch with here.
func NewWatcher(root string, prune []string) (*Watcher, error) {
	return nil, errors.New("treecheck: no file notifications on this system")
}

// Since says nothing is known.
func (w *Watcher) Since(epoch string, seq uint64) Dirty { return Dirty{} }

// Close does nothing.
func (w *Watcher) Close() error { return nil }
