//go:build linux

package treecheck

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sync"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// watchMask is what a folder's watch reports: entries made, written,
// moved, removed or with changed attributes.
const watchMask = unix.IN_CREATE | unix.IN_DELETE | unix.IN_MODIFY | unix.IN_CLOSE_WRITE | unix.IN_MOVED_FROM |
	unix.IN_MOVED_TO | unix.IN_ATTRIB | unix.IN_DELETE_SELF | unix.IN_MOVE_SELF | unix.IN_ONLYDIR

// drainEvery is how often a Watcher reads the kernel's queue between
// questions, so that it does not overflow.
const drainEvery = 500 * time.Millisecond

// Watcher watches every folder of a tree with inotify and remembers the
// paths that changed, so that a check stats those instead of the whole
// tree. Notifications are read when asked (Since) and every drainEvery,
// so an answer covers every change the kernel had queued when it was
// asked.
type Watcher struct {
	root   string
	pruned map[string]bool
	fd     int
	d      *dirtySet
	dirs   map[int]string // watch descriptor -> folder, relative
	buf    []byte
	stop   chan struct{}
	done   sync.WaitGroup
	closed bool
}

// NewWatcher starts watching the tree under root, leaving out the folders
// a check leaves out (prune: relative to root). It fails when the system
// cannot watch every folder (too many of them for the user's inotify
// limit): checks then walk the tree.
func NewWatcher(root string, prune []string) (*Watcher, error) {
	fd, err := unix.InotifyInit1(unix.IN_CLOEXEC | unix.IN_NONBLOCK)
	if err != nil {
		return nil, fmt.Errorf("inotify_init1: %w", err)
	}
	w := &Watcher{root: root, pruned: prunedSet(prune), fd: fd, d: newDirtySet(), dirs: map[int]string{},
		buf: make([]byte, 256<<10), stop: make(chan struct{})}
	w.d.mu.Lock()
	err = w.watchTree("")
	w.d.mu.Unlock()
	if err != nil {
		unix.Close(fd)
		return nil, err
	}
	w.done.Add(1)
	go w.loop()
	return w, nil
}

// Since returns what changed since (epoch, seq): see Dirty.
func (w *Watcher) Since(epoch string, seq uint64) Dirty {
	w.d.mu.Lock()
	defer w.d.mu.Unlock()
	if w.closed {
		return Dirty{}
	}
	w.drain()
	return w.d.since(epoch, seq)
}

// Close stops watching.
func (w *Watcher) Close() error {
	w.d.mu.Lock()
	if w.closed {
		w.d.mu.Unlock()
		return errors.New("treecheck: watcher closed")
	}
	w.closed = true
	close(w.stop)
	w.d.mu.Unlock()
	w.done.Wait()
	return unix.Close(w.fd)
}

func (w *Watcher) loop() {
	defer w.done.Done()
	t := time.NewTicker(drainEvery)
	defer t.Stop()
	for {
		select {
		case <-w.stop:
			return
		case <-t.C:
			w.d.mu.Lock()
			if !w.closed {
				w.drain()
			}
			w.d.mu.Unlock()
		}
	}
}

// watchTree adds watches on rel and every folder below it that a check
// walks. The caller holds d.mu.
func (w *Watcher) watchTree(rel string) error {
	abs := filepath.Join(w.root, filepath.FromSlash(rel))
	wd, err := unix.InotifyAddWatch(w.fd, abs, watchMask)
	switch {
	case errors.Is(err, unix.ENOENT), errors.Is(err, unix.ENOTDIR):
		return nil // gone since it was listed
	case err != nil:
		return fmt.Errorf("watch %s: %w", abs, err)
	}
	w.dirs[wd] = rel
	ents, err := os.ReadDir(abs)
	if err != nil {
		return nil
	}
	for _, e := range ents {
		if rel != "" && e.Name() == ".git" {
			unix.InotifyRmWatch(w.fd, uint32(wd))
			delete(w.dirs, wd)
			return nil // a nested repository: checked from its own root
		}
	}
	for _, e := range ents {
		p := path.Join(rel, e.Name())
		if e.IsDir() && !skipped[e.Name()] && !w.pruned[p] {
			if err := w.watchTree(p); err != nil {
				return err
			}
		}
	}
	return nil
}

// drain reads every queued notification without waiting. The caller
// holds d.mu.
func (w *Watcher) drain() {
	for {
		n, err := unix.Read(w.fd, w.buf)
		if n <= 0 || err != nil {
			return // EAGAIN: the queue is empty
		}
		for off := 0; off+unix.SizeofInotifyEvent <= n; {
			ev := (*unix.InotifyEvent)(unsafe.Pointer(&w.buf[off]))
			name := ""
			if ev.Len > 0 {
				raw := w.buf[off+unix.SizeofInotifyEvent : off+unix.SizeofInotifyEvent+int(ev.Len)]
				name = string(bytes.TrimRight(raw, "\x00"))
			}
			off += unix.SizeofInotifyEvent + int(ev.Len)
			w.event(int(ev.Wd), ev.Mask, name)
		}
	}
}

// event notes one notification. The caller holds d.mu.
func (w *Watcher) event(wd int, mask uint32, name string) {
	if mask&unix.IN_Q_OVERFLOW != 0 {
		w.d.lost = true
		return
	}
	dir, ok := w.dirs[wd]
	if !ok {
		return
	}
	if mask&unix.IN_IGNORED != 0 {
		delete(w.dirs, wd)
		return
	}
	rel := dir
	if name != "" {
		rel = path.Join(dir, name)
	}
	if rel == "" || ignored(rel, w.pruned) {
		return
	}
	w.d.mark(rel)
	if mask&unix.IN_ISDIR != 0 && mask&(unix.IN_CREATE|unix.IN_MOVED_TO) != 0 {
		if err := w.watchTree(rel); err != nil {
			w.d.lost = true // cannot watch it: the next check walks
		}
	}
}
