package contentwatch

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

// watchMask is what a folder's watch reports: its entries being made,
// written, moved or removed, and the folder itself going.
const watchMask = unix.IN_CREATE | unix.IN_DELETE | unix.IN_MODIFY | unix.IN_CLOSE_WRITE |
	unix.IN_MOVED_FROM | unix.IN_MOVED_TO | unix.IN_ATTRIB | unix.IN_DELETE_SELF | unix.IN_MOVE_SELF

// inotify is the Linux notifier. Its file is non-blocking, so that reads
// go through the runtime's poller and close ends a pending one.
type inotify struct {
	root string
	f    *os.File
	ch   chan struct{}
	done chan struct{}

	mu      sync.Mutex
	watched map[string]int // folder -> watch descriptor
	paths   map[int]string // watch descriptor -> folder
}

func newNotifier(root string) (notifier, error) {
	fd, err := unix.InotifyInit1(unix.IN_CLOEXEC | unix.IN_NONBLOCK)
	if err != nil {
		return nil, fmt.Errorf("inotify_init1: %w", err)
	}
	n := &inotify{root: root, f: os.NewFile(uintptr(fd), "inotify"), ch: make(chan struct{}, 1),
		done: make(chan struct{}), watched: map[string]int{}, paths: map[int]string{}}
	go n.read()
	return n, nil
}

func (n *inotify) changes() <-chan struct{} { return n.ch }

func (n *inotify) watch(dirs []string) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, d := range dirs {
		if _, ok := n.watched[d]; ok {
			continue
		}
		wd, err := unix.InotifyAddWatch(int(n.f.Fd()), d, watchMask|unix.IN_ONLYDIR)
		switch {
		case errors.Is(err, unix.ENOENT), errors.Is(err, unix.ENOTDIR):
			continue // gone since it was listed: nothing to watch
		case err != nil:
			return fmt.Errorf("watch %s: %w", d, err)
		}
		n.watched[d], n.paths[wd] = wd, d
	}
	return nil
}

func (n *inotify) close() {
	n.f.Close()
	<-n.done
}

// read turns the kernel's events into values on ch until the file is
// closed.
func (n *inotify) read() {
	defer close(n.done)
	buf := make([]byte, 64<<10)
	for {
		k, err := n.f.Read(buf)
		if err != nil {
			return
		}
		relevant := false
		for off := 0; off+unix.SizeofInotifyEvent <= k; {
			ev := (*unix.InotifyEvent)(unsafe.Pointer(&buf[off]))
			name := ""
			if ev.Len > 0 {
				raw := buf[off+unix.SizeofInotifyEvent : off+unix.SizeofInotifyEvent+int(ev.Len)]
				name = string(bytes.TrimRight(raw, "\x00"))
			}
			off += unix.SizeofInotifyEvent + int(ev.Len)
			if n.counts(int(ev.Wd), ev.Mask, name) {
				relevant = true
			}
		}
		if relevant {
			select {
			case n.ch <- struct{}{}:
			default: // one is pending already
			}
		}
	}
}

// counts says whether an event is about the content tree, and forgets the
// watches the kernel dropped.
func (n *inotify) counts(wd int, mask uint32, name string) bool {
	if mask&unix.IN_Q_OVERFLOW != 0 {
		return true // events were lost: look again
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	dir := n.paths[wd]
	if mask&unix.IN_IGNORED != 0 {
		delete(n.paths, wd)
		if n.watched[dir] == wd {
			delete(n.watched, dir)
		}
		return false
	}
	return relevant(n.root, dir, name)
}
