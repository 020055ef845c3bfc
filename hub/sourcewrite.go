package hub

import (
	"context"
	"sync"
	"time"
)

// sourceWriteTimeout bounds one write of the aggregate's sources.
const sourceWriteTimeout = 30 * time.Second

// sourceWrites coalesces the writes of the aggregate's sources that
// joins and registry changes ask for: the callers waiting when a write
// starts are all served by that one write, which reads the registry after
// each of them asked. A storm of joins then costs one write per batch
// instead of one per join, each write the size of the whole source list.
type sourceWrites struct {
	write func(context.Context) error

	mu      sync.Mutex
	waiting []chan error
	running bool
}

// sync returns once a write of the sources that started after the call
// is done, with its error, or when ctx ends. The write itself goes on if
// ctx ends: other callers may wait for it.
func (w *sourceWrites) sync(ctx context.Context) error {
	done := make(chan error, 1)
	w.mu.Lock()
	w.waiting = append(w.waiting, done)
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
		batch := w.waiting
		w.waiting = nil
		if len(batch) == 0 {
			w.running = false
			w.mu.Unlock()
			return
		}
		w.mu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), sourceWriteTimeout)
		err := w.write(ctx)
		cancel()
		for _, done := range batch {
			done <- err
		}
	}
}
