package hub

import (
	"cmp"
	"context"
	"slices"
	"sync"
	"time"

	"github.com/nats-io/nats-server/v2/server"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// leaderFresh is how long Health keeps the streams' state it read before
// it reads it again.
const leaderFresh = time.Second

// leaderCache is the aggregate's and its shards' state as Health read it
// last.
type leaderCache struct {
	mu     sync.Mutex
	leader string
	shards []hubwire.ShardHealth
	at     time.Time
}

// Health reports the hub's state: the aggregate's leader and each
// shard's, as this hub's server knows them (its replica of each stream's
// group), with no request to the cluster. The state is read at most once
// per leaderFresh: a client polling the health (a load balancer, the
// bench waiting for the read models) reads it as often as it likes. It
// used to be the aggregate's stream information, asked of its leader
// (every source's configuration and state, hundreds of kilobytes at
// 1,000 nodes), and named no shard's leader.
func (h *Hub) Health(_ context.Context) hubwire.Health {
	out := hubwire.Health{OK: true, Server: h.cfg.Name, Applied: h.proj.Applied(), Writer: h.writesSources(),
		SourceWrites: h.sourceWritesMade.Load(), SourceWriteSeconds: time.Duration(h.sourceWriteNanos.Load()).Seconds()}
	out.Leader, out.Shards = h.streamLeaders()
	out.CatalogsMade, out.Catalogs = h.cats.health()
	return out
}

// streamLeaders is the aggregate's leader and each shard's state, "" for
// a leader unknown (none elected, or a hub alone).
func (h *Hub) streamLeaders() (string, []hubwire.ShardHealth) {
	c := &h.leader
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.at.IsZero() && time.Since(c.at) < leaderFresh {
		return c.leader, c.shards
	}
	acc, err := h.ns.JszAccount(&server.JSzOptions{Account: hubAccount, Streams: true})
	if err != nil {
		return "", nil
	}
	c.leader, c.shards, c.at = "", nil, time.Now()
	clustered := h.ns.JetStreamIsClustered()
	for _, st := range acc.Streams {
		leader, current := "", 0
		if ci := st.Cluster; ci != nil && clustered {
			leader = ci.Leader
			if leader == h.cfg.Name { // only the leader follows its replicas
				current = 1
				for _, r := range ci.Replicas {
					if r.Current {
						current++
					}
				}
			}
		}
		if st.Name == hubwire.AggregateStream {
			c.leader = leader
		}
		if k, ok := hubwire.ShardOf(st.Name); ok {
			c.shards = append(c.shards, hubwire.ShardHealth{Shard: k, Stream: st.Name, Leader: leader, Current: current, Messages: st.State.Msgs})
		}
	}
	slices.SortFunc(c.shards, func(a, b hubwire.ShardHealth) int { return cmp.Compare(a.Shard, b.Shard) })
	return c.leader, c.shards
}
