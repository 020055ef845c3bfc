package projections

import (
	"context"

	"github.com/clumsies/clumsies/events"
)

// feedChunk is how many events the source hands to the projector at a
// time while it delivers events known to exist (up to pump's known): one
// channel operation per chunk rather than per event. Past known, every
// event goes over on its own, so a waiting tool call is not held back.
const feedChunk = 256

// feed carries events from pump's source goroutine to drain, in chunks.
// Chunks drain has emptied go back to the source for reuse.
type feed struct {
	ch   chan []events.Event
	free chan []events.Event
	size int

	// The source's side.
	out []events.Event

	// drain's side: the chunk being read, and the next event in it.
	cur []events.Event
	i   int
}

func newFeed(batchSize int) *feed {
	size := min(feedChunk, batchSize)
	depth := max(1, batchSize/size)
	return &feed{ch: make(chan []events.Event, depth), free: make(chan []events.Event, depth+2), size: size}
}

// send is the source's callback: it adds ev to the chunk being filled and
// sends the chunk when it is full or ev is at known or past it.
func (f *feed) send(ctx context.Context, ev events.Event, known uint64) error {
	if f.out == nil {
		select {
		case f.out = <-f.free:
		default:
			f.out = make([]events.Event, 0, f.size)
		}
	}
	f.out = append(f.out, ev)
	if ev.Seq < known && len(f.out) < f.size {
		return nil
	}
	return f.flush(ctx)
}

// flush sends the chunk being filled, if any.
func (f *feed) flush(ctx context.Context) error {
	if len(f.out) == 0 {
		return nil
	}
	select {
	case f.ch <- f.out:
		f.out = nil
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// take returns the next event of the chunk at hand, if there is one.
func (f *feed) take() (events.Event, bool) {
	if f.i >= len(f.cur) {
		return events.Event{}, false
	}
	ev := f.cur[f.i]
	f.i++
	if f.i == len(f.cur) {
		f.recycle()
	}
	return ev, true
}

// receive makes chunk the one at hand and returns its first event; open
// is false once the source has closed the feed.
func (f *feed) receive(chunk []events.Event, open bool) (events.Event, bool) {
	if !open {
		return events.Event{}, false
	}
	f.cur, f.i = chunk, 0
	ev, _ := f.take()
	return ev, true
}

// next returns the next event, waiting for it; open is false once the
// source has closed the feed and every event was taken.
func (f *feed) next() (ev events.Event, open bool) {
	if ev, ok := f.take(); ok {
		return ev, true
	}
	chunk, open := <-f.ch
	return f.receive(chunk, open)
}

// poll returns the next event if one has arrived; ready is false if none
// has.
func (f *feed) poll() (ev events.Event, open, ready bool) {
	if ev, ok := f.take(); ok {
		return ev, true, true
	}
	select {
	case chunk, open := <-f.ch:
		ev, open = f.receive(chunk, open)
		return ev, open, true
	default:
		return events.Event{}, true, false
	}
}

// recycle hands the emptied chunk back to the source, zeroed (so that it
// holds no event's bytes; what lies past its length was zeroed before).
func (f *feed) recycle() {
	clear(f.cur)
	chunk := f.cur[:0]
	f.cur, f.i = nil, 0
	select {
	case f.free <- chunk:
	default:
	}
}

// discard empties the feed until the source closes it, so that the source
// can return.
func (f *feed) discard() {
	for range f.ch {
	}
}
