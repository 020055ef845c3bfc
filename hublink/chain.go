package hublink

import (
	"context"
	"fmt"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/hub/hubwire"
)

// ReadChain asks the hub for its chain of this node's ledger, with the
// digest through seq at when at > 0, signing the request with the node's
// key.
func (id Identity) ReadChain(ctx context.Context, at uint64) (hubwire.NodeChain, error) {
	cl, err := id.client()
	if err != nil {
		return hubwire.NodeChain{}, err
	}
	return cl.NodeChain(ctx, id.NodeID, at)
}

// Disagreement is where this node's ledger and the hub's copy of it
// first differ.
type Disagreement struct {
	// Seq is the first sequence whose chain digest differs, or the first
	// the hub holds and the local ledger does not.
	Seq    uint64 `json:"seq"`
	Reason string `json:"reason"`
}

// Compare compares the chain digests of the local ledger (local[i] is
// the digest through seq i+1) with the hub's copy, whose chain is c. It
// asks the hub for its digests by bisection (about log2 of the ledger's
// length requests) to name the first sequence that differs; nil means
// everything the hub holds matches.
func (id Identity) Compare(ctx context.Context, c hubwire.NodeChain, local []events.ChainDigest) (*Disagreement, error) {
	if c.Through == 0 {
		return nil, nil
	}
	through := c.Through
	var short *Disagreement
	if uint64(len(local)) < through {
		short = &Disagreement{Seq: uint64(len(local)) + 1, Reason: fmt.Sprintf(
			"the hub holds this node's ledger through seq %d, the local ledger ends at seq %d: its tail was removed or an older copy restored", c.Through, len(local))}
		through = uint64(len(local))
		if through == 0 {
			return short, nil
		}
	}
	hubAt := func(seq uint64) (string, error) {
		if seq == c.Through {
			return c.Digest, nil
		}
		hc, err := id.ReadChain(ctx, seq)
		if err != nil {
			return "", err
		}
		if hc.At == nil || hc.At.Seq != seq {
			return "", fmt.Errorf("read the hub's digest through seq %d: its answer holds none", seq)
		}
		return hc.At.Digest, nil
	}
	d, err := hubAt(through)
	if err != nil {
		return nil, err
	}
	if d == local[through-1].String() {
		return short, nil
	}
	// The chains agree before lo+1 (the start) and differ through hi.
	lo, hi := uint64(0), through
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		d, err := hubAt(mid)
		if err != nil {
			return nil, err
		}
		if d == local[mid-1].String() {
			lo = mid
		} else {
			hi = mid
		}
	}
	return &Disagreement{Seq: hi, Reason: fmt.Sprintf(
		"the stored message at seq %d differs from the copy the hub received (the chains agree through seq %d): the local ledger was rewritten", hi, lo)}, nil
}

// LedgerCheck is what a check of this node's ledger against the hub's
// copy of it found (`clumsies verify --against-hub`).
type LedgerCheck struct {
	// Chain is the hub's chain of this node's ledger and its check of the
	// node's checkpoints.
	Chain hubwire.NodeChain `json:"chain"`
	// Disagreement is the first sequence where the local ledger differs
	// from the hub's copy, nil if everything the hub holds matches.
	Disagreement *Disagreement `json:"disagreement,omitempty"`
}

// CheckLedger compares log, the local ledger of workspace wsID, with the
// hub's copy of it and the hub's check of its checkpoints; it returns the
// problems found, in words.
func (id Identity) CheckLedger(ctx context.Context, wsID string, log events.Log) (LedgerCheck, []string, error) {
	var lc LedgerCheck
	var err error
	if lc.Chain, err = id.ReadChain(ctx, 0); err != nil {
		return lc, nil, fmt.Errorf("ask the hub for this node's chain: %w; check `clumsies hub status`", err)
	}
	var local []events.ChainDigest
	d := events.ChainStart(wsID)
	err = log.Replay(ctx, 1, func(ev events.Event) error {
		if ev.Seq != uint64(len(local))+1 {
			return fmt.Errorf("the local ledger jumps from seq %d to seq %d; run clumsies verify", len(local), ev.Seq)
		}
		d = d.Next(ev.Seq, ev.Raw)
		local = append(local, d)
		return nil
	})
	if err != nil {
		return lc, nil, fmt.Errorf("read the local ledger: %w", err)
	}
	if lc.Disagreement, err = id.Compare(ctx, lc.Chain, local); err != nil {
		return lc, nil, fmt.Errorf("compare with the hub's copy: %w", err)
	}
	var problems []string
	if p := lc.Disagreement; p != nil {
		problems = append(problems, fmt.Sprintf("the hub's copy disagrees at seq %d: %s", p.Seq, p.Reason))
	}
	if p := lc.Chain.Problem; p != nil {
		problems = append(problems, fmt.Sprintf("the hub's check of this node's ledger fails at seq %d: %s", p.Seq, p.Reason))
	}
	return lc, problems, nil
}
