package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	embeddednats "github.com/clumsies/clumsies/embedded-nats"
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
	stale := c.staleOwner(ctx, id.NodeID)
	if c.json {
		out := map[string]any{"nodeId": id.NodeID, "team": n.Team, "workspaceId": n.Workspace, "hubUrl": ws.Config.Hub.URL}
		if stale != nil {
			out["restart"] = stale
		}
		return printJSON(c.m.Stdout, out)
	}
	fmt.Fprintf(c.m.Stdout, "Joined the hub as node %s of workspace %s (team %s).\n"+
		"The hub URL is in .clumsies/config.toml; the node key is in .clumsies/state/ (never copy it to another machine).\n",
		id.NodeID, n.Workspace, n.Team)
	if stale != nil {
		fmt.Fprintln(c.m.Stdout, restartOwner(*stale))
	} else {
		fmt.Fprintln(c.m.Stdout, "The process that owns the workspace (`clumsies serve`, `clumsies ui`) links to the hub from its start.")
	}
	return nil
}

// staleOwner returns the process that owns the workspace now if it does
// not link as nodeID: it started before the join (its server's JetStream
// domain is set at its start, so it cannot pick up the hub), and must be
// restarted. It returns nil when no process owns the workspace.
func (c *HubJoinCommand) staleOwner(ctx context.Context, nodeID string) *node.OwnerInfo {
	ws, err := c.ws.workspace()
	if err != nil {
		return nil
	}
	if _, locked, err := embeddednats.Owner(ws.StateDir()); err != nil || !locked {
		return nil
	}
	h, err := c.ws.attach(ctx, c.m, node.Options{LinkQuiet: true})
	if err != nil {
		return nil
	}
	defer h.Close()
	return ownerNotLinking(ctx, h, nodeID)
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
	if st.Linked {
		return nil
	}
	if stale := ownerNotLinking(ctx, h, id.NodeID); stale != nil {
		fmt.Fprintln(c.m.Stdout, restartOwner(*stale))
		return nil
	}
	fmt.Fprintln(c.m.Stdout, "The link is up while a process owns the workspace: `clumsies serve` (your agent host starts it) or `clumsies ui`. Start one and the hub catches up.")
	return nil
}

// ownerNotLinking returns the other process that owns the workspace
// through h if it does not link as nodeID (it started before the join; an
// owner of an earlier version, which cannot say, counts as one), nil
// when this process owns it or the owner links.
func ownerNotLinking(ctx context.Context, h *node.Handle, nodeID string) *node.OwnerInfo {
	if h.IsOwner() {
		return nil
	}
	info, err := h.OwnerInfo(ctx)
	if err != nil {
		pid, _, _ := embeddednats.Owner(h.Workspace().StateDir())
		return &node.OwnerInfo{PID: pid, Command: "a clumsies process of an earlier version"}
	}
	if info.HubNode == nodeID {
		return nil
	}
	return &info
}

// restartOwner says that the owner o does not link and must be restarted,
// naming it.
func restartOwner(o node.OwnerInfo) string {
	started := ""
	if !o.Started.IsZero() {
		started = ", started " + o.Started.Local().Format(time.DateTime)
	}
	return fmt.Sprintf("The workspace is owned by `%s` (pid %d%s), which started before this clone joined the hub and does not link to it: "+
		"stop it and start it again (for an agent host's `clumsies serve`, restart the host); the hub then catches up.", o.Command, o.PID, started)
}
