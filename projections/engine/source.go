package engine

import "context"

// Source is what a Runner follows: a log of items numbered from 1 without
// holes. events.Log and natsjs.Source are Sources as they are; a source
// of another item type is adapted by a small wrapper.
type Source[T any] interface {
	// LastSeq returns the sequence of the newest item, 0 if none.
	LastSeq(ctx context.Context) (uint64, error)
	// Subscribe calls fn, in order, for every item from sequence from on,
	// those to come included, until ctx ends (returning ctx.Err()), fn
	// fails (returning its error) or the source fails.
	Subscribe(ctx context.Context, from uint64, fn func(T) error) error
}

// Subscribe is a Source's Subscribe, or a Replay that stops at the items
// the source held when it started (as events.Log.Replay does).
type Subscribe[T any] func(ctx context.Context, from uint64, fn func(T) error) error
