package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/clumsies/clumsies/hublink"
	"github.com/clumsies/clumsies/node"
)

// VerifyCommand checks the read models and the content.
type VerifyCommand struct {
	m     *Main
	ws    wsFlags
	json  bool
	atHub bool
}

// Run implements command. It exits with status 1 when anything disagrees.
func (c *VerifyCommand) Run(ctx context.Context, args []string) error {
	fs := c.m.newFlags("verify", "verify [--workspace DIR] [--against-hub] [--json]")
	fs.BoolVar(&c.atHub, "against-hub", false, "also compare the ledger with the hub's copy of it (a workspace that joined a hub)")
	h, err := c.m.attachData(ctx, fs, args, &c.ws, &c.json, "print JSON")
	if errors.Is(err, node.ErrProjector) {
		// The read models cannot start (a damaged stream stops the
		// projector): the chain check can still say what is wrong.
		return c.chainOnly(ctx, err)
	}
	if err != nil {
		return err
	}
	defer h.Close()
	r, err := h.Verify(ctx)
	if err != nil {
		return err
	}
	var hc *HubCheck
	if c.atHub {
		check, problems, err := againstHub(ctx, h)
		if err != nil {
			return err
		}
		hc = &check
		r.Problems = append(r.Problems, problems...)
	}
	if c.json {
		if r.Problems == nil {
			r.Problems = []string{}
		}
		if err := json.NewEncoder(c.m.Stdout).Encode(struct {
			OK bool `json:"ok"`
			node.Report
			Hub *HubCheck `json:"hub,omitempty"`
		}{r.OK(), r, hc}); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(c.m.Stdout, "events %d, objects %d\nlive   %s\nreplay %s\nchain  %s through seq %d, %d checkpoints hold through seq %d\n",
			r.Events, r.Objects, r.Digest, r.ReplayDigest, r.Chain.Digest, r.Chain.Through, r.Chain.Checkpoints, r.Chain.Verified)
		if r.Chain.Signed+r.Chain.Unchecked > 0 {
			fmt.Fprintf(c.m.Stdout, "signed %d checkpoints' signatures hold, %d by another node's key not checked\n", r.Chain.Signed, r.Chain.Unchecked)
		}
		if hc != nil {
			fmt.Fprintf(c.m.Stdout, "hub    %s through seq %d, %d checkpoints (%d signed) hold through seq %d\n",
				orDash(hc.Chain.Digest), hc.Chain.Through, hc.Chain.Checkpoints, hc.Chain.Signed, hc.Chain.Verified)
		}
		for _, p := range r.Problems {
			fmt.Fprintln(c.m.Stdout, "PROBLEM:", p)
		}
		if r.OK() {
			fmt.Fprintln(c.m.Stdout, "ok: the stored events match their checkpoints; read models match a replay of the stream; content hashes match")
			if hc != nil {
				fmt.Fprintln(c.m.Stdout, "ok: the hub's copy of this node's ledger matches it")
			}
		}
	}
	if !r.OK() {
		return errSilent{1}
	}
	return nil
}

// chainOnly reports the ledger's chain of a workspace whose read models
// cannot start (why: cause), and exits with status 1.
func (c *VerifyCommand) chainOnly(ctx context.Context, cause error) error {
	ws, err := c.ws.workspace()
	if err != nil {
		return err
	}
	logger, err := c.ws.logger(c.m.Stderr)
	if err != nil {
		return err
	}
	o := node.Options{Logger: logger}
	if id, err := hublink.LoadIdentity(ws.StateDir()); err == nil {
		o.CheckpointKey = id.Key() // check the signatures this node made
	}
	chain, err := node.CheckLedger(ctx, ws, o)
	if err != nil {
		return fmt.Errorf("%w; checking the ledger's chain without them failed too: %w", cause, err)
	}
	r := node.Report{Events: chain.Through, Chain: chain, Problems: []string{"the read models cannot start: " + cause.Error()}}
	if p := chain.Problem; p != nil {
		r.Problems = append([]string{fmt.Sprintf("ledger chain broken at seq %d (the checkpoints hold through seq %d): %s", p.Seq, p.After, p.Reason)}, r.Problems...)
	}
	if c.json {
		if err := json.NewEncoder(c.m.Stdout).Encode(struct {
			OK bool `json:"ok"`
			node.Report
		}{false, r}); err != nil {
			return err
		}
		return errSilent{1}
	}
	fmt.Fprintf(c.m.Stdout, "events %d\nchain  %s through seq %d, %d checkpoints hold through seq %d\n", r.Events, chain.Digest, chain.Through, chain.Checkpoints, chain.Verified)
	for _, p := range r.Problems {
		fmt.Fprintln(c.m.Stdout, "PROBLEM:", p)
	}
	return errSilent{1}
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
