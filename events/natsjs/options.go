package natsjs

import "time"

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
}

func (o Options) dedupeWindow() time.Duration {
	if o.DedupeWindow > 0 {
		return o.DedupeWindow
	}
	return DefaultDedupeWindow
}
