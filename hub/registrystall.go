package hub

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// How the registry's watch is checked against the bucket.
const (
	// watchCheckEvery is how often the watch's last delivered revision is
	// compared with the bucket stream's last sequence.
	watchCheckEvery = time.Second
	// watchStallAfter is how long the watch may stay behind the bucket
	// without delivering anything before it is made again. nats.go's
	// ordered consumer, which the watch is, notices a consumer that is
	// gone (its server stopped) only after two of its 5-s heartbeats are
	// missed, 10 to 20 s, and tries to make it again every 10 s after
	// while the cluster cannot answer.
	watchStallAfter = 4 * time.Second
)

// errWatchStalled means the registry's watch delivered nothing while the
// bucket held changes it had not delivered, for watchStallAfter: its
// consumer is gone or stuck, and the watch is made again.
var errWatchStalled = errors.New("the registry's watch is behind the bucket and silent")

// watchStall tells a watch that has stalled from one that is catching
// up: a watch behind the bucket is stalled once it has delivered nothing
// for watchStallAfter since it was first seen behind at that revision.
type watchStall struct {
	since time.Time // when the watch was first seen behind at at
	at    uint64    // the watch's last delivered revision then
}

// observe records that at now the bucket's last sequence is last and the
// watch delivered up to delivered, and reports whether the watch stalled.
func (s *watchStall) observe(last, delivered uint64, now time.Time) bool {
	if delivered >= last {
		*s = watchStall{}
		return false
	}
	if s.since.IsZero() || s.at != delivered {
		*s = watchStall{since: now, at: delivered}
		return false
	}
	return now.Sub(s.since) >= watchStallAfter
}

// lastRevision returns the bucket stream's last sequence, the revision
// of the newest change, as its leader answers.
func (r *registry) lastRevision(ctx context.Context) (uint64, error) {
	ctx, cancel := context.WithTimeout(ctx, watchCheckEvery)
	defer cancel()
	s, err := r.js.Stream(ctx, "KV_"+hubwire.RegistryBucket)
	if err != nil {
		return 0, fmt.Errorf("read the registry bucket's last revision: %w", err)
	}
	return s.CachedInfo().State.LastSeq, nil
}
