package node

import (
	"context"

	"github.com/clumsies/clumsies/projections"
)

// SessionCompliance returns what the ledger says of session id's
// discipline (see projections.Compliance), with every event appended
// before the call applied: a report the agent has just made, which
// answers without waiting for the projections, is counted. It returns
// projections.ErrNotFound when the ledger has nothing of the session.
func (h *Handle) SessionCompliance(ctx context.Context, id string) (projections.Compliance, error) {
	return mCompliance.call(ctx, h, id)
}

// compliance catches the read models up with the log, then reads.
func (o *owner) compliance(ctx context.Context, id string) (projections.Compliance, error) {
	if _, err := o.catchUp(ctx, struct{}{}); err != nil {
		return projections.Compliance{}, err
	}
	return read(o, func(s *projections.Store) (projections.Compliance, error) { return s.SessionCompliance(id) })
}
