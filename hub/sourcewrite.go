package hub

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// sourceWriteTimeout bounds one write of the aggregate's sources.
const sourceWriteTimeout = 30 * time.Second

// sourceWrites coalesces the writes of the aggregate's sources that
// joins, revokes, registry changes and kicks ask for: the callers waiting
// when a write starts are all served by that one write, which reads the
// registry after each of them asked. A storm of joins then costs one
// write per batch instead of one per join, each write the size of the
// whole source list.
//
// A kick (re-sourcing some nodes, Hub.kick) is two writes: the list
// without the nodes, then the whole list. The kicks asked while a write
// runs are made together by the next pair, however many links they are
// for and whichever hub of a cluster asked for them (sourcewriter.go), and
// that pair's second write serves the plain writes waiting too. A link
// storm at a cluster of three used to make two writes per kick at each
// hub, each write of the whole list applied by the three servers.
type sourceWrites struct {
	// write writes the sources, first without the nodes of kick if any.
	write func(ctx context.Context, kick []string) error
	// bound bounds each write, in nanoseconds (sourceWriteTimeout).
	bound atomic.Int64

	mu      sync.Mutex
	waiting []chan error
	kicks   []string // the nodes the next write kicks, sorted, once each
	writing []string // the nodes the write under way kicks
	running bool
}

// sync returns once a write of the sources that started after the call
// is done, with its error, or when ctx ends. The nodes of kick, if any,
// are re-sourced by that write (left out, then written again). The write
// itself goes on if ctx ends: other callers may wait for it.
func (w *sourceWrites) sync(ctx context.Context, kick ...string) error {
	done := make(chan error, 1)
	w.mu.Lock()
	w.waiting = append(w.waiting, done)
	for _, id := range kick {
		if i, found := slices.BinarySearch(w.kicks, id); !found {
			w.kicks = slices.Insert(w.kicks, i, id)
		}
	}
	if !w.running {
		w.running = true
		go w.loop()
	}
	w.mu.Unlock()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// loop writes while callers wait.
func (w *sourceWrites) loop() {
	for {
		w.mu.Lock()
		batch, kicks := w.waiting, w.kicks
		w.waiting, w.kicks, w.writing = nil, nil, kicks
		if len(batch) == 0 {
			w.running, w.writing = false, nil
			w.mu.Unlock()
			return
		}
		w.mu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), time.Duration(w.bound.Load()))
		err := w.write(ctx, kicks)
		cancel()
		for _, done := range batch {
			done <- err
		}
	}
}

// asked returns the nodes the write under way and the next one kick.
func (w *sourceWrites) asked() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.writing) + len(w.kicks)
}
