package node

import (
	"context"
	"fmt"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/projections"
	"github.com/clumsies/clumsies/views/dash"
)

// Dash answers a page of the dashboard's API from the owner's read
// models, without waiting for them to catch up: a page shows the ledger
// up to Ledger.Applied, and Ledger.LastSeq says how far the stream is.
func (h *Handle) Dash(ctx context.Context, req dash.Request) (dash.Reply, error) {
	return mDash.call(ctx, h, req)
}

func (o *owner) dash(ctx context.Context, req dash.Request) (dash.Reply, error) {
	if req.Page == dash.PageCommit || req.Page == dash.PageCommits {
		return o.commitPage(ctx, req)
	}
	last, err := o.n.Log.LastSeq(ctx)
	if err != nil {
		return dash.Reply{}, fmt.Errorf("read the stream's last sequence: %w", err)
	}
	return read(o, func(s *projections.Store) (dash.Reply, error) {
		led := dash.Ledger{WorkspaceID: o.n.WS.ID(), WorkspaceName: o.n.WS.Name(), LastSeq: last, Applied: s.Checkpoint()}
		return dash.Answer(ctx, teamSource{Store: s, ov: o.n.overlay()}, o.n.Log, led, req)
	})
}

// teamSource is the read models with the team's catalog laid over them,
// so that the dashboard names the team rules the agents referred to
// (dash.TeamRules).
type teamSource struct {
	*projections.Store
	ov Overlay
}

// TeamRule implements dash.TeamRules.
func (t teamSource) TeamRule(ctx context.Context, id string) (string, content.Kind, bool, error) {
	it, ok, err := t.ov.View(ctx, id, t.Store)
	if err != nil || !ok || (it.Kind != content.KindRule && it.Kind != content.KindWorkflow) {
		return "", "", false, err
	}
	return it.Path, it.Kind, true, nil
}
