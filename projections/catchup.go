package projections

import (
	"context"
	"errors"
	"runtime"

	"github.com/clumsies/clumsies/events"
)

// chunkSize is the number of events one replay of a catch-up reads. Tests
// make it small.
var chunkSize uint64 = 16384

// errChunkRead stops the replay of a chunk once it has its last event.
var errChunkRead = errors.New("projections: chunk read")

// catchUp applies the events from Checkpoint()+1 through last, which the
// log is known to hold. Decoding events (the log's work) costs several
// times what applying them does, so a long backlog is cut into chunks that
// several replays read and decode at once, while the events of the chunks
// read so far are applied in order. A short backlog, or a single CPU, gets
// one replay. progress, if not nil, is called with the checkpoint after
// each commit.
func (s *Store) catchUp(ctx context.Context, log events.Log, last uint64, progress func(uint64)) error {
	from := s.Checkpoint() + 1
	readers := runtime.GOMAXPROCS(0)
	if last < from+2*chunkSize || readers < 2 {
		return s.pump(ctx, log.Replay, last, progress)
	}
	ctx, cancel := context.WithCancel(ctx)
	var queue []*chunk // chunks being read, in order
	defer func() {
		cancel()
		for _, c := range queue {
			<-c.done // leave no replay running
		}
	}()
	next := from
	read := func() {
		if next > last {
			return
		}
		c := &chunk{from: next, to: min(next+chunkSize-1, last), done: make(chan struct{})}
		next = c.to + 1
		go c.read(ctx, log)
		queue = append(queue, c)
	}
	for range readers {
		read()
	}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		select {
		case <-c.done:
		case <-ctx.Done():
			return ctx.Err()
		}
		if c.err != nil {
			return c.err
		}
		read()
		for evs := c.evs; len(evs) > 0; {
			n := min(s.batchSize, len(evs))
			if err := s.Apply(evs[:n]...); err != nil {
				return err
			}
			evs = evs[n:]
			if progress != nil {
				progress(s.Checkpoint())
			}
		}
	}
	return nil
}

// chunk is a run of events read by one replay.
type chunk struct {
	from, to uint64
	evs      []events.Event
	err      error
	done     chan struct{} // closed once evs or err is set
}

// read replays the chunk's events from log. A log that ends early leaves
// the chunk short, and Apply reports the gap.
func (c *chunk) read(ctx context.Context, log events.Log) {
	defer close(c.done)
	c.evs = make([]events.Event, 0, c.to-c.from+1)
	err := log.Replay(ctx, c.from, func(ev events.Event) error {
		if ev.Seq > c.to {
			return errChunkRead
		}
		c.evs = append(c.evs, ev)
		if ev.Seq == c.to {
			return errChunkRead
		}
		return nil
	})
	if err != nil && !errors.Is(err, errChunkRead) {
		c.err = err
	}
}
