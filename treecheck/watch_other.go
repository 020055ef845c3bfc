//go:build !linux

package treecheck

import (
	"errors"
	"fmt"
)

// Watcher is not available on this system: checks walk the tree.
type Watcher struct{}

// NewWatcher fails: there are no notifications to watch with here.
func NewWatcher(root string, prune []string) (*Watcher, error) {
	return nil, fmt.Errorf("treecheck: no file notifications on this system: %w", errors.ErrUnsupported)
}

// Since says nothing is known.
func (w *Watcher) Since(epoch string, seq uint64) Dirty { return Dirty{} }

// Close does nothing.
func (w *Watcher) Close() error { return nil }
