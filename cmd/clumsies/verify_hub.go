package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/clumsies/clumsies/hublink"
	"github.com/clumsies/clumsies/node"
)

// againstHub compares the local ledger of h with the hub's copy of it and
// the hub's check of its checkpoints (hublink.Identity.CheckLedger); it
// returns the problems found.
func againstHub(ctx context.Context, h *node.Handle) (hublink.LedgerCheck, []string, error) {
	ws := h.Workspace()
	id, err := hublink.LoadIdentity(ws.StateDir())
	if errors.Is(err, hublink.ErrNoIdentity) {
		return hublink.LedgerCheck{}, nil, fmt.Errorf("%w: --against-hub needs a workspace that joined a hub (clumsies hub join TOKEN)", errUsage)
	}
	if err != nil {
		return hublink.LedgerCheck{}, nil, err
	}
	return id.CheckLedger(ctx, ws.ID(), h)
}
