package engine

import (
	"context"
	"time"
)

// Stall is how a Runner notices a source that stopped delivering: every
// Check, it looks whether the checkpoint moved; once it has not for
// After while the source holds items past it, the runner ends the
// subscription and subscribes again. A subscription of a NATS stream
// whose leader was killed can stay silent for minutes while the new
// leader serves messages; a new one is served at once.
type Stall struct {
	Check, After time.Duration
}

// WatchStall blocks until the checkpoint applied() has not moved for
// s.After while src holds items past it, and returns src's last sequence
// and true then, or returns false when ctx ends. A failed LastSeq (a
// stream without a leader yet, say) counts as nothing to apply.
func WatchStall(ctx context.Context, applied func() uint64, src interface {
	LastSeq(ctx context.Context) (uint64, error)
}, s Stall) (last uint64, stalled bool) {
	t := time.NewTicker(s.Check)
	defer t.Stop()
	seen, since := applied(), time.Now()
	for {
		select {
		case <-ctx.Done():
			return 0, false
		case <-t.C:
		}
		if now := applied(); now != seen {
			seen, since = now, time.Now()
			continue
		}
		if time.Since(since) < s.After {
			continue
		}
		ictx, cancel := context.WithTimeout(ctx, s.Check)
		last, err := src.LastSeq(ictx)
		cancel()
		if err != nil || last <= seen {
			since = time.Now()
			continue
		}
		return last, true
	}
}
