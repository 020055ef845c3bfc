package hub

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
)

// TeamNode is what a team's dashboard shows of one node: whether it is
// linked and how far behind the hub is with its ledger.
type TeamNode struct {
	ID        string    `json:"id"`
	Team      string    `json:"team"`
	Workspace string    `json:"workspaceId"`
	Member    string    `json:"member,omitempty"`
	Joined    time.Time `json:"joined"`
	Link      Link      `json:"link"`
	// HubSeq is the last sequence of the node's ledger the hub's
	// projector has applied.
	HubSeq uint64 `json:"hubSeq"`
	// Sourcing is the aggregate's source of the node: Lag is the messages
	// of the node's ledger the aggregate has not received yet, as the
	// hub's JetStream last saw them (it knows only while the link is up),
	// Active how long since it last heard from the source. Nil when the
	// aggregate has no source for the node (being re-sourced).
	Sourcing *Sourcing `json:"sourcing,omitempty"`
}

// Sourcing is the state of one source of the aggregate.
type Sourcing struct {
	Lag    uint64        `json:"lag"`
	Active time.Duration `json:"activeNs"`
}

// TeamNodes returns the active nodes of teams (every team when teams is
// nil), sorted by team, then member, then id.
func (h *Hub) TeamNodes(ctx context.Context, teams []string) ([]TeamNode, error) {
	sources, err := h.sources(ctx)
	if err != nil {
		return nil, err
	}
	out := []TeamNode{}
	for _, n := range h.reg.nodes() {
		if !n.Active() || teams != nil && !slices.Contains(teams, n.Team) {
			continue
		}
		seq, err := h.proj.nodeSeq(n.ID)
		if err != nil {
			return nil, fmt.Errorf("read the applied sequence of %s: %w", n.ID, err)
		}
		tn := TeamNode{ID: n.ID, Team: n.Team, Workspace: n.Workspace, Member: n.Member, Joined: n.Joined, Link: h.Link(n.ID), HubSeq: seq}
		if s, ok := sources[apiPrefix(n.ID)]; ok {
			tn.Sourcing = &s
		}
		out = append(out, tn)
	}
	slices.SortFunc(out, func(a, b TeamNode) int {
		return cmp.Or(strings.Compare(a.Team, b.Team), strings.Compare(a.Member, b.Member), strings.Compare(a.ID, b.ID))
	})
	return out, nil
}

// sources returns the aggregate's sources by their API prefix.
func (h *Hub) sources(ctx context.Context) (map[string]Sourcing, error) {
	s, err := h.js.Stream(ctx, AggregateStream)
	if err != nil {
		return nil, fmt.Errorf("read the aggregate's sources: %w", err)
	}
	info, err := s.Info(ctx)
	if err != nil {
		return nil, fmt.Errorf("read the aggregate's sources: %w", err)
	}
	out := make(map[string]Sourcing, len(info.Sources))
	for _, src := range info.Sources {
		if src == nil || src.External == nil {
			continue
		}
		out[src.External.APIPrefix] = Sourcing{Lag: src.Lag, Active: src.Active}
	}
	return out, nil
}
