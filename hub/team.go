package hub

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// TeamNodes returns the active nodes of teams (every team when teams is
// nil), sorted by team, then member, then id.
func (h *Hub) TeamNodes(ctx context.Context, teams []string) ([]hubwire.TeamNode, error) {
	// The sources are read through the hub's JetStream, whose requests
	// can go unanswered for a moment (a leader change in a cluster): ask
	// again, and answer without them rather than fail when they stay
	// unreadable.
	var sources map[string]hubwire.Sourcing
	err := retryUnanswered(ctx, func(ctx context.Context) error {
		var err error
		sources, err = h.sources(ctx, nil)
		return err
	})
	if err != nil {
		h.logger.Warn("the team's nodes are listed without their sourcing", "err", err)
	}
	out := []hubwire.TeamNode{}
	for _, n := range h.reg.nodes() {
		if !n.Active() || teams != nil && !slices.Contains(teams, n.Team) {
			continue
		}
		seq, err := h.proj.nodeSeq(n.ID)
		if err != nil {
			return nil, fmt.Errorf("read the applied sequence of %s: %w", n.ID, err)
		}
		tn := hubwire.TeamNode{ID: n.ID, Team: n.Team, Workspace: n.Workspace, Member: n.Member, Joined: n.Joined, Link: h.Link(n.ID), HubSeq: seq}
		if s, ok := sources[apiPrefix(n.ID)]; ok {
			tn.Sourcing = &s
		}
		out = append(out, tn)
	}
	slices.SortFunc(out, func(a, b hubwire.TeamNode) int {
		return cmp.Or(strings.Compare(a.Team, b.Team), strings.Compare(a.Member, b.Member), strings.Compare(a.ID, b.ID))
	})
	return out, nil
}

// sources returns the sources of the nodes by their API prefix, read
// from the streams of their shards: of the nodes of ids, or of every node
// when ids is nil. Each shard's stream info is about 650 B per source.
func (h *Hub) sources(ctx context.Context, ids []string) (map[string]hubwire.Sourcing, error) {
	asked := map[string]bool{}
	for _, id := range ids {
		asked[id] = true
	}
	shards := map[int]bool{}
	// Read in place: the link watcher asks every stallCheckEvery.
	h.reg.eachNode(func(n *hubwire.Node) {
		if n.Shard > 0 && (ids == nil || asked[n.ID]) {
			shards[n.Shard] = true
		}
	})
	out := map[string]hubwire.Sourcing{}
	for _, k := range slices.Sorted(maps.Keys(shards)) {
		if err := h.shardSources(ctx, k, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// shardSources adds the sources of shard k to out.
func (h *Hub) shardSources(ctx context.Context, k int, out map[string]hubwire.Sourcing) error {
	s, err := h.js.Stream(ctx, hubwire.ShardStream(k))
	if err != nil {
		return fmt.Errorf("read the sources of %s: %w", hubwire.ShardStream(k), err)
	}
	info, err := s.Info(ctx)
	if err != nil {
		return fmt.Errorf("read the sources of %s: %w", hubwire.ShardStream(k), err)
	}
	for _, src := range info.Sources {
		if src == nil || src.External == nil {
			continue
		}
		out[src.External.APIPrefix] = hubwire.Sourcing{Lag: src.Lag, Active: src.Active,
			Stalled: src.Error != nil && src.Error.ErrorCode == errCodeSourceStalled}
	}
	return nil
}
