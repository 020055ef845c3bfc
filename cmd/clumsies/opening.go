package main

import (
	"context"
	"sync"

	"github.com/clumsies/clumsies/catalog"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/mcp"
	"github.com/clumsies/clumsies/mcp/frame"
	"github.com/clumsies/clumsies/node"
	"github.com/clumsies/clumsies/projections"
	"github.com/clumsies/clumsies/workspace"
)

// opening is a workspace being opened in the background, so that serve
// answers the MCP client's initialize at once (the ledger, the read
// models and the publish scan take tens to hundreds of milliseconds). Its
// reads and records wait until the workspace is open; if it could not be
// opened, every one of them fails as unavailable, with the reason.
type opening struct {
	ready chan struct{} // closed once h or err is set

	mu  sync.Mutex
	h   *node.Handle
	err error
}

var (
	_ mcp.Catalog = (*opening)(nil)
	_ mcp.Ledger  = (*opening)(nil)
)

func newOpening() *opening { return &opening{ready: make(chan struct{})} }

// done records the outcome of opening the workspace.
func (o *opening) done(h *node.Handle, err error) {
	o.mu.Lock()
	o.h, o.err = h, err
	o.mu.Unlock()
	close(o.ready)
}

// handle waits until the workspace is open and returns it.
func (o *opening) handle(ctx context.Context) (*node.Handle, error) {
	select {
	case <-o.ready:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.err != nil {
		return nil, openFailed{o.err}
	}
	return o.h, nil
}

// openFailed is the error of every call when the workspace could not be
// opened: unavailable, with the reason (mcp shows both).
type openFailed struct{ err error }

func (e openFailed) Error() string     { return "open the workspace: " + e.err.Error() }
func (e openFailed) Unwrap() error     { return e.err }
func (e openFailed) Unavailable() bool { return true }
func (e openFailed) Reason() string    { return e.err.Error() }

// View implements mcp.Catalog.
func (o *opening) View(ctx context.Context, id string) (projections.Item, error) {
	h, err := o.handle(ctx)
	if err != nil {
		return projections.Item{}, err
	}
	return h.View(ctx, id)
}

// List implements mcp.Catalog.
func (o *opening) List(ctx context.Context, f projections.Filter) ([]projections.Item, error) {
	h, err := o.handle(ctx)
	if err != nil {
		return nil, err
	}
	return h.List(ctx, f)
}

// DraftFacts implements mcp.Catalog.
func (o *opening) DraftFacts(ctx context.Context, q catalog.DraftQuery) (catalog.DraftFacts, error) {
	h, err := o.handle(ctx)
	if err != nil {
		return catalog.DraftFacts{}, err
	}
	return h.DraftFacts(ctx, q)
}

// Record implements mcp.Ledger.
func (o *opening) Record(ctx context.Context, ev events.Event) error {
	h, err := o.handle(ctx)
	if err != nil {
		return err
	}
	return h.Record(ctx, ev)
}

// RecordExpecting implements mcp.Ledger.
func (o *opening) RecordExpecting(ctx context.Context, ev events.Event, exp events.Expectation) error {
	h, err := o.handle(ctx)
	if err != nil {
		return err
	}
	return h.RecordExpecting(ctx, ev, exp)
}

// earlyFrame reads the META_PROMPT from the content tree, for the
// instructions of an initialize that comes before the workspace is open.
func earlyFrame(ws *workspace.Workspace) func() (string, error) {
	return func() (string, error) { return frame.Read(ws.ContentRoot()) }
}
