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

// maxWatches bounds the folders one watch takes of the user's inotify
// watches (fs.inotify.max_user_watches, shared by every process of the
// user): a larger tree is polled.
var maxWatches = 8192

// inotify is the Linux notifier. Its file is non-blocking, so that reads
// go through the runtime's poller and close ends a pending one.
type inotify struct {
	root string
	f    *os.File
	ch   chan struct{}
	done chan struct{}

	mu    sync.Mutex
	paths map[int]string // watch descriptor -> folder
}

func newNotifier(root string) (notifier, error) {
	fd, err := unix.InotifyInit1(unix.IN_CLOEXEC | unix.IN_NONBLOCK)
	if err != nil {
		return nil, fmt.Errorf("inotify_init1: %w", err)
	}
	n := &inotify{root: root, f: os.NewFile(uintptr(fd), "inotify"), ch: make(chan struct{}, 1),
		done: make(chan struct{}), paths: map[int]string{}}
	go n.read()
	return n, nil
}

func (n *inotify) changes() <-chan struct{} { return n.ch }

// watch adds a watch of each folder of dirs, which for a folder watched
// already returns its descriptor, and removes the watches of the folders
// not in dirs: a folder moved out of the tree keeps its watch in the
// kernel, under its new name, and a new folder made under the old name
// needs one of its own.
func (n *inotify) watch(dirs []string) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	fd := int(n.f.Fd())
	paths := make(map[int]string, len(dirs))
	var err error
	for _, d := range dirs {
		if len(paths) >= maxWatches {
			err = fmt.Errorf("the tree has more than %d folders", maxWatches)
			break
		}
		wd, werr := unix.InotifyAddWatch(fd, d, watchMask|unix.IN_ONLYDIR)
		switch {
		case errors.Is(werr, unix.ENOENT), errors.Is(werr, unix.ENOTDIR):
			continue // gone since it was listed: nothing to watch
		case werr != nil:
			err = fmt.Errorf("watch %s: %w", d, werr)
		}
		if err != nil {
			break
		}
		paths[wd] = d
	}
	for wd := range n.paths {
		if _, ok := paths[wd]; !ok {
			unix.InotifyRmWatch(fd, uint32(wd)) // gone already when it fails
		}
	}
	n.paths = paths
	return err
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
	dir, ok := n.paths[wd]
	if mask&unix.IN_IGNORED != 0 {
		delete(n.paths, wd)
		return false
	}
	if !ok {
		return false // a watch let go of: its folder left the tree
	}
	return relevant(n.root, dir, name)
}
