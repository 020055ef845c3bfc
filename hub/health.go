package hub

import (
	"context"
	"sync"
	"time"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// leaderFresh is how long Health names the aggregate's leader it read
// before it reads it again.
const leaderFresh = time.Second

// leaderCache is the aggregate's leader as Health read it last.
type leaderCache struct {
	mu   sync.Mutex
	name string
	at   time.Time
}

// Health reports the hub's state. The aggregate's leader is read at most
// once per leaderFresh: the read is the stream's whole information, its
// configuration with every source and each source's state (hundreds of
// kilobytes at 1,000 nodes, built by the leader, in a cluster over a
// route), and a client polling the health (a load balancer, the bench
// waiting for the read models) made the leader build it for every poll.
func (h *Hub) Health(ctx context.Context) hubwire.Health {
	out := hubwire.Health{OK: true, Server: h.cfg.Name, Applied: h.proj.Applied(), Writer: h.writesSources(),
		SourceWrites: h.sourceWritesMade.Load(), SourceWriteSeconds: time.Duration(h.sourceWriteNanos.Load()).Seconds()}
	out.Leader = h.aggregateLeader(ctx)
	return out
}

// aggregateLeader is the server leading the aggregate, "" when unknown
// or this server alone.
func (h *Hub) aggregateLeader(ctx context.Context) string {
	c := &h.leader
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.at.IsZero() && time.Since(c.at) < leaderFresh {
		return c.name
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	st, err := h.js.Stream(ctx, hubwire.AggregateStream)
	if err != nil {
		return ""
	}
	c.name, c.at = "", time.Now()
	if info := st.CachedInfo(); info.Cluster != nil {
		c.name = info.Cluster.Leader
	}
	return c.name
}
