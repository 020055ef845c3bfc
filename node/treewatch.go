package node

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/clumsies/clumsies/projections"
	"github.com/clumsies/clumsies/treecheck"
)

// maxTrees bounds the working trees one owner keeps: the workspace's and
// a few linked worktrees'.
const maxTrees = 8

// Bounds of the owner's work on a tree.
const (
	// treeLockWait is how long the owner waits for a tree's snapshot held
	// by another process (an owner of an earlier version).
	treeLockWait = 3 * time.Second
	// treeFlushAfter is how soon after a request the owner writes what
	// changed of a snapshot: after the answer, so that no hook waits for it.
	treeFlushAfter = 20 * time.Millisecond
)

// TreeOp is what a TreeRequest asks of a working tree.
type TreeOp string

// The tree operations.
const (
	// TreeNote reads the files a tool is about to change (Paths) and opens
	// the tool call's window: the pre-tool hook.
	TreeNote TreeOp = "note"
	// TreeCheck names the files whose content changed since the last
	// check, attributed to the call, and closes its window: the post-tool
	// hook.
	TreeCheck TreeOp = "check"
	// TreeStop is TreeCheck at the end of a turn: it closes every window of
	// the session and also returns every path the session changed.
	TreeStop TreeOp = "stop"
	// TreeAbsorb brings the snapshot up to date without attributing
	// anything: a session's start, a prompt.
	TreeAbsorb TreeOp = "absorb"
)

// TreeRequest asks the owner about a working tree: Root is the
// workspace's folder or a linked git worktree's; Prune the folders left
// out (relative to Root).
type TreeRequest struct {
	Op      TreeOp   `json:"op"`
	Root    string   `json:"root"`
	Prune   []string `json:"prune,omitempty"`
	Session string   `json:"session"`
	Call    string   `json:"call,omitempty"`
	Paths   []string `json:"paths,omitempty"`
	// Watch asks the owner to watch the tree's changes from now on, so
	// that later checks stat only what changed: set by a process that is
	// not the owner (a short-lived owner would watch for nothing).
	Watch bool `json:"watch,omitempty"`
}

// TreeReply is the owner's answer.
type TreeReply struct {
	// Blobs are the blob ids of Paths (TreeNote), "" for a missing file.
	Blobs map[string]string `json:"blobs,omitempty"`
	// Changes are the files whose content changed (TreeCheck, TreeStop).
	Changes []treecheck.Change `json:"changes,omitempty"`
	// Candidates are the other sessions with a call open meanwhile.
	Candidates []string `json:"candidates,omitempty"`
	// Touched are the paths the session changed (TreeStop).
	Touched []string `json:"touched,omitempty"`
	// TouchedHere are the paths the session changed in this tree
	// (TreeStop).
	TouchedHere []string `json:"touchedHere,omitempty"`
	// TouchedBefore are the blob ids of the paths the session changed in
	// this tree before its first change of each, where known (TreeStop):
	// the session's whole change of a file goes from there to now.
	TouchedBefore map[string]string `json:"touchedBefore,omitempty"`
	// Republished is set when the catalog changed (rules or workflows
	// were published) while the call ran (TreeCheck).
	Republished bool `json:"republished,omitempty"`
}

var mTree = register("tree", (*owner).tree)

// Tree has the owner do what the hooks ask of a working tree (see
// TreeOp): the owner keeps the tree's snapshot (in memory, written to the
// state folder after each answer) and, where it can, watches the tree, so
// that a check stats only what changed.
func (h *Handle) Tree(ctx context.Context, q TreeRequest) (TreeReply, error) {
	return mTree.call(ctx, h, q)
}

// trees are the working trees an owner keeps.
type trees struct {
	mu     sync.Mutex
	closed bool
	byRoot map[string]*tree
}

// tree is one working tree: its snapshot, held open (and locked) while
// the owner lives, and its watcher where there is one.
type tree struct {
	st      *treecheck.Store
	w       *treecheck.Watcher
	refused bool // the tree cannot be watched
	flush   *time.Timer
}

func (o *owner) tree(_ context.Context, q TreeRequest) (TreeReply, error) {
	if !o.mayWatch(q.Root) {
		return TreeReply{}, fmt.Errorf("tree %s: neither the workspace's folder nor a linked worktree", q.Root)
	}
	t := &o.trees
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return TreeReply{}, fmt.Errorf("tree %s: the owner is closing", q.Root)
	}
	tr := t.byRoot[q.Root]
	if tr == nil {
		if len(t.byRoot) >= maxTrees {
			return TreeReply{}, fmt.Errorf("tree %s: the owner keeps %d working trees already", q.Root, maxTrees)
		}
		st, err := treecheck.Open(o.treeDir(q.Root), treeLockWait)
		if err != nil {
			return TreeReply{}, err
		}
		tr = &tree{st: st}
		if t.byRoot == nil {
			t.byRoot = map[string]*tree{}
		}
		t.byRoot[q.Root] = tr
	}
	if q.Watch && tr.w == nil && !tr.refused {
		w, err := treecheck.NewWatcher(q.Root, q.Prune)
		if err != nil {
			o.n.logger.Info("hooks walk the working tree: it cannot be watched", "root", q.Root, "err", err)
			tr.refused = true
		}
		tr.w = w
	}
	defer o.flushSoon(tr)
	var out TreeReply
	switch q.Op {
	case TreeNote:
		if tr.st.Fresh(q.Root) {
			// The first look at a tree (a worktree made since the session
			// started): its baseline, so the tool's changes are seen after it.
			if _, err := tr.st.CheckSince(q.Root, q.Prune, o.dirty(tr)); err != nil {
				return out, err
			}
		}
		out.Blobs = tr.st.Note(q.Root, q.Paths)
		tr.st.OpenCall(treecheck.Call{Session: q.Session, ID: q.Call, Started: time.Now().UnixNano(), Catalog: o.catalogSeq()})
		return out, nil
	case TreeCheck, TreeStop, TreeAbsorb:
	default:
		return out, fmt.Errorf("tree: unknown operation %q", q.Op)
	}
	changes, err := tr.st.CheckSince(q.Root, q.Prune, o.dirty(tr))
	if err != nil {
		return out, err
	}
	if q.Op == TreeAbsorb {
		return out, nil
	}
	out.Changes = changes
	call := q.Call
	if q.Op == TreeStop {
		call = ""
	}
	c, open := tr.st.Call(q.Session, call)
	out.Republished = open && q.Op == TreeCheck && c.Catalog > 0 && o.catalogSeq() > c.Catalog
	out.Candidates = tr.st.CloseCall(q.Session, call, c.Started)
	if len(changes) > 0 {
		tr.st.Touch(q.Session, changes)
	}
	if q.Op == TreeStop {
		out.Touched = o.touched(q.Root, q.Session)
		out.TouchedHere = tr.st.Touched(q.Session)
		out.TouchedBefore = tr.st.TouchedBefore(q.Session)
	}
	return out, nil
}

// catalogSeq is where the catalog's aggregate stands in the read models;
// 0 when they cannot say. It does not wait for them to catch up with the
// log: a catalog change the projector has not applied yet is seen by the
// next check, and the gate's own read (Gate) catches up.
func (o *owner) catalogSeq() uint64 {
	seq, _ := read(o, func(s *projections.Store) (uint64, error) { return s.CatalogSeq(), nil })
	return seq
}

// dirty is what tr's watcher saw since its snapshot's last check; nothing
// known without a watcher. The caller holds o.trees.mu.
func (o *owner) dirty(tr *tree) treecheck.Dirty {
	if tr.w == nil {
		return treecheck.Dirty{}
	}
	return tr.w.Since(tr.st.Point())
}

// touched returns every path session changed in any working tree of the
// workspace (its own and its worktrees', held or kept in the state
// folder): the stop gate of a session whose subagents worked in a
// worktree asks for their changes too. The caller holds o.trees.mu.
func (o *owner) touched(root, session string) []string {
	seen := map[string]bool{}
	var out []string
	add := func(paths []string) {
		for _, p := range paths {
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	held := map[string]bool{}
	for r, tr := range o.trees.byRoot {
		held[o.treeDir(r)] = true
		add(tr.st.Touched(session))
	}
	dirs, _ := filepath.Glob(filepath.Join(o.n.WS.StateDir(), "tree", "worktree-*"))
	for _, d := range append(dirs, filepath.Join(o.n.WS.StateDir(), "tree")) {
		if held[d] {
			continue
		}
		st, err := treecheck.Open(d, treeLockWait)
		if err != nil {
			continue
		}
		add(st.Touched(session))
		st.Close()
	}
	slices.Sort(out)
	return out
}

// flushSoon writes what changed of tr's snapshot shortly after the
// answer. The caller holds o.trees.mu.
func (o *owner) flushSoon(tr *tree) {
	if tr.flush != nil {
		return
	}
	tr.flush = time.AfterFunc(treeFlushAfter, func() {
		o.trees.mu.Lock()
		defer o.trees.mu.Unlock()
		tr.flush = nil
		if o.trees.closed {
			return
		}
		if err := tr.st.Flush(); err != nil {
			o.n.logger.Warn("the working tree's snapshot is not written", "err", err)
		}
	})
}

// treeDir is the folder of root's snapshot in the state folder: one per
// tree, the workspace's own and each worktree's.
func (o *owner) treeDir(root string) string {
	dir := filepath.Join(o.n.WS.StateDir(), "tree")
	if filepath.Clean(root) != filepath.Clean(o.n.WS.Root) {
		sum := sha256.Sum256([]byte(filepath.Clean(root)))
		dir = filepath.Join(dir, "worktree-"+hex.EncodeToString(sum[:8]))
	}
	return dir
}

// mayWatch reports whether root is a working tree the owner keeps: the
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

// closeTrees writes and lets go of every snapshot and stops every
// watcher.
func (o *owner) closeTrees() {
	t := &o.trees
	t.mu.Lock()
	defer t.mu.Unlock()
	t.closed = true
	for _, tr := range t.byRoot {
		if tr.flush != nil {
			tr.flush.Stop()
		}
		if tr.w != nil {
			tr.w.Close()
		}
		if err := tr.st.Close(); err != nil {
			o.n.logger.Warn("the working tree's snapshot is not written", "err", err)
		}
	}
	t.byRoot = nil
}
