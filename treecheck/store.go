package treecheck

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Files of a Store, in the folder it is opened on.
const (
	metaName  = "tree-meta"  // JSON: the point, open calls, touched paths, noted contents
	filesName = "tree-files" // the files' entries (encode): read only by a check
	lockName  = "tree.lock"
)

// Bounds of what a Store keeps beside the files.
const (
	// MaxTouched bounds the paths kept per session for the stop gate.
	MaxTouched = 1000
	// sessionTTL is how long a session's touched paths are kept after its
	// last change.
	sessionTTL = 48 * time.Hour
	// callTTL is how long an open call counts: a tool call whose post-tool
	// hook never ran (the host died) stops counting after it.
	callTTL = 30 * time.Minute
	// racyWindow is how close to a scan a change can be and still be
	// missed by a later one with the same stat: such files are read again.
	racyWindow = 2 * time.Second
	// baselineBudget is how many bytes the first check of a tree hashes,
	// so that later changes have a known before; past it, files are seen
	// by stat only until they change.
	baselineBudget = 32 << 20
)

// Change is one file whose content changed since the previous check.
type Change struct {
	// Path is relative to the root, slash-separated.
	Path string
	// Before is the blob id before the change; "" when the file did not
	// exist or its content was not known (BeforeKnown false).
	Before      string
	BeforeKnown bool
	// After is the blob id now; "" when the file is gone.
	After string
}

// Store is the snapshot of one tree, held under its lock from Open to
// Close.
type Store struct {
	dir  string
	lock *os.File
	snap *snapshot
	// fresh is set when there was no usable snapshot: the first check is a
	// baseline and reports nothing.
	fresh bool
	// metaDirty and filesDirty say which file Close writes.
	metaDirty, filesDirty bool
	// loaded is set once the files' entries are read (a check needs them;
	// the pre-tool hook's Note and the calls do not).
	loaded bool
	now    func() time.Time
}

// Open takes the lock of the snapshot kept in folder dir (made if
// missing), waiting up to wait for another process's check to end, and
// reads its small part; the files' entries are read when a check needs
// them. A damaged snapshot is started afresh.
func Open(dir string, wait time.Duration) (*Store, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("make %s: %w", dir, err)
	}
	lock, err := lockFile(filepath.Join(dir, lockName), wait)
	if err != nil {
		return nil, err
	}
	s := &Store{dir: dir, lock: lock, now: time.Now, snap: &snapshot{}}
	b, err := os.ReadFile(filepath.Join(dir, metaName))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		s.fresh = true
	case err != nil:
		unlock(lock)
		return nil, fmt.Errorf("read the tree snapshot: %w", err)
	default:
		if json.Unmarshal(b, &s.snap.meta) != nil || s.snap.Root == "" {
			s.snap.meta, s.fresh = meta{}, true
		}
	}
	return s, nil
}

// files returns the files' entries, reading them on first use; a missing
// or damaged file starts the snapshot afresh (the next check is a
// baseline).
func (s *Store) files() map[string]entry {
	if s.loaded {
		return s.snap.files
	}
	s.loaded = true
	s.snap.files = map[string]entry{}
	if s.fresh {
		return s.snap.files
	}
	b, err := os.ReadFile(filepath.Join(s.dir, filesName))
	if err == nil {
		var f map[string]entry
		if f, err = decodeFiles(b); err == nil {
			s.snap.files = f
			return f
		}
	}
	s.fresh = true
	return s.snap.files
}

// Close saves what changed and releases the lock.
func (s *Store) Close() error {
	if s.lock == nil {
		return errors.New("treecheck: store closed")
	}
	err := s.Flush()
	unlock(s.lock)
	s.lock = nil
	return err
}

// Flush saves what changed, keeping the lock: a store held open by a
// long-lived process writes after each change, so that the next holder
// starts from it.
func (s *Store) Flush() error {
	if s.lock == nil {
		return errors.New("treecheck: store closed")
	}
	if s.filesDirty {
		if err := s.write(filesName, encodeFiles(s.snap.files)); err != nil {
			return err
		}
		s.filesDirty = false
	}
	if s.metaDirty {
		b, err := json.Marshal(s.snap.meta)
		if err != nil {
			return err
		}
		if err := s.write(metaName, b); err != nil {
			return err
		}
		s.metaDirty = false
	}
	return nil
}

// write replaces the file name of the store's folder with b.
func (s *Store) write(name string, b []byte) error {
	tmp := filepath.Join(s.dir, name+".tmp")
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return fmt.Errorf("write the tree snapshot: %w", err)
	}
	if err := os.Rename(tmp, filepath.Join(s.dir, name)); err != nil {
		return fmt.Errorf("write the tree snapshot: %w", err)
	}
	return nil
}

// Check stats the tree under root (prune: folders left out, relative to
// root) and returns the files whose content changed since the previous
// check, sorted by path. The first check of a tree (or of another root)
// is a baseline: it returns nothing.
func (s *Store) Check(root string, prune []string) ([]Change, error) {
	return s.CheckSince(root, prune, Dirty{})
}

// Point returns where the snapshot's last check stood in a Watcher's
// notifications, to ask it what changed since.
func (s *Store) Point() (epoch string, seq uint64) { return s.snap.Epoch, s.snap.Seq }

// Fresh reports whether the store has no snapshot of root yet: its first
// check will be a baseline.
func (s *Store) Fresh(root string) bool { return s.fresh || s.snap.Root != root }

// CheckSince is Check that, when d is a complete answer of a Watcher for
// the snapshot's Point, stats only the paths d names (walking those that
// are folders) instead of the whole tree. Otherwise it walks the tree. It
// keeps d's point for the next check.
func (s *Store) CheckSince(root string, prune []string, d Dirty) ([]Change, error) {
	now := s.now()
	if d.Complete && len(d.Paths) == 0 && d.Epoch != "" && !s.fresh && d.Epoch == s.snap.Epoch && s.snap.Root == root &&
		d.Seq == s.snap.Seq && len(s.snap.Noted) == 0 {
		return nil, nil // the watcher saw nothing since the last check: no entry to read
	}
	s.files()
	baseline := s.fresh || s.snap.Root != root
	s.applyNoted(root)
	c := checker{s: s, root: root, now: now, baseline: baseline, budget: baselineBudget}
	if d.Complete && !baseline && d.Epoch != "" && d.Epoch == s.snap.Epoch {
		c.partial(prune, d.Paths)
	} else {
		c.whole(prune)
	}
	if c.moved || baseline {
		s.filesDirty = true
	}
	s.snap.Root, s.snap.Scanned, s.snap.Epoch, s.snap.Seq = root, now.UnixNano(), d.Epoch, d.Seq
	s.metaDirty = true
	s.fresh = false
	slices.SortFunc(c.changes, func(a, b Change) int { return strings.Compare(a.Path, b.Path) })
	return c.changes, nil
}

// checker is one check's work on the store's files.
type checker struct {
	s        *Store
	root     string
	now      time.Time
	baseline bool
	budget   int64
	changes  []Change
	moved    bool // the snapshot's files changed
}

// whole walks the tree and compares every file.
func (c *checker) whole(prune []string) {
	cur := scanTree(c.root, prune)
	prev := c.s.snap.files
	for p, e := range cur {
		if e, keep := c.compare(p, e, prev); keep {
			cur[p] = e
		} else {
			delete(cur, p)
		}
	}
	for p, old := range prev {
		if _, ok := cur[p]; !ok {
			c.moved = true
			if !c.baseline {
				c.changes = append(c.changes, Change{Path: p, Before: old.blob, BeforeKnown: old.blob != ""})
			}
		}
	}
	c.s.snap.files = cur
}

// partial compares only the paths named, each a file, a folder (walked)
// or gone (with everything the snapshot had under it).
func (c *checker) partial(prune []string, paths []string) {
	files := c.s.snap.files
	pruned := prunedSet(prune)
	for _, p := range paths {
		abs := filepath.Join(c.root, filepath.FromSlash(p))
		info, err := os.Lstat(abs)
		found := map[string]entry{}
		switch {
		case err != nil:
		case info.IsDir():
			if _, err := os.Lstat(filepath.Join(abs, ".git")); err == nil {
				break // became a nested repository: its own root
			}
			for q, e := range scanTree(abs, nil) {
				found[p+"/"+q] = e
			}
		case info.Mode().IsRegular() || info.Mode()&os.ModeSymlink != 0:
			e := statOf(info)
			if info.Mode()&os.ModeSymlink != 0 {
				e.size = -1 - e.size
			}
			found[p] = e
		}
		for q, e := range found {
			if ignored(q, pruned) {
				continue
			}
			if e, keep := c.compare(q, e, files); keep {
				files[q] = e
			} else {
				delete(files, q)
			}
		}
		c.gone(p, found, err == nil && info.IsDir())
	}
}

// gone drops what the snapshot had at p, or under it, that is not in
// found, as deleted files. Only a p that is a folder now (dir), or is gone
// and was no file the snapshot knew (so it may have been a folder), needs
// the snapshot's every entry looked at.
func (c *checker) gone(p string, found map[string]entry, dir bool) {
	files := c.s.snap.files
	drop := func(q string, old entry) {
		delete(files, q)
		c.moved = true
		c.changes = append(c.changes, Change{Path: q, Before: old.blob, BeforeKnown: old.blob != ""})
	}
	old, wasFile := files[p]
	if _, still := found[p]; wasFile && !still {
		drop(p, old)
	}
	if !dir && (wasFile || len(found) > 0) {
		return // a file, then and now, or a file that went
	}
	for q, old := range files {
		if strings.HasPrefix(q, p+"/") {
			if _, ok := found[q]; !ok {
				drop(q, old)
			}
		}
	}
}

func prunedSet(prune []string) map[string]bool {
	m := make(map[string]bool, len(prune))
	for _, p := range prune {
		m[p] = true
	}
	return m
}

// compare compares the file p as it is now (e) with prev's entry, records
// a change of content, and returns the entry to keep (keep false: the file
// went away while it was read).
func (c *checker) compare(p string, e entry, prev map[string]entry) (entry, bool) {
	old, had := prev[p]
	if had && old.sameStat(e) && !old.racy {
		e.blob = old.blob
		return e, true
	}
	c.moved = true
	if c.baseline {
		if e.size >= 0 && e.size <= c.budget {
			if id, err := contentID(c.root, p, e); err == nil {
				e.blob, c.budget = id, c.budget-e.size
			}
		}
		return c.s.racy(e, c.now), true
	}
	id, err := contentID(c.root, p, e)
	if err != nil {
		return old, had // gone or unreadable since the stat: seen next time
	}
	e.blob = id
	if had && old.blob != "" && old.blob == id {
		return c.s.racy(e, c.now), true // the same content: a touch, or a rewrite of the same bytes
	}
	c.changes = append(c.changes, Change{Path: p, Before: old.blob, BeforeKnown: had && old.blob != "" || !had, After: id})
	return c.s.racy(e, c.now), true
}

// racy marks e to be read again at the next check when it changed within
// racyWindow of now.
func (s *Store) racy(e entry, now time.Time) entry {
	e.racy = now.UnixNano()-e.mtime < int64(racyWindow)
	return e
}

// Note reads the files rel (relative to root, slash-separated) as they
// are now and keeps their blob ids beside the snapshot, so that the next
// check knows their content before a tool changes them where the snapshot
// did not. It returns the blob ids by path, "" for a file that does not
// exist. Before any check of root, it notes nothing (the first check is a
// baseline).
func (s *Store) Note(root string, rel []string) map[string]string {
	out := make(map[string]string, len(rel))
	if s.fresh || s.snap.Root != root {
		return out
	}
	for _, p := range rel {
		info, err := os.Lstat(filepath.Join(root, filepath.FromSlash(p)))
		if err != nil || !(info.Mode().IsRegular() || info.Mode()&os.ModeSymlink != 0) {
			out[p] = ""
			continue
		}
		e := statOf(info)
		if info.Mode()&os.ModeSymlink != 0 {
			e.size = -1 - e.size
		}
		id, err := contentID(root, p, e)
		if err != nil {
			continue
		}
		out[p] = id
		if len(s.snap.Noted) < MaxTouched {
			if s.snap.Noted == nil {
				s.snap.Noted = map[string]noted{}
			}
			s.snap.Noted[p] = noted{Size: e.size, Mtime: e.mtime, Ctime: e.ctime, Ino: e.ino, Blob: id}
			s.metaDirty = true
		}
	}
	return out
}

// applyNoted gives the snapshot's entries whose content was not known the
// blob ids Note found for the same file unchanged, and forgets the notes.
func (s *Store) applyNoted(root string) {
	if len(s.snap.Noted) == 0 {
		return
	}
	if !s.fresh && s.snap.Root == root {
		for p, n := range s.snap.Noted {
			e, ok := s.snap.files[p]
			if ok && e.blob == "" && e.sameStat(entry{size: n.Size, mtime: n.Mtime, ctime: n.Ctime, ino: n.Ino}) {
				e.blob = n.Blob
				s.snap.files[p] = e
			}
		}
	}
	s.snap.Noted = nil
	s.metaDirty = true
}

// OpenCall records that session's tool call id is running.
func (s *Store) OpenCall(c Call) {
	s.snap.Open = append(slices.DeleteFunc(s.snap.Open, func(o Call) bool {
		return o.Session == c.Session && o.ID == c.ID
	}), c)
	s.metaDirty = true
}

// CloseCall records that session's call id ended ("" ends every call of
// the session), and returns the other sessions that had a call open
// since started (unix nanoseconds): the change just found may be theirs.
func (s *Store) CloseCall(session, id string, started int64) []string {
	now := s.now().UnixNano()
	var others []string
	keep := s.snap.Open[:0]
	for _, o := range s.snap.Open {
		if o.Session == session && (id == "" || o.ID == id) {
			continue
		}
		if now-o.Started > int64(callTTL) {
			continue
		}
		if o.Session != session && !slices.Contains(others, o.Session) {
			others = append(others, o.Session)
		}
		keep = append(keep, o)
	}
	s.snap.Open = keep
	s.metaDirty = true
	slices.Sort(others)
	return others
}

// Call returns session's open call id, and whether it is open.
func (s *Store) Call(session, id string) (Call, bool) {
	for _, o := range s.snap.Open {
		if o.Session == session && o.ID == id {
			return o, true
		}
	}
	return Call{}, false
}

// Touch records that session made changes, for the stop gate: their
// paths and, for a path the session had not changed yet, its blob id
// before (where known), the start of the session's whole change.
func (s *Store) Touch(session string, changes []Change) {
	if s.snap.Touched == nil {
		s.snap.Touched = map[string]*touched{}
	}
	now := s.now().UnixNano()
	for id, t := range s.snap.Touched {
		if now-t.Last > int64(sessionTTL) {
			delete(s.snap.Touched, id)
		}
	}
	t := s.snap.Touched[session]
	if t == nil {
		t = &touched{}
		s.snap.Touched[session] = t
	}
	for _, c := range changes {
		if i, ok := slices.BinarySearch(t.Paths, c.Path); !ok && len(t.Paths) < MaxTouched {
			t.Paths = slices.Insert(t.Paths, i, c.Path)
			if c.BeforeKnown {
				if t.Before == nil {
					t.Before = map[string]string{}
				}
				t.Before[c.Path] = c.Before
			}
		}
	}
	t.Last = now
	s.metaDirty = true
}

// TouchedBefore returns, for the paths session changed, the blob id each
// had before the session's first change of it ("" for a file it
// created); a path whose content before was not known is absent.
func (s *Store) TouchedBefore(session string) map[string]string {
	if t := s.snap.Touched[session]; t != nil {
		return maps.Clone(t.Before)
	}
	return nil
}

// Touched returns the paths session changed, sorted.
func (s *Store) Touched(session string) []string {
	if t := s.snap.Touched[session]; t != nil {
		return slices.Clone(t.Paths)
	}
	return nil
}
