package node

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/clumsies/clumsies/catalog"
	embeddednats "github.com/clumsies/clumsies/embedded-nats"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections"
	"github.com/clumsies/clumsies/workspace"
)

// Defaults of the Options that only Attach uses.
const (
	// DefaultRetryFor is how long a call keeps being retried after the
	// owner is lost.
	DefaultRetryFor = 10 * time.Second
	// DefaultAttachWait is how long Attach waits for a starting owner to
	// open its socket.
	DefaultAttachWait = 30 * time.Second
	// takeoverPoll is how often a process without a backend tries to take
	// the lock or to reach the new owner.
	takeoverPoll = 10 * time.Millisecond
	// stepDownPause is how long a process whose owner stepped down on a
	// failure waits before it tries to own the workspace again.
	stepDownPause = 200 * time.Millisecond
)

// ErrUnavailable means the workspace had no reachable owner for longer
// than Options.RetryFor; the call was not confirmed. It has an
// Unavailable() method, which the MCP layer looks for to answer
// "unavailable" (retryable) instead of "internal".
var ErrUnavailable error = unavailableError{}

type unavailableError struct{}

func (unavailableError) Error() string     { return "node: workspace owner unavailable" }
func (unavailableError) Unavailable() bool { return true }

// backend is what a Handle does its work through: the owner itself, or a
// connection to the owner. Reads and the owner's other services are the
// methods of methods.go; appends go to the stream from either side
// (record.go).
type backend interface {
	log() events.Log
	// lost ends when the backend can no longer be used (the owner went,
	// or this process's owner stepped down).
	lost() context.Context
	isOwner() bool
	close() error
}

var (
	_ backend = (*owner)(nil)
	_ backend = (*remote)(nil)
)

// Handle is one process's way into a workspace, whichever process owns
// it. Attach makes the process the owner if it can take the workspace's
// lock (it then runs the embedded server, the projections and a read
// service, and lets the other processes in through a unix socket), and
// connects it to the owner through that socket otherwise.
//
// When the owner goes away, the Handle takes the lock itself or connects
// to whoever took it, within tens of milliseconds, and a call in flight is
// tried again on the new backend: a Record with the same event, whose id
// JetStream deduplicates, so it is stored once. A call that finds no owner
// for Options.RetryFor fails with ErrUnavailable.
//
// Handle implements the MCP layer's Catalog and Ledger, and events.Log.
type Handle struct {
	ws       *workspace.Workspace
	opts     Options
	logger   *slog.Logger
	retryFor time.Duration

	ctx    context.Context // ends at Close
	cancel context.CancelFunc
	done   chan struct{} // closed when supervise returns

	// settling counts the appends settled in the background (settle.go);
	// settleCtx ends them.
	settling     sync.WaitGroup
	settleCtx    context.Context
	settleCancel context.CancelFunc

	mu      sync.Mutex
	b       backend       // nil while looking for a new owner
	changed chan struct{} // closed and replaced when b changes
	closed  bool
	gone    error // set when the workspace is gone (workspace.ErrGone): no backend will come
	changes int   // owner changes seen
}

var _ events.Log = (*Handle)(nil)

// Attach opens ws as its owner or, if another process owns it, as that
// owner's client; see Handle. While the owner is starting (it has the
// lock but no socket yet) Attach waits up to Options.AttachWait.
//
// It fails with the owner's errors (a locked or broken state folder,
// unreadable read models: see Open and StartProjections) when this process
// becomes the owner, and with an error wrapping embeddednats.ErrLocked when
// the owner never answers.
func Attach(ctx context.Context, ws *workspace.Workspace, opts Options) (*Handle, error) {
	h := &Handle{ws: ws, opts: opts, logger: opts.logger(), retryFor: opts.RetryFor, done: make(chan struct{}), changed: make(chan struct{})}
	if h.retryFor <= 0 {
		h.retryFor = DefaultRetryFor
	}
	wait := opts.AttachWait
	if wait <= 0 {
		wait = DefaultAttachWait
	}
	deadline := time.Now().Add(wait)
	var b backend
	for {
		var err error
		b, err = h.connect(ctx, true, opts.Repair)
		if err == nil {
			break
		}
		if !errors.Is(err, errNotReady) {
			return nil, err
		}
		if time.Now().After(deadline) {
			pid, _, _ := embeddednats.Owner(ws.StateDir())
			return nil, fmt.Errorf("%w: the owner (pid %d) did not answer within %s: %v", embeddednats.ErrLocked, pid, wait, err)
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(takeoverPoll):
		}
	}
	if b.isOwner() {
		h.logger.Info("this process owns the workspace", "socket", SocketPath(ws.StateDir()))
	} else {
		pid, _, _ := embeddednats.Owner(ws.StateDir())
		h.logger.Info("working through the workspace owner", "owner", pid)
	}
	if !b.isOwner() && opts.NATSListen != "" {
		pid, _, _ := embeddednats.Owner(ws.StateDir())
		h.logger.Warn("another process owns the workspace: its NATS listener settings apply; this process opens its own listener if it takes over",
			"owner", pid, "nats-listen", opts.NATSListen)
	}
	h.ctx, h.cancel = context.WithCancel(context.Background())
	h.settleCtx, h.settleCancel = context.WithCancel(context.Background())
	h.b = b
	go h.supervise()
	return h, nil
}

// connect makes this process the owner if the lock is free, else connects
// to the owner. Without repair the owner opens the read models, catches
// them up and starts serving; with repair it leaves them to Rebuild. A
// takeover (not initial) that cannot open the optional NATS listener
// takes over without it.
func (h *Handle) connect(ctx context.Context, initial, repair bool) (backend, error) {
	if !initial {
		// A workspace removed (and perhaps made again) while this process
		// ran: taking its state folder again would re-create it under the
		// old id, beside the new workspace.
		if err := h.ws.CheckCurrent(); err != nil {
			return nil, err
		}
	}
	if err := checkStateWorkspace(h.ws); err != nil {
		return nil, err
	}
	// A probe first: trying the lock itself waits a little when it is taken.
	if _, locked, err := embeddednats.Owner(h.ws.StateDir()); err != nil || !locked {
		o, err := h.becomeOwner(ctx, h.opts, repair)
		if err != nil && !initial && h.opts.NATSListen != "" && !errors.Is(err, embeddednats.ErrLocked) {
			// Taking over matters more than the optional listener (its
			// address may be taken): carry on without it.
			h.logger.Error("cannot open the NATS listener; taking over without it", "nats-listen", h.opts.NATSListen, "err", err)
			opts := h.opts
			opts.NATSListen, opts.NATSToken = "", ""
			o, err = h.becomeOwner(ctx, opts, repair)
		}
		if err == nil {
			return o, nil
		}
		if !errors.Is(err, embeddednats.ErrLocked) {
			return nil, err
		}
	}
	return dialRemote(ctx, h.ws.ID(), h.ws.StateDir(), h.logger)
}

func (h *Handle) becomeOwner(ctx context.Context, opts Options, repair bool) (*owner, error) {
	n, err := Open(ctx, h.ws, opts)
	if err != nil {
		return nil, err
	}
	o := newOwner(n)
	o.start()
	if repair {
		return o, nil
	}
	err = n.StartProjections(ctx)
	if err == nil {
		_, err = n.CatchUp(ctx)
	}
	if err == nil {
		err = o.serve()
	}
	if err != nil {
		return nil, errors.Join(err, o.close())
	}
	if opts.WatchContent != nil {
		o.watchContent(opts.WatchContent)
	}
	return o, nil
}

// supervise replaces the backend when it is lost, until Close.
func (h *Handle) supervise() {
	defer close(h.done)
	for {
		h.mu.Lock()
		b := h.b
		h.mu.Unlock()
		select {
		case <-b.lost().Done():
		case <-h.ctx.Done():
			return
		}
		h.set(nil)
		b.close()
		if cause := context.Cause(b.lost()); b.isOwner() && cause != nil && !errors.Is(cause, context.Canceled) {
			// This process's owner stepped down on a failure: give another
			// process the first chance to take over, and a fault that
			// persists a pause between attempts.
			select {
			case <-h.ctx.Done():
				return
			case <-time.After(stepDownPause):
			}
		}
		start := time.Now()
		nb := h.reconnect()
		if nb == nil {
			return
		}
		h.logger.Info("the workspace owner changed", "owner", nb.isOwner(), "took", time.Since(start))
		h.set(nb)
	}
}

// reconnect tries every takeoverPoll to take the lock or reach the new
// owner, until it succeeds or the Handle is closed (nil).
func (h *Handle) reconnect() backend {
	var logged time.Time
	for {
		b, err := h.connect(h.ctx, false, false)
		if err == nil {
			if h.ctx.Err() != nil {
				b.close()
				return nil
			}
			return b
		}
		if errors.Is(err, workspace.ErrGone) {
			h.logger.Error("the workspace is gone; this process lets it go", "err", err)
			h.mu.Lock()
			h.gone = err
			close(h.changed)
			h.changed = make(chan struct{})
			h.mu.Unlock()
			return nil
		}
		pause := takeoverPoll
		if !errors.Is(err, errNotReady) {
			// Taking over failed (unreadable read models, say): the next
			// attempt, here or in another process, is unlikely to fare
			// better at once.
			pause = 250 * time.Millisecond
			if h.ctx.Err() == nil && time.Since(logged) > 5*time.Second {
				logged = time.Now()
				h.logger.Error("cannot take over the workspace", "err", err)
			}
		}
		select {
		case <-h.ctx.Done():
			return nil
		case <-time.After(pause):
		}
	}
}

func (h *Handle) set(b backend) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed && b != nil {
		b.close()
		return
	}
	if b != nil && h.b == nil {
		h.changes++
	}
	h.b = b
	close(h.changed)
	h.changed = make(chan struct{})
}

// current returns the backend, waiting for one until giveUp (zero:
// RetryFor from now) or ctx ends.
func (h *Handle) current(ctx context.Context, giveUp time.Time) (backend, error) {
	for {
		h.mu.Lock()
		b, changed, closed, gone := h.b, h.changed, h.closed, h.gone
		h.mu.Unlock()
		switch {
		case closed:
			return nil, fmt.Errorf("workspace handle: %w", net.ErrClosed)
		case gone != nil:
			return nil, gone
		case b != nil:
			return b, nil
		}
		if err := h.noSpace(); err != nil {
			// No owner can start on a full disk: say so now, not after
			// RetryFor.
			return nil, err
		}
		if giveUp.IsZero() {
			// No owner right now: a call waits for the next one as long
			// as it would retry a failed attempt, not without end.
			giveUp = time.Now().Add(h.retryFor)
		}
		if err := wait(ctx, changed, giveUp); err != nil {
			return nil, err
		}
	}
}

// wait waits until changed is closed, ctx ends (ctx.Err()) or giveUp
// passes (ErrUnavailable; a zero giveUp never does).
func wait(ctx context.Context, changed <-chan struct{}, giveUp time.Time) error {
	var timeout <-chan time.Time
	if !giveUp.IsZero() {
		t := time.NewTimer(time.Until(giveUp))
		defer t.Stop()
		timeout = t.C
	}
	select {
	case <-changed:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-timeout:
		return ErrUnavailable
	}
}

// retry counts the failures of one call.
type retry struct {
	h      *Handle
	giveUp time.Time
}

// again reports whether an attempt on b that failed with err is to be
// made again, after waiting a little if b is still the backend. It is
// false for success, for errors that another attempt would not change,
// and once RetryFor has passed since the first failure.
func (r *retry) again(ctx context.Context, b backend, err error) bool {
	if err == nil || ctx.Err() != nil || !retryable(b, err) || r.h.noSpace() != nil {
		return false
	}
	if r.giveUp.IsZero() {
		r.giveUp = time.Now().Add(r.h.retryFor)
		r.h.logger.Debug("retrying a call", "err", err)
	}
	if time.Now().After(r.giveUp) {
		return false
	}
	if b.lost().Err() == nil {
		// Still our backend (an owner closing, a blip): pause, then retry.
		select {
		case <-ctx.Done():
		case <-b.lost().Done():
		case <-time.After(takeoverPoll):
		}
	}
	return true
}

// fnError is the error of a caller's function (Replay, Subscribe), which
// is never retried.
type fnError struct{ err error }

func (e *fnError) Error() string { return e.err.Error() }
func (e *fnError) Unwrap() error { return e.err }

// retryable reports whether err, of an attempt on b, may go away on
// another attempt.
func retryable(b backend, err error) bool {
	var fe *fnError
	switch {
	case errors.As(err, &fe):
		return false
	case b.lost().Err() != nil:
		return true
	}
	return errors.Is(err, ErrUnavailable) ||
		errors.Is(err, ErrProjector) ||
		errors.Is(err, nats.ErrNoResponders) ||
		errors.Is(err, nats.ErrConnectionClosed) ||
		errors.Is(err, nats.ErrDisconnected) ||
		errors.Is(err, jetstream.ErrNoStreamResponse)
}

// do runs op on the current backend, and again on the next one while the
// failure is the owner's going away, for up to RetryFor after the first
// failure. An attempt on a backend that is lost is cut short at once.
func do[T any](h *Handle, ctx context.Context, op func(context.Context, backend) (T, error)) (T, error) {
	return retried(h, ctx, false, op)
}

// retried is do; with inMemory set, op is a read of the owner's memory
// (the read models, the team's catalog), which waits on nothing that
// its context could end, so that on the owner it runs under ctx itself:
// a context bound to the owner's loss would be two allocations and two
// registrations per call (a memload's view) for nothing.
func retried[T any](h *Handle, ctx context.Context, inMemory bool, op func(context.Context, backend) (T, error)) (T, error) {
	r := retry{h: h}
	for {
		b, err := h.current(ctx, r.giveUp)
		if err != nil {
			var zero T
			var ns noSpaceError
			if errors.Is(err, ErrUnavailable) && !errors.As(err, &ns) {
				err = fmt.Errorf("%w: no owner answered for %s", ErrUnavailable, h.retryFor)
			}
			return zero, err
		}
		var v T
		if inMemory && b.isOwner() {
			v, err = op(ctx, b)
		} else {
			v, err = attempt(ctx, b, op)
		}
		if err == nil || !r.again(ctx, b, err) {
			if err != nil {
				if ns := h.noSpace(); ns != nil {
					err = fmt.Errorf("%w: %w", ns, err)
				} else if !r.giveUp.IsZero() && time.Now().After(r.giveUp) {
					err = fmt.Errorf("%w: %w", ErrUnavailable, err)
				}
			}
			return v, err
		}
	}
}

// attempt runs op on b with a context that ends when b is lost.
func attempt[T any](ctx context.Context, b backend, op func(context.Context, backend) (T, error)) (T, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := context.AfterFunc(b.lost(), cancel)
	defer stop()
	return op(ctx, b)
}

// Workspace returns the workspace.
func (h *Handle) Workspace() *workspace.Workspace { return h.ws }

// IsOwner reports whether this process owns the workspace right now.
func (h *Handle) IsOwner() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.b != nil && h.b.isOwner()
}

// OwnerChanges returns how many times the Handle has had to find a new
// owner since Attach.
func (h *Handle) OwnerChanges() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.changes
}

// View implements the MCP layer's Catalog: projections.Store.View, read
// by the owner.
func (h *Handle) View(ctx context.Context, id string) (projections.Item, error) {
	return mView.call(ctx, h, id)
}

// List implements the MCP layer's Catalog: projections.Store.List, read
// by the owner.
func (h *Handle) List(ctx context.Context, f projections.Filter) ([]projections.Item, error) {
	return mList.call(ctx, h, f)
}

// DraftFacts implements the MCP layer's Catalog:
// projections.Store.DraftFacts, read by the owner.
func (h *Handle) DraftFacts(ctx context.Context, q catalog.DraftQuery) (catalog.DraftFacts, error) {
	return mDraftFacts.call(ctx, h, q)
}

// Append implements events.Log, retried like Record.
func (h *Handle) Append(ctx context.Context, ev events.Event) (uint64, error) {
	return do(h, ctx, func(ctx context.Context, b backend) (uint64, error) { return b.log().Append(ctx, ev) })
}

// AppendExpecting implements events.Log, retried like RecordExpecting.
func (h *Handle) AppendExpecting(ctx context.Context, ev events.Event, exp events.Expectation) (uint64, error) {
	return do(h, ctx, func(ctx context.Context, b backend) (uint64, error) { return b.log().AppendExpecting(ctx, ev, exp) })
}

// LastSeq implements events.Log.
func (h *Handle) LastSeq(ctx context.Context) (uint64, error) {
	return do(h, ctx, func(ctx context.Context, b backend) (uint64, error) { return b.log().LastSeq(ctx) })
}

// Replay implements events.Log. Across an owner change it goes on after
// the last event delivered.
func (h *Handle) Replay(ctx context.Context, from uint64, fn func(events.Event) error) error {
	return h.read(ctx, from, fn, events.Log.Replay)
}

// Subscribe implements events.Log. Across an owner change it goes on after
// the last event delivered, so fn sees every event once, in order.
func (h *Handle) Subscribe(ctx context.Context, from uint64, fn func(events.Event) error) error {
	return h.read(ctx, from, fn, events.Log.Subscribe)
}

func (h *Handle) read(ctx context.Context, from uint64, fn func(events.Event) error,
	method func(events.Log, context.Context, uint64, func(events.Event) error) error) error {
	next := max(from, 1)
	deliver := func(ev events.Event) error {
		if ev.Seq < next {
			return nil
		}
		if err := fn(ev); err != nil {
			return &fnError{err}
		}
		next = ev.Seq + 1
		return nil
	}
	for {
		start := next
		_, err := do(h, ctx, func(ctx context.Context, b backend) (struct{}, error) {
			return struct{}{}, method(b.log(), ctx, next, deliver)
		})
		var fe *fnError
		if errors.As(err, &fe) {
			return fe.err
		}
		if err == nil || next == start || ctx.Err() != nil {
			return err
		}
		// Progress was made before the failure: a fresh retry budget.
	}
}

// Stats returns the usage, tool metrics and sessions of the read models,
// once they have applied every event the stream held when it was called.
func (h *Handle) Stats(ctx context.Context) (Stats, error) {
	return mStats.call(ctx, h, struct{}{})
}

// CatchUp waits until the owner's read models have applied every event
// the stream held when it was called, and returns the sequence of the
// last one. Commands that print read models call it first.
func (h *Handle) CatchUp(ctx context.Context) (uint64, error) {
	return mCatchUp.call(ctx, h, struct{}{})
}

// Publish brings the manifest in line with the content tree (see
// Node.Publish); the owner does it, one publish at a time.
func (h *Handle) Publish(ctx context.Context) (Published, error) {
	p, err := mPublish.call(ctx, h, struct{}{})
	var re *RemoteError
	if errors.As(err, &re) && re.Kind == kindOther && re.Message == unknownMethod(mPublish.name) {
		return p, fmt.Errorf("publish: the process that owns the workspace runs an earlier version of clumsies; restart it (or stop it and publish again): %w", err)
	}
	return p, err
}

// Verify checks the owner's read models and the content (see Node.Verify).
func (h *Handle) Verify(ctx context.Context) (Report, error) {
	return mVerify.call(ctx, h, struct{}{})
}

// Rebuild has the owner rebuild its read models (see Node.Rebuild), every
// read waiting meanwhile. progress is called only when this process is
// the owner.
func (h *Handle) Rebuild(ctx context.Context, progress func(done, total uint64)) (Rebuilt, error) {
	return do(h, ctx, func(ctx context.Context, b backend) (Rebuilt, error) {
		if o, ok := b.(*owner); ok {
			return o.rebuild(ctx, progress)
		}
		return mRebuild.on(ctx, b, struct{}{})
	})
}

// Done is closed when the Handle stops following the workspace: after
// Close, or when the workspace is gone (Err).
func (h *Handle) Done() <-chan struct{} { return h.done }

// Err returns an error wrapping workspace.ErrGone once the workspace this
// Handle opened is gone (its config.toml was removed or names another
// workspace id when the Handle looked for a new owner), and nil
// otherwise. A gone Handle fails every call with it.
func (h *Handle) Err() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.gone
}

// Close lets go of the workspace. It first waits a while for the appends
// being settled in the background (settle.go). An owner stops serving at once (the
// other processes take over without waiting for it), closes the store
// and releases the lock. A second Close returns an error wrapping
// net.ErrClosed.
func (h *Handle) Close() error {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return fmt.Errorf("close workspace handle: %w", net.ErrClosed)
	}
	h.mu.Unlock()
	h.waitSettling()
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return fmt.Errorf("close workspace handle: %w", net.ErrClosed)
	}
	h.closed = true
	close(h.changed)
	h.changed = make(chan struct{})
	h.mu.Unlock()
	h.cancel()
	<-h.done
	h.mu.Lock()
	b := h.b
	h.b = nil
	h.mu.Unlock()
	if b == nil {
		return nil
	}
	return b.close()
}

func (o Options) logger() *slog.Logger {
	if o.Logger == nil {
		return slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return o.Logger
}
