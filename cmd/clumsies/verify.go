package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	embeddednats "github.com/clumsies/clumsies/embedded-nats"
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
//
// With no process owning the workspace, verify opens the store itself and
// checks the stream before it starts any read model (node.VerifyStopped):
// a damaged stream is reported, naming each missing or rewritten
// sequence, without an owner whose projector would stop on it. With an
// owner, it asks the owner.
func (c *VerifyCommand) Run(ctx context.Context, args []string) error {
	if len(args) > 0 && args[0] == "commit" {
		return (&VerifyCommitCommand{m: c.m}).Run(ctx, args[1:])
	}
	fs := c.m.newFlags("verify", "verify [--workspace DIR] [--against-hub] [--json]\n       clumsies verify commit REV|BASE..HEAD --key PUBFILE (see clumsies verify commit -h)")
	fs.BoolVar(&c.atHub, "against-hub", false, "also compare the ledger with the hub's copy of it (a workspace that joined a hub)")
	c.ws.register(fs)
	fs.BoolVar(&c.json, "json", false, "print JSON")
	if err := parse(fs, args); err != nil {
		return err
	}
	if !c.atHub {
		r, err := c.stopped(ctx)
		if !errors.Is(err, embeddednats.ErrLocked) {
			if err != nil {
				return err
			}
			return c.print(r, nil)
		}
	}
	h, err := c.ws.attach(ctx, c.m, node.Options{LinkQuiet: true})
	if err != nil {
		return err
	}
	defer h.Close()
	r, err := h.Verify(ctx)
	if err != nil {
		return err
	}
	var hc *hublink.LedgerCheck
	if c.atHub {
		check, problems, err := againstHub(ctx, h)
		if err != nil {
			return err
		}
		hc = &check
		r.Problems = append(r.Problems, problems...)
	}
	return c.print(r, hc)
}

// stopped verifies the workspace while no process owns it; the error
// wraps embeddednats.ErrLocked when one does.
func (c *VerifyCommand) stopped(ctx context.Context) (node.Report, error) {
	ws, err := c.ws.workspace()
	if err != nil {
		return node.Report{}, err
	}
	logger, err := c.ws.logger(c.m.Stderr)
	if err != nil {
		return node.Report{}, err
	}
	o := node.Options{Logger: logger}
	if id, err := hublink.LoadIdentity(ws.StateDir()); err == nil {
		o.CheckpointKey = id.Key() // check the signatures this node made
	}
	return node.VerifyStopped(ctx, ws, o)
}

// print prints r (and hc, the check against the hub, if any) and returns
// the exit status 1 when anything disagrees.
func (c *VerifyCommand) print(r node.Report, hc *hublink.LedgerCheck) error {
	if c.json {
		if r.Problems == nil {
			r.Problems = []string{}
		}
		if err := json.NewEncoder(c.m.Stdout).Encode(struct {
			OK bool `json:"ok"`
			node.Report
			Hub *hublink.LedgerCheck `json:"hub,omitempty"`
		}{r.OK(), r, hc}); err != nil {
			return err
		}
	} else {
		if r.Digest != "" { // the read models were checked
			fmt.Fprintf(c.m.Stdout, "events %d, objects %d\nlive   %s\nreplay %s\n", r.Events, r.Objects, r.Digest, r.ReplayDigest)
		} else {
			fmt.Fprintf(c.m.Stdout, "events %d\n", r.Events)
		}
		fmt.Fprintf(c.m.Stdout, "chain  %s through seq %d, %s, holding through seq %d\n",
			orDash(r.Chain.Digest), r.Chain.Through, count(r.Chain.Checkpoints, "checkpoint"), r.Chain.Verified)
		if r.Chain.Signed+r.Chain.Unchecked > 0 {
			fmt.Fprintf(c.m.Stdout, "signed %s with signatures that hold, %d by another node's key not checked\n", count(r.Chain.Signed, "checkpoint"), r.Chain.Unchecked)
		}
		if hc != nil {
			fmt.Fprintf(c.m.Stdout, "hub    %s through seq %d, %s (%d signed), holding through seq %d\n",
				orDash(hc.Chain.Digest), hc.Chain.Through, count(hc.Chain.Checkpoints, "checkpoint"), hc.Chain.Signed, hc.Chain.Verified)
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

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
