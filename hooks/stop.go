package hooks

import (
	"context"
	"errors"
	"fmt"

	"github.com/clumsies/clumsies/adapt"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/node"
	"github.com/clumsies/clumsies/projections"
)

// StopBlockLimit is how many stops in a row the stop hook refuses before
// it lets an agent that does not report go.
const StopBlockLimit = 2

// stop decides a stop from the ledger: it blocks while the session's last
// prompt has no report or rejection after it, up to StopBlockLimit times
// in a row, recording each block.
func stop(ctx context.Context, hd *node.Handle, h *adapt.Host, in adapt.Input) (Outcome, error) {
	facts, err := hd.SessionCompliance(ctx, in.SessionID)
	switch {
	case errors.Is(err, projections.ErrNotFound):
		return Outcome{}, nil
	case err != nil:
		return Outcome{}, fmt.Errorf("read the session's facts: %w", err)
	case !facts.Pending:
		return Outcome{}, nil
	case facts.BlocksInRow >= StopBlockLimit:
		return Outcome{Note: fmt.Sprintf("session %s stops without a report after %d blocked stops", in.SessionID, facts.BlocksInRow)}, nil
	}
	data := events.StopBlockedData{Host: h.Name, Blocks: int(facts.BlocksInRow) + 1, Limit: StopBlockLimit}
	if err := record(ctx, hd, in.SessionID, events.TypeStopBlocked, data); err != nil {
		return Outcome{}, err // not recorded, not blocked: the bound must hold
	}
	return Outcome{Answer: adapt.Answer{Block: true, Reason: adapt.StopReason(in.SessionID)}}, nil
}
