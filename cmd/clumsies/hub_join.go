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
	id, n, err := hublink.Join(ctx, ws, pos[0], func(err error, wait time.Duration) {
		fmt.Fprintf(c.m.Stderr, "Waiting for the hub to answer the join (%v); asking again in %s.\n", err, wait.Round(10*time.Millisecond))
	})
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
	h, err := c.ws.attach(ctx, c.m, node.Options{LinkQuiet: true})
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
	switch {
	case st.Revoked:
		fmt.Fprintf(c.m.Stdout, "Link: revoked: the hub refuses this node and takes none of its events again.\n"+
			"The workspace works on without the hub. To link it again, ask the hub's admin for a new token (clumsies hub invite), remove %s, then run `clumsies hub join TOKEN`.\nLocal ledger: %d events\n",
			hublink.IdentityFile(ws.StateDir()), local)
		return nil
	case !st.Reachable:
		fmt.Fprintf(c.m.Stdout, "Hub not reachable: %s\nThe workspace works on; the hub catches up when it is back.\nLocal ledger: %d events\n", st.Error, local)
		return nil
	}
	state := "down"
	if st.Linked {
		state = "up"
	}
	since := ""
	if !st.Since.IsZero() {
		since = " since " + st.Since.Local().Format(time.DateTime)
	}
	behind := local - min(st.HubSeq, local)
	fmt.Fprintf(c.m.Stdout, "Link: %s%s\nHub has sequence %d of %d (%d behind)\n", state, since, st.HubSeq, local, behind)
	if !st.Linked {
		fmt.Fprintln(c.m.Stdout, "The link is up while a process owns the workspace: `clumsies serve` (your agent host starts it) or `clumsies ui`. Start one and the hub catches up.")
	}
	return nil
}
