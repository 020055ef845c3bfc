package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/hub/hubwire"
	"github.com/clumsies/clumsies/hublink"
	"github.com/clumsies/clumsies/node"
)

// HubCheck is what `verify --against-hub` found: the hub's copy of this
// node's ledger against the local one.
type HubCheck struct {
	// Chain is the hub's chain of this node's ledger and its check of the
	// node's checkpoints.
	Chain hubwire.NodeChain `json:"chain"`
	// Disagreement is the first sequence where the local ledger differs
	// from the hub's copy, nil if everything the hub holds matches.
	Disagreement *hublink.Disagreement `json:"disagreement,omitempty"`
}

// againstHub compares the local ledger of h with the hub's copy of it and
// the hub's check of its checkpoints; it returns the problems found.
func againstHub(ctx context.Context, h *node.Handle) (HubCheck, []string, error) {
	ws := h.Workspace()
	id, err := hublink.LoadIdentity(ws.StateDir())
	if errors.Is(err, hublink.ErrNoIdentity) {
		return HubCheck{}, nil, fmt.Errorf("%w: --against-hub needs a workspace that joined a hub (clumsies hub join TOKEN)", errUsage)
	}
	if err != nil {
		return HubCheck{}, nil, err
	}
	var hc HubCheck
	if hc.Chain, err = id.ReadChain(ctx, 0); err != nil {
		return hc, nil, fmt.Errorf("ask the hub for this node's chain: %w; check `clumsies hub status`", err)
	}
	var local []events.ChainDigest
	d := events.ChainStart(ws.ID())
	err = h.Replay(ctx, 1, func(ev events.Event) error {
		if ev.Seq != uint64(len(local))+1 {
			return fmt.Errorf("the local ledger jumps from seq %d to seq %d; run clumsies verify", len(local), ev.Seq)
		}
		d = d.Next(ev.Seq, ev.Raw)
		local = append(local, d)
		return nil
	})
	if err != nil {
		return hc, nil, fmt.Errorf("read the local ledger: %w", err)
	}
	if hc.Disagreement, err = id.Compare(ctx, hc.Chain, local); err != nil {
		return hc, nil, fmt.Errorf("compare with the hub's copy: %w", err)
	}
	var problems []string
	if p := hc.Disagreement; p != nil {
		problems = append(problems, fmt.Sprintf("the hub's copy disagrees at seq %d: %s", p.Seq, p.Reason))
	}
	if p := hc.Chain.Problem; p != nil {
		problems = append(problems, fmt.Sprintf("the hub's check of this node's ledger fails at seq %d: %s", p.Seq, p.Reason))
	}
	return hc, problems, nil
}
