package main

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/clumsies/clumsies/node"
)

// VerifyCommand checks the read models and the content.
type VerifyCommand struct {
	m    *Main
	ws   wsFlags
	json bool
}

// Run implements command. It exits with status 1 when anything disagrees.
func (c *VerifyCommand) Run(ctx context.Context, args []string) error {
	h, err := c.m.attachData(ctx, c.m.newFlags("verify", "verify [--workspace DIR] [--json]"), args, &c.ws, &c.json, "print JSON")
	if err != nil {
		return err
	}
	defer h.Close()
	r, err := h.Verify(ctx)
	if err != nil {
		return err
	}
	if c.json {
		if r.Problems == nil {
			r.Problems = []string{}
		}
		if err := json.NewEncoder(c.m.Stdout).Encode(struct {
			OK bool `json:"ok"`
			node.Report
		}{r.OK(), r}); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(c.m.Stdout, "events %d, objects %d\nlive   %s\nreplay %s\nchain  %s through seq %d, %d checkpoints hold through seq %d\n",
			r.Events, r.Objects, r.Digest, r.ReplayDigest, r.Chain.Digest, r.Chain.Through, r.Chain.Checkpoints, r.Chain.Verified)
		for _, p := range r.Problems {
			fmt.Fprintln(c.m.Stdout, "PROBLEM:", p)
		}
		if r.OK() {
			fmt.Fprintln(c.m.Stdout, "ok: the stored events match their checkpoints; read models match a replay of the stream; content hashes match")
		}
	}
	if !r.OK() {
		return errSilent{1}
	}
	return nil
}
