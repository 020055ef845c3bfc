package node

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"golang.org/x/sync/errgroup"

	"github.com/clumsies/clumsies/catalog"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections"
)

// owner is the backend of the process that owns the workspace: its Node,
// the service (the method table of methods.go) on the Node's connection,
// and the socket that bridges the other processes to the embedded server.
type owner struct {
	n *Node

	// models is held shared by every read and record, and exclusively by
	// rebuild (which replaces the store) and close.
	models sync.RWMutex
	pub    sync.Mutex // one publish at a time, so two plans cannot overlap

	svcCtx    context.Context // ends the service's waits and the lifecycle at close
	svcCancel context.CancelFunc
	handlers  sync.WaitGroup

	// gone ends when the owner steps down: its lifecycle failed (the
	// projector stopped), so that the Handle closes it and the workspace
	// gets a fresh owner, in this process or another.
	gone     context.Context
	stepDown context.CancelCauseFunc
	lifeDone chan struct{}

	mu      sync.Mutex
	sub     *nats.Subscription
	br      *bridge
	closing bool

	// trees watch working trees for the hooks' checks (treewatch.go).
	trees trees
	// checkCache holds the rules' parsed checks (checks.go).
	checkCache checkCache
}

func newOwner(n *Node) *owner {
	ctx, cancel := context.WithCancel(context.Background())
	gone, stepDown := context.WithCancelCause(context.Background())
	return &owner{n: n, svcCtx: ctx, svcCancel: cancel, gone: gone, stepDown: stepDown}
}

// start runs the owner's lifecycle in the background until close; if it
// fails, the owner steps down.
func (o *owner) start() {
	o.lifeDone = make(chan struct{})
	go func() {
		defer close(o.lifeDone)
		for {
			err := o.run(o.svcCtx)
			if err == nil || o.svcCtx.Err() != nil {
				return
			}
			if errors.Is(err, projections.ErrCorrupt) {
				// Damaged read models would be opened again as they are by
				// the next owner: rebuild them from the ledger here.
				o.n.logger.Error("the read models are damaged; rebuilding them from the ledger", "err", err)
				if _, rerr := o.rebuild(o.svcCtx, nil); rerr == nil {
					o.n.logger.Warn("rebuilt the damaged read models")
					continue
				} else {
					err = errors.Join(err, rerr)
				}
			}
			o.n.logger.Error("the workspace owner steps down: reads and catalog changes answer unavailable until a new owner has caught up", "err", err)
			o.stepDown(err)
			return
		}
	}()
}

// run is the owner's lifecycle: its long-lived parts under one errgroup.
// It returns nil when ctx ends, and the first part's error otherwise.
// The parts: the watch on the projector, which can fail on its own (a
// projector that stops leaves the read models behind the log, and reads
// must not serve them as current), and the checkpoints of the ledger's
// hash chain, and the watch on the state folder (stateid.go).
func (o *owner) run(ctx context.Context) error {
	g, ctx := errgroup.WithContext(ctx)
	g.Go(func() error { return o.n.checkpoints(ctx, o.checkpoint) })
	g.Go(func() error {
		select {
		case err := <-o.n.projectorFailed():
			return fmt.Errorf("%w: %w", ErrProjector, err)
		case <-ctx.Done():
			return nil
		}
	})
	g.Go(func() error { o.keepSocket(ctx); return nil })
	g.Go(func() error { return o.watchJetStream(ctx) })
	g.Go(func() error { return o.watchState(ctx) })
	return g.Wait()
}

// errJetStreamOff means the embedded server has shut JetStream down.
var errJetStreamOff = errors.New("JetStream stopped in the embedded server (out of disk space or file descriptors?)")

// watchJetStream fails when the embedded server's store fails a write or
// JetStream shuts down: nats-server then fails every later append, even
// once the cause is gone, until it starts again. The owner then steps down; the
// next owner starts a fresh server, which works again once the cause is
// gone (space freed), with no restart by hand.
func (o *owner) watchJetStream(ctx context.Context) error {
	t := time.NewTicker(socketCheck)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-o.n.NATS.WriteFailed():
			return errStoreWrite
		case <-o.n.syncFailed():
			return errStoreSync
		case <-t.C:
		}
		if ns := o.n.NATS.NATS(); ns != nil && !ns.JetStreamEnabled() {
			return errJetStreamOff
		}
	}
}

// errStoreWrite means the JetStream store failed a write (a full disk, an
// I/O error); the stream refuses writes until the server starts again.
var errStoreWrite = errors.New("the JetStream store failed a write (disk full or I/O error?); restarting the embedded server")

// errStoreSync means an fsync of the ledger failed: the events it was to
// make durable may be lost, and only a fresh server, reading the store
// back, knows what it holds.
var errStoreSync = errors.New("an fsync of the ledger failed (I/O error?); restarting the embedded server")

// socketCheck is how often the owner checks that its socket file is still
// the one it listens on, and that JetStream still runs.
const socketCheck = time.Second

// keepSocket binds the socket again when its file is removed or replaced
// while the owner runs (a cleanup of the state folder, a careless rm):
// otherwise no new process could reach the owner until it exits.
func (o *owner) keepSocket(ctx context.Context) {
	t := time.NewTicker(socketCheck)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		o.mu.Lock()
		br := o.br
		o.mu.Unlock()
		if br == nil || br.intact() {
			continue
		}
		if o.n.state.check() != nil {
			// The whole state folder went: a socket bound again would be
			// in another owner's folder. The owner steps down instead.
			continue
		}
		if err := br.relisten(); err != nil {
			o.n.logger.Error("the owner's socket file is gone and cannot be bound again; other processes cannot reach this one", "path", br.boundPath(), "err", err)
			continue
		}
		o.n.logger.Warn("the owner's socket file was removed or replaced; bound it again", "path", br.boundPath())
	}
}

// serve starts the service and then opens the socket, so that a process
// that can connect can also be answered. It does nothing if the owner
// already serves.
func (o *owner) serve() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.br != nil || o.closing {
		return nil
	}
	nc := o.n.Conn
	sub, err := nc.Subscribe(rpcSubject(o.n.WS.ID(), "*"), o.onRequest)
	if err == nil {
		sub.SetPendingLimits(-1, -1)
		err = nc.Flush()
	}
	if err != nil {
		return fmt.Errorf("start the read service: %w", err)
	}
	stateDir := o.n.WS.StateDir()
	path, err := ownSocketPath(stateDir)
	var ln *net.UnixListener
	if err == nil {
		ln, err = listenSocket(path, isLong(stateDir))
	}
	if err != nil {
		sub.Unsubscribe()
		return err
	}
	o.sub, o.br = sub, newBridge(ln, stateDir, path, o.n.NATS.NATS(), o.n.NATS.InternalToken())
	return nil
}

// onRequest answers one request in its own goroutine: a wait for the
// projections must not hold up the reads behind it.
func (o *owner) onRequest(msg *nats.Msg) {
	o.mu.Lock()
	if o.closing {
		o.mu.Unlock()
		respond(o.n.Conn, msg.Reply, encodeReply(nil, ErrUnavailable))
		return
	}
	o.handlers.Add(1)
	o.mu.Unlock()
	go func() {
		defer o.handlers.Done()
		name := msg.Subject[strings.LastIndexByte(msg.Subject, '.')+1:]
		serve, ok := service[name]
		if !ok {
			respond(o.n.Conn, msg.Reply, encodeReply(nil, errors.New(unknownMethod(name))))
			return
		}
		v, err := serve(o, o.svcCtx, msg.Data)
		respond(o.n.Conn, msg.Reply, encodeReply(v, err))
	}()
}

// read runs fn on the read models, holding off a rebuild meanwhile. It
// fails with ErrProjector when the projector has stopped (the read models
// are behind the log and must not be served as current) and when they
// turn out damaged (the owner rebuilds them).
func read[T any](o *owner, fn func(*projections.Store) (T, error)) (T, error) {
	o.models.RLock()
	defer o.models.RUnlock()
	var zero T
	if err := o.n.projectorErr(); err != nil {
		return zero, err
	}
	if o.n.Store == nil {
		return zero, fmt.Errorf("%w: the read models are not open", ErrProjector)
	}
	v, err := fn(o.n.Store)
	if errors.Is(err, projections.ErrCorrupt) {
		// The owner is rebuilding them (see start): a retry soon succeeds.
		err = fmt.Errorf("%w: %w", ErrProjector, err)
	}
	return v, err
}

func (o *owner) view(ctx context.Context, id string) (projections.Item, error) {
	return read(o, func(s *projections.Store) (projections.Item, error) {
		if it, ok, err := o.n.overlay().View(ctx, id, s); ok || err != nil {
			return it, err
		}
		it, err := s.View(ctx, id)
		if err == nil {
			o.n.overlay().Shadow(&it)
		}
		return it, err
	})
}

func (o *owner) list(ctx context.Context, f projections.Filter) ([]projections.Item, error) {
	return read(o, func(s *projections.Store) ([]projections.Item, error) {
		items, err := s.List(ctx, f)
		if err != nil {
			return nil, err
		}
		return o.n.overlay().List(ctx, items, f, s)
	})
}

func (o *owner) draftFacts(ctx context.Context, q catalog.DraftQuery) (catalog.DraftFacts, error) {
	f, err := read(o, func(s *projections.Store) (catalog.DraftFacts, error) { return s.DraftFacts(ctx, q) })
	if err == nil {
		o.n.overlay().Facts(&f, q)
	}
	return f, err
}

// stats reads the statistics once the projections have applied every
// event the stream held when it was asked.
func (o *owner) stats(ctx context.Context, _ struct{}) (Stats, error) {
	if _, err := o.catchUp(ctx, struct{}{}); err != nil {
		return Stats{}, err
	}
	return read(o, func(s *projections.Store) (Stats, error) {
		st := StatsOf(s)
		return st, teamUsage(ctx, o.n.overlay(), s, st.Usage)
	})
}

func (o *owner) waitFor(ctx context.Context, seq uint64) (struct{}, error) {
	o.models.RLock()
	defer o.models.RUnlock()
	return struct{}{}, o.n.WaitApplied(ctx, seq)
}

// catchUp waits until the projections have applied every event the
// stream held when it was called, and returns that sequence.
func (o *owner) catchUp(ctx context.Context, _ struct{}) (uint64, error) {
	o.models.RLock()
	defer o.models.RUnlock()
	return o.n.CatchUp(ctx)
}

func (o *owner) publish(ctx context.Context, _ struct{}) (Published, error) {
	o.models.RLock()
	defer o.models.RUnlock()
	o.pub.Lock()
	defer o.pub.Unlock()
	return o.n.Publish(ctx)
}

// checkpoint appends a ledger checkpoint (Node.Checkpoint), holding off a
// rebuild meanwhile.
func (o *owner) checkpoint(ctx context.Context) (bool, error) {
	o.models.RLock()
	defer o.models.RUnlock()
	return o.n.Checkpoint(ctx)
}

func (o *owner) verify(ctx context.Context, _ struct{}) (Report, error) {
	o.models.RLock()
	defer o.models.RUnlock()
	return o.n.Verify(ctx)
}

// rebuildRemote is rebuild for another process: no progress reports.
func (o *owner) rebuildRemote(ctx context.Context, _ struct{}) (Rebuilt, error) {
	return o.rebuild(ctx, nil)
}

// rebuild rebuilds the read models with every read held off, and then
// serves the other processes if the owner did not yet (Options.Repair).
func (o *owner) rebuild(ctx context.Context, progress func(done, total uint64)) (Rebuilt, error) {
	o.models.Lock()
	digest, err := o.n.Rebuild(ctx, progress)
	var r Rebuilt
	if o.n.Store != nil {
		r = Rebuilt{Events: o.n.Store.Checkpoint(), Digest: digest}
	}
	o.models.Unlock()
	if err != nil {
		return r, err
	}
	return r, o.serve()
}

func (o *owner) log() events.Log       { return o.n.Log }
func (o *owner) lost() context.Context { return o.gone }
func (o *owner) isOwner() bool         { return true }

// close stops serving first (the other processes see their connections
// drop at once and one of them takes over as soon as the lock is free),
// then closes the Node, which releases the lock. It does not wait for the
// other processes.
func (o *owner) close() error {
	o.mu.Lock()
	o.closing = true
	br, sub := o.br, o.sub
	o.mu.Unlock()
	if br != nil {
		br.close()
	}
	if sub != nil {
		sub.Unsubscribe()
	}
	o.svcCancel()
	o.handlers.Wait()
	o.closeTrees()
	if o.lifeDone != nil {
		<-o.lifeDone
	}
	o.stepDown(nil)
	if o.n.every > 0 {
		// The other processes are cut off: this checkpoint covers the
		// whole ledger as it is left.
		ctx, cancel := context.WithTimeout(context.Background(), closeCheckpointTimeout)
		if _, err := o.checkpoint(ctx); err != nil {
			o.n.logger.Warn("no ledger checkpoint at shutdown", "err", err)
		}
		cancel()
	}
	o.models.Lock()
	defer o.models.Unlock()
	return o.n.Close()
}
