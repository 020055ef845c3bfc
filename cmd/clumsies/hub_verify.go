package main

import (
	"context"
	"fmt"
	"text/tabwriter"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// HubVerifyCommand reports, per node, whether the node's checkpoints
// match what the hub received of its ledger.
type HubVerifyCommand struct {
	m    *Main
	hub  hubFlags
	node string
	json bool
}

// Run implements command. It exits with status 1 when a node's chain
// does not hold.
func (c *HubVerifyCommand) Run(ctx context.Context, args []string) error {
	fs := c.m.newFlags("hub verify", "hub verify [--node NODE] [--hub DIR | --url URL --token T] [--json]")
	fs.StringVar(&c.node, "node", "", "check only `NODE` (see clumsies hub nodes)")
	c.hub.register(fs)
	fs.BoolVar(&c.json, "json", false, "print JSON")
	if _, err := parsePositional(fs, args, 0); err != nil {
		return err
	}
	cl, err := c.hub.client()
	if err != nil {
		return err
	}
	ids := []string{c.node}
	if c.node == "" {
		nodes, err := cl.Nodes(ctx)
		if err != nil {
			return err
		}
		ids = ids[:0]
		for _, n := range nodes {
			ids = append(ids, n.ID)
		}
	}
	chains := []hubwire.NodeChain{}
	ok := true
	for _, id := range ids {
		nc, err := cl.NodeChain(ctx, id, 0)
		if err != nil {
			return err
		}
		ok = ok && nc.Problem == nil
		chains = append(chains, nc)
	}
	if c.json {
		if err := printJSON(c.m.Stdout, struct {
			OK    bool                `json:"ok"`
			Nodes []hubwire.NodeChain `json:"nodes"`
		}{ok, chains}); err != nil {
			return err
		}
	} else {
		tw := tabwriter.NewWriter(c.m.Stdout, 2, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "NODE\tWORKSPACE\tTHROUGH\tCHECKPOINTS\tSIGNED\tVERIFIED\tSTATE")
		for _, nc := range chains {
			state := "ok"
			if p := nc.Problem; p != nil {
				state = fmt.Sprintf("BROKEN at seq %d: %s", p.Seq, p.Reason)
			}
			fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%d\t%s\n", nc.Node, nc.Workspace, nc.Through, nc.Checkpoints, nc.Signed, nc.Verified, state)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	if !ok {
		return errSilent{1}
	}
	return nil
}
