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
