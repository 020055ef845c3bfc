package treecheck

import (
	"crypto/rand"
	"encoding/hex"
	"path"
	"slices"
	"strings"
	"sync"
)

// MaxDirty bounds the paths a Watcher keeps; past it the watcher tells its
// callers to walk the tree once and starts afresh.
const MaxDirty = 100_000

// Dirty is what a Watcher knows of a tree since a point: the paths (files
// or folders, relative to the root, slash-separated) that may have
// changed. Only when Complete is it the whole truth; otherwise the caller
// walks the tree. Epoch and Seq are the point to ask from next time.
type Dirty struct {
	Epoch    string   `json:"epoch"`
	Seq      uint64   `json:"seq"`
	Paths    []string `json:"paths,omitempty"`
	Complete bool     `json:"complete"`
}

// dirtySet is the watcher's memory: each path with the sequence of the
// last notification about it. A new epoch starts when it overflows or the
// system lost notifications; asking from an older epoch gets an
// incomplete answer.
type dirtySet struct {
	mu    sync.Mutex
	epoch string
	seq   uint64
	paths map[string]uint64
	// lost is set when notifications were lost or the set overflowed.
	lost bool
}

func newDirtySet() *dirtySet {
	return &dirtySet{epoch: newEpoch(), paths: map[string]uint64{}}
}

func newEpoch() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// mark notes that rel may have changed. The caller holds mu.
func (d *dirtySet) mark(rel string) {
	d.seq++
	d.paths[rel] = d.seq
	if len(d.paths) > MaxDirty {
		d.reset()
	}
}

// reset starts a new epoch. The caller holds mu.
func (d *dirtySet) reset() {
	d.epoch, d.paths, d.lost = newEpoch(), map[string]uint64{}, false
}

// since answers for the point (epoch, seq). The caller holds mu.
func (d *dirtySet) since(epoch string, seq uint64) Dirty {
	if d.lost {
		d.reset()
	}
	out := Dirty{Epoch: d.epoch, Seq: d.seq}
	if epoch != d.epoch || seq > d.seq {
		return out
	}
	for p, s := range d.paths {
		if s > seq {
			out.Paths = append(out.Paths, p)
		}
	}
	slices.Sort(out.Paths)
	out.Complete = true
	return out
}

// ignored reports whether rel (relative to the root, slash-separated) is
// never checked: under a skipped or pruned folder.
func ignored(rel string, pruned map[string]bool) bool {
	for p := rel; p != "." && p != ""; p = path.Dir(p) {
		if skipped[path.Base(p)] || pruned[p] {
			return true
		}
	}
	return strings.HasPrefix(rel, "../")
}
