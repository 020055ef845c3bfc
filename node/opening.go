package node

import (
	"context"
	"sync"

	"github.com/clumsies/clumsies/catalog"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections"
)

// Opening is a workspace being opened in the background, so that serve
// answers the MCP client's initialize at once (the ledger, the read
// models and the publish scan take tens to hundreds of milliseconds). Its
// reads and records wait until the workspace is open; if it could not be
// opened, every one of them fails as unavailable, with the reason. It
// serves mcp's Catalog and Ledger as a Handle does.
type Opening struct {
	ready chan struct{} // closed once h or err is set

	mu  sync.Mutex
	h   *Handle
	err error
}

// NewOpening returns a workspace being opened; Done says how it went.
func NewOpening() *Opening { return &Opening{ready: make(chan struct{})} }

// Done records the outcome of opening the workspace: its handle, or why
// it could not be opened. It is called once.
func (o *Opening) Done(h *Handle, err error) {
	o.mu.Lock()
	o.h, o.err = h, err
	o.mu.Unlock()
	close(o.ready)
}

// Ready is closed once Done was called.
func (o *Opening) Ready() <-chan struct{} { return o.ready }

// Result returns what Done recorded; call it once Ready is closed.
func (o *Opening) Result() (*Handle, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.h, o.err
}

// handle waits until the workspace is open and returns it.
func (o *Opening) handle(ctx context.Context) (*Handle, error) {
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

// View implements mcp.Catalog: Handle.View once open.
func (o *Opening) View(ctx context.Context, id string) (projections.Item, error) {
	h, err := o.handle(ctx)
	if err != nil {
		return projections.Item{}, err
	}
	return h.View(ctx, id)
}

// List implements mcp.Catalog: Handle.List once open.
func (o *Opening) List(ctx context.Context, f projections.Filter) ([]projections.Item, error) {
	h, err := o.handle(ctx)
	if err != nil {
		return nil, err
	}
	return h.List(ctx, f)
}

// DraftFacts implements mcp.Catalog: Handle.DraftFacts once open.
func (o *Opening) DraftFacts(ctx context.Context, q catalog.DraftQuery) (catalog.DraftFacts, error) {
	h, err := o.handle(ctx)
	if err != nil {
		return catalog.DraftFacts{}, err
	}
	return h.DraftFacts(ctx, q)
}

// Record implements mcp.Ledger: Handle.Record once open.
func (o *Opening) Record(ctx context.Context, ev events.Event) error {
	h, err := o.handle(ctx)
	if err != nil {
		return err
	}
	return h.Record(ctx, ev)
}

// RecordExpecting implements mcp.Ledger: Handle.RecordExpecting once open.
func (o *Opening) RecordExpecting(ctx context.Context, ev events.Event, exp events.Expectation) error {
	h, err := o.handle(ctx)
	if err != nil {
		return err
	}
	return h.RecordExpecting(ctx, ev, exp)
}
