package hub

import (
	"context"
	"time"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// How the leader watcher polls.
const (
	// leaderPoll is how often the hub asks its server which streams of
	// the aggregate it leads.
	leaderPoll = 250 * time.Millisecond
	// leaderSettle is how long a new leadership must hold before the
	// nodes are re-sourced.
	leaderSettle = 500 * time.Millisecond
)

// watchLeadership follows this hub's leadership of the replicated
// aggregate and of each of its shards until ctx ends; only the server's
// own state is read, no request is made.
//
// The aggregate's leader is the cluster's one writer of the sources:
// while it leads it answers the other hubs' asks for writes
// (sourcewriter.go), and when it becomes leader it re-sources every node
// and every shard. A shard's leader is the server that sources its
// nodes, and the aggregate sources the shard from it; when this hub
// becomes a shard's leader it asks the writer to re-source the shard's
// nodes and the aggregate's source of the shard. A new leader sets up
// its sources again itself, but a source whose first requests fail while
// the cluster elects (the node's API reached over a link held by a hub
// that just died, a shard with no leader yet) retries on its backoff,
// 15 s to 2 min, and the aggregate's source of a shard, a consumer on the
// shard's old leader, is noticed gone only after 10 to 20 s (nats-server's
// check of stalled sources); the re-sourcing makes each ask again at once.
// A single hub (no cluster) never changes leader and never re-sources.
func (h *Hub) watchLeadership(ctx context.Context) {
	t := time.NewTicker(leaderPoll)
	defer t.Stop()
	defer h.answerAsks(false)
	agg := &lead{}
	shards := map[int]*lead{}
	done := make(chan leadJob, 1)
	running := false
	for {
		select {
		case <-ctx.Done():
			return
		case j := <-done:
			running = false
			if j.err != nil {
				if ctx.Err() == nil {
					h.logger.Warn("re-source after a change of leader; trying again", "aggregate", j.aggregate, "shards", j.shards, "err", j.err)
				}
				continue
			}
			agg.acted(j.aggSince)
			for i, k := range j.shards {
				shards[k].acted(j.since[i])
			}
			continue
		case <-t.C:
		}
		if !h.ns.JetStreamIsClustered() {
			return
		}
		at := time.Now()
		j := leadJob{aggregate: agg.observe(h.ns.JetStreamIsStreamLeader(hubAccount, hubwire.AggregateStream), at)}
		if j.aggregate {
			j.aggSince = agg.since
		}
		h.answerAsks(agg.leading)
		for k := 1; k <= h.reg.shards(); k++ {
			l := shards[k]
			if l == nil {
				l = &lead{}
				shards[k] = l
			}
			if l.observe(h.ns.JetStreamIsStreamLeader(hubAccount, hubwire.ShardStream(k)), at) {
				j.shards, j.since = append(j.shards, k), append(j.since, l.since)
			}
		}
		if running || (!j.aggregate && len(j.shards) == 0) {
			continue
		}
		running = true
		go func() {
			j.err = h.resourceLeads(ctx, j)
			done <- j
		}()
	}
}

// lead is this hub's leadership of one stream, as watchLeadership sees
// it.
type lead struct {
	leading bool
	since   time.Time // when this hub became leader, not yet re-sourced for
}

// observe records whether this hub leads the stream at at, and reports
// whether a leadership taken has held for leaderSettle without being
// re-sourced for.
func (l *lead) observe(leading bool, at time.Time) (due bool) {
	switch {
	case leading && !l.leading:
		l.since = at
	case !leading:
		l.since = time.Time{}
	}
	l.leading = leading
	return !l.since.IsZero() && at.Sub(l.since) >= leaderSettle
}

// acted records the re-sourcing for the leadership taken at since,
// unless that one was lost since (and maybe taken again).
func (l *lead) acted(since time.Time) {
	if !since.IsZero() && l.since.Equal(since) {
		l.since = time.Time{}
	}
}

// leadJob is a re-sourcing for leaderships taken: the aggregate's, shards'.
type leadJob struct {
	aggregate bool
	aggSince  time.Time
	shards    []int
	since     []time.Time // each shard's lead.since
	err       error
}

// resourceLeads re-sources for the leaderships of j: at a new writer
// (the aggregate's leader) every active node and every shard, which it
// writes from scratch (it forgets the lists it wrote in an earlier
// term, which another writer may have changed since); at a shard's new
// leader, the shard's nodes and its source in the aggregate.
func (h *Hub) resourceLeads(ctx context.Context, j leadJob) error {
	ask := sourceAsk{Shards: j.shards}
	if j.aggregate {
		h.forgetWritten()
		nodes := h.reg.nodes()
		ask.Shards = nil
		for k := 1; k <= shardCount(nodes); k++ {
			ask.Shards = append(ask.Shards, k)
		}
		for _, n := range nodes {
			if n.Active() {
				ask.Kick = append(ask.Kick, n.ID)
			}
		}
		if len(ask.Kick) == 0 && len(ask.Shards) == 0 {
			return nil
		}
	}
	if err := h.syncSources(ctx, ask); err != nil {
		return err
	}
	if j.aggregate {
		h.logger.Info("re-sourced the nodes and shards after becoming the aggregate's leader", "nodes", len(ask.Kick), "shards", len(ask.Shards))
	} else {
		h.logger.Info("re-sourced shards after becoming their leader", "shards", j.shards)
	}
	return nil
}

// forgetWritten forgets the source lists this hub wrote last
// (Hub.written), so that its next write of each stream is made.
func (h *Hub) forgetWritten() {
	h.ctrl.Lock()
	defer h.ctrl.Unlock()
	clear(h.written)
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
