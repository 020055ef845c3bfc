package node

import (
	"context"
	"fmt"

	"github.com/clumsies/clumsies/dash"
	"github.com/clumsies/clumsies/projections"
)

// Dash answers a page of the dashboard's API from the owner's read
// models, without waiting for them to catch up: a page shows the ledger
// up to Ledger.Applied, and Ledger.LastSeq says how far the stream is.
func (h *Handle) Dash(ctx context.Context, req dash.Request) (dash.Reply, error) {
	return mDash.call(ctx, h, req)
}

func (o *owner) dash(ctx context.Context, req dash.Request) (dash.Reply, error) {
	last, err := o.n.Log.LastSeq(ctx)
	if err != nil {
		return dash.Reply{}, fmt.Errorf("read the stream's last sequence: %w", err)
	}
	return read(o, func(s *projections.Store) (dash.Reply, error) {
		led := dash.Ledger{WorkspaceID: o.n.WS.ID(), WorkspaceName: o.n.WS.Name(), LastSeq: last, Applied: s.Checkpoint()}
		return dash.Answer(ctx, s, o.n.Log, led, req)
	})
}
