package hub

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// createOrUpdate writes a stream of the aggregate, and reports whether
// the write created it.
func (h *Hub) createOrUpdate(ctx context.Context, cfg jetstream.StreamConfig) (created bool, err error) {
	if _, err = h.js.CreateStream(ctx, cfg); err == nil {
		return true, nil
	}
	if !errors.Is(err, jetstream.ErrStreamNameAlreadyInUse) {
		return false, err
	}
	_, err = h.js.UpdateStream(ctx, cfg)
	return false, err
}

// spreadLeader hands the lead of shard k, just created, to the server
// whose turn it is: the servers holding its replicas, by name, in turn
// by shard number. nats-server elects a new stream's leader among its
// replicas as it sees fit (three shards of a test cluster were led by
// two servers, one of them leading two); each leader serves its shard's
// sourcing of up to ShardSize nodes, so the shards' leaders are spread
// over the cluster. A new shard holds one node or none, so the hand-over
// costs next to nothing; the shards made before are not moved. A single
// hub has nothing to spread.
func (h *Hub) spreadLeader(ctx context.Context, k int) error {
	if h.cfg.Replicas() < 2 {
		return nil
	}
	// A join that makes a shard waits for this: a leader not elected
	// within the bound (a loaded cluster) is left as nats-server elects
	// it.
	ctx, cancel := context.WithTimeout(ctx, spreadWait)
	defer cancel()
	name := hubwire.ShardStream(k)
	cl, err := h.shardCluster(ctx, name, "")
	if err != nil {
		return fmt.Errorf("read %s's leader: %w", name, err)
	}
	servers := []string{cl.Leader}
	for _, r := range cl.Replicas {
		servers = append(servers, r.Name)
	}
	slices.Sort(servers)
	target := servers[(k-1)%len(servers)]
	if target == cl.Leader {
		return nil
	}
	req, _ := json.Marshal(map[string]any{"placement": map[string]string{"preferred": target}})
	msg, err := h.nc.RequestWithContext(ctx, "$JS.API.STREAM.LEADER.STEPDOWN."+name, req)
	if err != nil {
		return fmt.Errorf("hand %s's lead to %s: %w", name, target, err)
	}
	var resp struct {
		Error *struct {
			Description string `json:"description"`
		} `json:"error"`
	}
	if err := json.Unmarshal(msg.Data, &resp); err != nil {
		return fmt.Errorf("hand %s's lead to %s: %w", name, target, err)
	}
	if resp.Error != nil {
		return fmt.Errorf("hand %s's lead to %s: %s", name, target, resp.Error.Description)
	}
	// The next joins write the shard's sources at once, and a write made
	// while the lead changes hands goes unanswered until its attempt's
	// bound (5 s, retry): in a cluster of three with shards of 100 the
	// joins right after a shard was made waited about 5.3 s. The join
	// that made the shard waits for the new leader instead.
	if _, err := h.shardCluster(ctx, name, cl.Leader); err != nil {
		return fmt.Errorf("wait for %s's new leader: %w", name, err)
	}
	return nil
}

// How long a join that makes a shard waits for the shard's leader to be
// elected and handed over (spreadLeader), and how often it asks.
const (
	spreadWait = 3 * time.Second
	spreadPoll = 100 * time.Millisecond
)

// shardCluster returns the cluster of the named stream once it has a
// leader other than not ("" for any), asking again until ctx ends: right
// after its creation a stream may be unknown to this server, or have no
// leader yet, and right after a step-down its old leader may still
// answer.
func (h *Hub) shardCluster(ctx context.Context, name, not string) (*jetstream.ClusterInfo, error) {
	for {
		actx, cancel := context.WithTimeout(ctx, time.Second)
		st, err := h.js.Stream(actx, name)
		cancel()
		if err == nil {
			if cl := st.CachedInfo().Cluster; cl != nil && cl.Leader != "" && cl.Leader != not {
				return cl, nil
			}
		}
		select {
		case <-ctx.Done():
			return nil, errors.Join(ctx.Err(), err)
		case <-time.After(spreadPoll):
		}
	}
}
