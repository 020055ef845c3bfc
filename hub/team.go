package hub

import (
	"cmp"
	"context"
	"fmt"
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
		sources, err = h.sources(ctx)
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

// sources returns the aggregate's sources by their API prefix.
func (h *Hub) sources(ctx context.Context) (map[string]hubwire.Sourcing, error) {
	s, err := h.js.Stream(ctx, hubwire.AggregateStream)
	if err != nil {
		return nil, fmt.Errorf("read the aggregate's sources: %w", err)
	}
	info, err := s.Info(ctx)
	if err != nil {
		return nil, fmt.Errorf("read the aggregate's sources: %w", err)
	}
	out := make(map[string]hubwire.Sourcing, len(info.Sources))
	for _, src := range info.Sources {
		if src == nil || src.External == nil {
			continue
		}
		out[src.External.APIPrefix] = hubwire.Sourcing{Lag: src.Lag, Active: src.Active}
	}
	return out, nil
}
