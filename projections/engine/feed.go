package engine

import "context"

// feedChunk is how many items the source hands to the runner at a time
// while it delivers items known to exist (up to Pump's known): one channel
// operation per chunk rather than per item. Past known, every item goes
// over on its own, so a caller waiting for it is not held back.
const feedChunk = 256

// startCap is the capacity a chunk and a batch start with; they grow as
// items come, up to feedChunk and the batch size. A runner that follows a
// ledger applies one item or a few at a time, and its chunks and batch
// stay that small: made at their full size they were 330 KiB of every
// serving process's heap (a batch of 1,000 events of 264 bytes and a
// chunk of 256) for one event at a time (BENCHMARKS.md, "Serve's peak
// under 44.5 MiB: pebble's memtables (issue 35)"). A catch-up fills whole
// batches and grows them once.
const startCap = 16

// feed carries items from Pump's source goroutine to drain, in chunks.
// Chunks drain has emptied go back to the source for reuse.
type feed[T any] struct {
	ch   chan []T
	free chan []T
	size int
	seq  func(T) uint64

	// The source's side.
	out []T

	// drain's side: the chunk being read, and the next item in it.
	cur []T
	i   int
}

func newFeed[T any](batchSize int, seq func(T) uint64) *feed[T] {
	size := min(feedChunk, batchSize)
	depth := max(1, batchSize/size)
	return &feed[T]{ch: make(chan []T, depth), free: make(chan []T, depth+2), size: size, seq: seq}
}

// send is the source's callback: it adds it to the chunk being filled and
// sends the chunk when it is full or it is at known or past it.
func (f *feed[T]) send(ctx context.Context, it T, known uint64) error {
	if f.out == nil {
		select {
		case f.out = <-f.free:
		default:
			f.out = make([]T, 0, min(f.size, startCap))
		}
	}
	f.out = append(f.out, it)
	if f.seq(it) < known && len(f.out) < f.size {
		return nil
	}
	return f.flush(ctx)
}

// flush sends the chunk being filled, if any.
func (f *feed[T]) flush(ctx context.Context) error {
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

// take returns the next item of the chunk at hand, if there is one.
func (f *feed[T]) take() (T, bool) {
	if f.i >= len(f.cur) {
		var zero T
		return zero, false
	}
	it := f.cur[f.i]
	f.i++
	if f.i == len(f.cur) {
		f.recycle()
	}
	return it, true
}

// receive makes chunk the one at hand and returns its first item; open
// is false once the source has closed the feed.
func (f *feed[T]) receive(chunk []T, open bool) (T, bool) {
	if !open {
		var zero T
		return zero, false
	}
	f.cur, f.i = chunk, 0
	it, _ := f.take()
	return it, true
}

// next returns the next item, waiting for it; open is false once the
// source has closed the feed and every item was taken.
func (f *feed[T]) next() (it T, open bool) {
	if it, ok := f.take(); ok {
		return it, true
	}
	chunk, open := <-f.ch
	return f.receive(chunk, open)
}

// poll returns the next item if one has arrived; ready is false if none
// has.
func (f *feed[T]) poll() (it T, open, ready bool) {
	if it, ok := f.take(); ok {
		return it, true, true
	}
	select {
	case chunk, open := <-f.ch:
		it, open = f.receive(chunk, open)
		return it, open, true
	default:
		return it, true, false
	}
}

// recycle hands the emptied chunk back to the source, zeroed (so that it
// holds nothing of an item; what lies past its length was zeroed before).
func (f *feed[T]) recycle() {
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
func (f *feed[T]) discard() {
	for range f.ch {
	}
}
