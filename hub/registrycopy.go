package hub

import (
	"fmt"
	"sync"
	"time"
)

// copyDelay is how long a change of the registry waits before the local
// copy is written: the changes made meanwhile are written with it.
const copyDelay = 200 * time.Millisecond

// localCopy writes the registry's local copy (registry.json) behind the
// changes, coalescing them: a storm of joins writes the copy a few times
// a second instead of several times per join, each write the size of the
// whole registry. The copy is only read when the hub starts, to add the
// nodes' accounts before its server starts; a copy that missed the last
// changes (the hub stopped within copyDelay of them) is completed from the
// registry's bucket right after the server starts.
type localCopy struct {
	write func([]byte) error
	// read returns the registry's data encoded, read under the
	// registry's lock, and what to call once it is written (the
	// journals it holds are no longer needed: registryjournal.go).
	read func() ([]byte, func(), error)

	mu      sync.Mutex
	pending *time.Timer
	err     error // the last write's error, until flush returns it
	closed  bool  // close was called: no write is scheduled any more

	writeMu sync.Mutex // one write at a time, in order
}

// changed schedules a write of the copy.
func (c *localCopy) changed() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pending == nil && !c.closed {
		c.pending = time.AfterFunc(copyDelay, func() { _ = c.flush() })
	}
}

// close writes what is scheduled, schedules nothing more, and returns
// once no write is under way: a write its timer had started when close
// was called is finished before close returns, so that nothing writes in
// the hub's folder once the hub is closed.
func (c *localCopy) close() error {
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	err := c.flush()
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	return err
}

// flush writes the copy now if a write is scheduled, and returns the
// error of the last write that failed since the previous flush.
func (c *localCopy) flush() error {
	c.mu.Lock()
	if c.pending != nil {
		c.pending.Stop()
		c.pending = nil
		c.mu.Unlock()
		c.writeMu.Lock()
		b, written, err := c.read()
		if err == nil {
			err = c.write(b)
		}
		if err == nil {
			written()
		}
		c.writeMu.Unlock()
		c.mu.Lock()
		if err != nil {
			c.err = fmt.Errorf("write the node registry: %w", err)
		}
	}
	err := c.err
	c.err = nil
	c.mu.Unlock()
	return err
}
