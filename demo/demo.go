// Package demo is the session of `clumsies demo`: a throw-away workspace
// with the starter content, an agent's session scripted through a real
// MCP client against the server, and the ledger and usage it produced.
package demo

import (
	"context"
	"fmt"
	"io"

	embeddednats "github.com/clumsies/clumsies/embedded-nats"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/mcp"
	"github.com/clumsies/clumsies/node"
	"github.com/clumsies/clumsies/stats"
	"github.com/clumsies/clumsies/workspace"
)

// Workspace is the demo's workspace, open as its owner, its content
// published.
type Workspace struct {
	ws *workspace.Workspace
	n  *node.Node
	// Published counts the content files published.
	Published int
}

// Open makes the starter workspace in dir (an empty folder), opens it
// and publishes its content.
func Open(ctx context.Context, dir string) (*Workspace, error) {
	ws, _, err := workspace.Init(dir)
	if err != nil {
		return nil, err
	}
	n, err := node.Open(ctx, ws, node.Options{Sync: embeddednats.SyncAlways})
	if err != nil {
		return nil, err
	}
	if err := n.StartProjections(ctx); err != nil {
		n.Close()
		return nil, err
	}
	published, err := n.Publish(ctx)
	if err != nil {
		n.Close()
		return nil, err
	}
	return &Workspace{ws: ws, n: n, Published: published.Count}, nil
}

// ID is the workspace's id.
func (d *Workspace) ID() string { return d.ws.ID() }

// Close closes the workspace.
func (d *Workspace) Close() error { return d.n.Close() }

// Play plays the agent's session through an MCP client of the server
// (version is the server's), narrating each call on out, and returns the
// calls.
func (d *Workspace) Play(ctx context.Context, out io.Writer, version string) ([]Call, error) {
	srv := mcp.NewServer(mcp.Config{WorkspaceID: d.ws.ID(), Root: d.ws.Root, Catalog: d.n.Store,
		Ledger: mcp.LogLedger{Log: d.n.Log, Store: d.n.Store}, Version: version})
	cl, err := mcp.Connect(ctx, srv)
	if err != nil {
		return nil, fmt.Errorf("connect the demo's client: %w", err)
	}
	defer cl.Close()
	s := &script{ctx: ctx, cl: cl, out: out}
	err = s.run()
	return s.calls, err
}

// Ledger returns the events of the ledger and the stats of the read
// models, read once the projections have applied every event returned,
// so that the two agree.
func (d *Workspace) Ledger(ctx context.Context) ([]events.Event, stats.Report, error) {
	last, err := d.n.CatchUp(ctx)
	if err != nil {
		return nil, stats.Report{}, err
	}
	var evs []events.Event
	if err := d.n.Log.Replay(ctx, 1, func(ev events.Event) error {
		if ev.Seq <= last {
			evs = append(evs, ev)
		}
		return nil
	}); err != nil {
		return nil, stats.Report{}, err
	}
	return evs, stats.OfStore(d.ws.ID(), d.n.Store), nil
}
