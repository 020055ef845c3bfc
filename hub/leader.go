package hub

import (
	"context"
	"time"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// How the leader watcher polls.
const (
	// leaderPoll is how often the hub asks its server whether it leads
	// the aggregate.
	leaderPoll = 250 * time.Millisecond
	// leaderSettle is how long a new leadership must hold before the
	// nodes are re-sourced.
	leaderSettle = 500 * time.Millisecond
)

// watchLeadership follows this hub's leadership of the replicated
// aggregate until ctx ends. The leader is the cluster's one writer of the
// aggregate's sources: while it leads it answers the other hubs' asks for
// writes (sourcewriter.go), and when it becomes leader it re-sources
// every node (Hub.kick). A new leader
// sets up the sources again itself, but a source whose first requests
// fail while the cluster elects (the node's API reached over a link held
// by a hub that just died) retries on its backoff, 15 s to 2 min; the
// kick makes it ask again at once. A single hub (no cluster) never
// changes leader and never kicks.
func (h *Hub) watchLeadership(ctx context.Context) {
	t := time.NewTicker(leaderPoll)
	defer t.Stop()
	leading := false
	var since time.Time // when this hub became leader, not yet kicked for
	defer h.answerAsks(false)
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if !h.ns.JetStreamIsClustered() {
			return
		}
		now := h.ns.JetStreamIsStreamLeader(hubAccount, hubwire.AggregateStream)
		switch {
		case now && !leading:
			since = time.Now()
		case !now:
			since = time.Time{}
		}
		leading = now
		h.answerAsks(leading)
		if since.IsZero() || time.Since(since) < leaderSettle {
			continue
		}
		var ids []string
		for _, n := range h.reg.nodes() {
			if n.Active() {
				ids = append(ids, n.ID)
			}
		}
		if len(ids) > 0 {
			if err := h.kick(ctx, ids...); err != nil {
				if ctx.Err() == nil {
					h.logger.Warn("re-source the nodes after becoming the aggregate's leader", "nodes", len(ids), "err", err)
				}
				continue // try again at the next poll
			}
			h.logger.Info("re-sourced the nodes after becoming the aggregate's leader", "nodes", len(ids))
		}
		since = time.Time{}
	}
}

// answerAsks starts or ends the answers to the other hubs' asks for
// writes of the sources (serveSourceAsks); only watchLeadership calls it.
func (h *Hub) answerAsks(on bool) {
	switch {
	case on && h.sourceAsks == nil:
		sub, err := h.serveSourceAsks()
		if err != nil {
			h.logger.Warn("the aggregate's leader cannot answer the other hubs' asks for writes of its sources; they ask again", "err", err)
			return
		}
		h.sourceAsks = sub
	case !on && h.sourceAsks != nil:
		_ = h.sourceAsks.Unsubscribe() // gone with the connection is fine
		h.sourceAsks = nil
	}
}
