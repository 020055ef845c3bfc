package node

import (
	"context"

	"github.com/clumsies/clumsies/projections"
)

// sessionBinding reads the binding of a session once the projections have
// applied every event the stream held when it was asked: the secret a
// session-start hook recorded a moment ago counts.
func (o *owner) sessionBinding(ctx context.Context, id string) (projections.SessionBinding, error) {
	if _, err := o.catchUp(ctx, struct{}{}); err != nil {
		return projections.SessionBinding{}, err
	}
	return read(o, func(s *projections.Store) (projections.SessionBinding, error) { return s.SessionBinding(ctx, id) })
}

// SessionBinding implements the MCP layer's Catalog:
// projections.Store.SessionBinding, read by the owner once caught up.
func (h *Handle) SessionBinding(ctx context.Context, id string) (projections.SessionBinding, error) {
	return mSessionBinding.call(ctx, h, id)
}

// SessionBinding implements mcp.Catalog: Handle.SessionBinding once open.
func (o *Opening) SessionBinding(ctx context.Context, id string) (projections.SessionBinding, error) {
	h, err := o.handle(ctx)
	if err != nil {
		return projections.SessionBinding{}, err
	}
	return h.SessionBinding(ctx, id)
}
