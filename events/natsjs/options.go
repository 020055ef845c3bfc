package natsjs

import (
	"context"
	"time"
)

// DefaultDedupeWindow is how long JetStream remembers an event id when
// Options.DedupeWindow is zero.
const DefaultDedupeWindow = 10 * time.Minute

// Options tune Open. The zero value is ready to use.
type Options struct {
	// DedupeWindow is how long an appended event id is remembered: an
	// Append of the same id within the window stores nothing and returns
	// the original sequence. Zero means DefaultDedupeWindow. It applies
	// when Open creates the stream; an existing stream keeps its window.
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
