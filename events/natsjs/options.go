package natsjs

import (
	"context"
	"time"
)

// DefaultDedupeWindow is how long JetStream remembers an event id when
// Options.DedupeWindow is zero.
//
// What relies on it is the retry of an append with the same event (its id
// is the Nats-Msg-Id): a Handle tries an append again across an owner's
// going for node.DefaultRetryFor (10 s), within the 20 s a call waits for
// its answer, and settles an append whose outcome is open in the
// background until the window less a margin (node's settleWithin, 90 s
// from the first attempt); hooks retry for 3 s. The longest of these, plus
// the margin for an attempt still in flight, is within 2 minutes. The
// server keeps every id of the window in memory (a couple of hundred
// bytes each), so the window is also what a busy serving process holds
// for the ids: the rate of appends times the window.
const DefaultDedupeWindow = 2 * time.Minute

// Options tune Open. The zero value is ready to use.
type Options struct {
	// DedupeWindow is how long an appended event id is remembered: an
	// Append of the same id within the window stores nothing and returns
	// the original sequence. Zero means DefaultDedupeWindow. Open creates
	// the stream with it, and sets it on an existing stream that has
	// another.
	DedupeWindow time.Duration
	// Domain is the JetStream domain to talk to; empty means the local
	// one.
	Domain string
	// Sync, when set, is called after JetStream has acknowledged an
	// append and before Append returns: it makes the stored event
	// durable, for a server that does not fsync before it acknowledges
	// (embeddednats.SyncGroup). An error fails the append (the event may
	// be stored all the same: its outcome is unknown).
	Sync Syncer
	// Appending, when set, is called before each append is sent to the
	// server: the owner's watch of the stream's last block
	// (embeddednats.LastBlock) looks at the block's file there. It cannot
	// fail an append.
	Appending func()
}

// Syncer makes the events a log's server has acknowledged durable.
type Syncer interface {
	// Sync returns once every event acknowledged before the call is on
	// stable storage.
	Sync(ctx context.Context) error
}

func (o Options) dedupeWindow() time.Duration {
	if o.DedupeWindow > 0 {
		return o.DedupeWindow
	}
	return DefaultDedupeWindow
}
