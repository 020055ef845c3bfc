package hub

import (
	"context"
	"slices"
)

// ensureCatalogs creates the catalog bucket of every team with an active
// node, empty until the first push. A node mirrors its team's bucket from
// the time it links: a bucket that exists is mirrored at once, so that
// the first push reaches the team's workspaces as fast as later ones,
// where a mirror of a bucket not made yet waits out its retry backoff
// (seconds) before it sees it. A bucket it cannot create is logged: the
// first push creates it, later. A team's bucket is made once per start:
// the joins of a team's nodes after the first ask nothing of JetStream.
func (h *Hub) ensureCatalogs(ctx context.Context, teams ...string) {
	if teams == nil {
		for _, n := range h.reg.nodes() {
			if n.Active() && !slices.Contains(teams, n.Team) {
				teams = append(teams, n.Team)
			}
		}
	}
	for _, team := range teams {
		if _, done := h.catEnsured.Load(team); done {
			continue
		}
		if _, err := h.catalogKV(ctx, team, true); err != nil {
			h.logger.Warn("the first push to the team's catalog may reach its workspaces late", "team", team, "err", err)
			continue
		}
		h.catEnsured.Store(team, true)
	}
}
