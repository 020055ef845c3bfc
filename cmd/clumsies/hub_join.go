package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/clumsies/clumsies/hublink"
	"github.com/clumsies/clumsies/node"
)

// HubJoinCommand joins this clone of a workspace to a hub.
type HubJoinCommand struct {
	m    *Main
	ws   wsFlags
	json bool
}

// Run implements command.
func (c *HubJoinCommand) Run(ctx context.Context, args []string) error {
	fs := c.m.newFlags("hub join", "hub join TOKEN [--workspace DIR] [--json]")
	c.ws.register(fs)
	fs.BoolVar(&c.json, "json", false, "print JSON")
	pos, err := parsePositional(fs, args, 1)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf("%w: hub join needs the join token `clumsies hub invite` printed", errUsage)
	}
	ws, err := c.ws.workspace()
	if err != nil {
		return err
	}
	id, n, err := hublink.Join(ctx, ws, pos[0])
	if err != nil {
		return err
	}
	if c.json {
		return printJSON(c.m.Stdout, map[string]string{"nodeId": id.NodeID, "team": n.Team, "workspaceId": n.Workspace, "hubUrl": ws.Config.Hub.URL})
	}
	fmt.Fprintf(c.m.Stdout, "Joined the hub as node %s of workspace %s (team %s).\n"+
		"The hub URL is in .clumsies/config.toml; the node key is in .clumsies/state/ (never copy it to another machine).\n"+
		"The workspace's owner process links to the hub from its next start (restart a running `clumsies serve`).\n",
		id.NodeID, n.Workspace, n.Team)
	return nil
}

// HubStatusCommand shows the workspace's hub link.
type HubStatusCommand struct {
	m    *Main
	ws   wsFlags
	json bool
}

// hubStatusJSON is the shape of `clumsies hub status --json`.
type hubStatusJSON struct {
	WorkspaceID string `json:"workspaceId"`
	NodeID      string `json:"nodeId"`
	HubURL      string `json:"hubUrl"`
	hublink.Status
	LocalSeq uint64 `json:"localSeq"`
}

// Run implements command.
func (c *HubStatusCommand) Run(ctx context.Context, args []string) error {
	fs := c.m.newFlags("hub status", "hub status [--workspace DIR] [--json]")
	c.ws.register(fs)
	fs.BoolVar(&c.json, "json", false, "print JSON")
	if _, err := parsePositional(fs, args, 0); err != nil {
		return err
	}
	ws, err := c.ws.workspace()
	if err != nil {
		return err
	}
	id, err := hublink.LoadIdentity(ws.StateDir())
	if errors.Is(err, hublink.ErrNoIdentity) || ws.Config.Hub.URL == "" {
		return fmt.Errorf("this clone of %s has not joined a hub: ask the hub's admin for a token (clumsies hub invite), then run `clumsies hub join TOKEN`", ws.ID())
	}
	if err != nil {
		return err
	}
	h, err := c.ws.attach(ctx, c.m, node.Options{})
	if err != nil {
		return err
	}
	defer h.Close()
	local, err := h.LastSeq(ctx)
	if err != nil {
		return err
	}
	st, err := id.ReadStatus(ctx)
	if err != nil {
		return err
	}
	out := hubStatusJSON{WorkspaceID: ws.ID(), NodeID: id.NodeID, HubURL: ws.Config.Hub.URL, Status: st, LocalSeq: local}
	if c.json {
		return printJSON(c.m.Stdout, out)
	}
	fmt.Fprintf(c.m.Stdout, "Node %s of %s, hub %s\n", id.NodeID, ws.ID(), ws.Config.Hub.URL)
	if !st.Reachable {
		fmt.Fprintf(c.m.Stdout, "Hub not reachable: %s\nThe workspace works on; the hub catches up when it is back.\nLocal ledger: %d events\n", st.Error, local)
		return nil
	}
	state := "down"
	switch {
	case st.Revoked:
		state = "revoked (join again with a new token)"
	case st.Linked:
		state = "up"
	}
	since := ""
	if !st.Since.IsZero() {
		since = " since " + st.Since.Local().Format(time.DateTime)
	}
	fmt.Fprintf(c.m.Stdout, "Link: %s%s\nHub has sequence %d of %d (%d behind)\n",
		state, since, st.HubSeq, local, local-min(st.HubSeq, local))
	return nil
}
