package node

import (
	"context"

	"github.com/clumsies/clumsies/events"
)

// A draft of a team's object goes to the hub by itself: right after an
// agent stages it, the owner's link submits it for review (Link.AfterRecord).
// A draft of a repository object stays a draft until a person applies or
// declines it (clumsies drafts).

// submitIfTeam hands the draft ev staged to the owner's link, which
// submits it when it is the team's. A draft whose submission fails stays
// a draft; the failure is logged.
func (h *Handle) submitIfTeam(ctx context.Context, ev events.Event) {
	if op := ev.Type.DraftOp(); op == "" || op == events.DraftOpDiscard {
		return
	}
	p, err := ev.Payload()
	if err != nil {
		return
	}
	d, ok := p.(*events.DraftData)
	if !ok {
		return
	}
	if _, err := mSubmitTeam.call(ctx, h, d.ID); err != nil {
		h.logger.Warn("a draft of a team object was not submitted to the hub", "id", d.ID, "err", err)
	}
}

// submitTeam is Link.AfterRecord for the owner's service.
func (o *owner) submitTeam(ctx context.Context, id string) (bool, error) {
	o.models.RLock()
	defer o.models.RUnlock()
	if o.n.link == nil {
		return false, nil
	}
	return o.n.link.AfterRecord(ctx, id)
}
