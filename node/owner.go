package node

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/nats-io/nats.go"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections"
)

// owner is the backend of the process that owns the workspace: its Node,
// the read service on the Node's connection, and the socket that bridges
// the other processes to the embedded server.
type owner struct {
	n *Node

	// models is held shared by every read and record, and exclusively by
	// rebuild (which replaces the store) and close.
	models sync.RWMutex
	pub    sync.Mutex // one publish at a time, so two plans cannot overlap

	svcCtx    context.Context // ends the service's waits at close
	svcCancel context.CancelFunc
	handlers  sync.WaitGroup

	mu      sync.Mutex
	sub     *nats.Subscription
	br      *bridge
	closing bool
}

func newOwner(n *Node) *owner {
	ctx, cancel := context.WithCancel(context.Background())
	return &owner{n: n, svcCtx: ctx, svcCancel: cancel}
}

// serve starts the read service and then opens the socket, so that a
// process that can connect can also be answered. It does nothing if the
// owner already serves.
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
	path := SocketPath(o.n.WS.StateDir())
	ln, err := listenSocket(path)
	if err != nil {
		sub.Unsubscribe()
		return err
	}
	o.sub, o.br = sub, newBridge(ln, path, o.n.NATS.NATS(), o.n.NATS.InternalToken())
	return nil
}

// onRequest answers one request of the read service in its own goroutine:
// a wait for the projections must not hold up the reads behind it.
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
		method := msg.Subject[strings.LastIndexByte(msg.Subject, '.')+1:]
		v, err := o.dispatch(o.svcCtx, method, msg.Data)
		respond(o.n.Conn, msg.Reply, encodeReply(v, err))
	}()
}

func (o *owner) dispatch(ctx context.Context, method string, data []byte) (any, error) {
	var id idArgs
	switch method {
	case methodView, methodObject, methodDraft:
		if err := json.Unmarshal(data, &id); err != nil {
			return nil, fmt.Errorf("decode %s request: %w", method, err)
		}
	}
	switch method {
	case methodView:
		return o.view(ctx, id.ID)
	case methodObject:
		return o.object(ctx, id.ID)
	case methodDraft:
		return o.draft(ctx, id.ID)
	case methodList:
		var f projections.Filter
		if err := json.Unmarshal(data, &f); err != nil {
			return nil, fmt.Errorf("decode list request: %w", err)
		}
		return o.list(ctx, f)
	case methodPathID:
		var a pathArgs
		if err := json.Unmarshal(data, &a); err != nil {
			return nil, fmt.Errorf("decode pathid request: %w", err)
		}
		id, ok, err := o.objectIDByPath(ctx, a.NS, a.Path)
		return pathReply{ID: id, OK: ok}, err
	case methodWaitFor:
		var a seqArgs
		if err := json.Unmarshal(data, &a); err != nil {
			return nil, fmt.Errorf("decode waitfor request: %w", err)
		}
		return struct{}{}, o.waitFor(ctx, a.Seq)
	case methodStats:
		return o.stats(ctx)
	case methodPublish:
		return o.publish(ctx)
	case methodVerify:
		return o.verify(ctx)
	case methodRebuild:
		return o.rebuild(ctx, nil)
	}
	return nil, fmt.Errorf("unknown method %q", method)
}

// store returns the open read models; the caller holds models.
func (o *owner) store() (*projections.Store, error) {
	if o.n.Store == nil {
		return nil, fmt.Errorf("%w: the read models are not open", ErrProjector)
	}
	return o.n.Store, nil
}

// read runs fn on the read models, holding off a rebuild meanwhile.
func read[T any](o *owner, fn func(*projections.Store) (T, error)) (T, error) {
	o.models.RLock()
	defer o.models.RUnlock()
	s, err := o.store()
	if err != nil {
		var zero T
		return zero, err
	}
	return fn(s)
}

func (o *owner) view(_ context.Context, id string) (projections.Item, error) {
	return read(o, func(s *projections.Store) (projections.Item, error) { return s.View(id) })
}

func (o *owner) list(_ context.Context, f projections.Filter) ([]projections.Item, error) {
	return read(o, func(s *projections.Store) ([]projections.Item, error) { return s.List(f), nil })
}

func (o *owner) object(_ context.Context, id string) (projections.Object, error) {
	return read(o, func(s *projections.Store) (projections.Object, error) { return s.Object(id) })
}

func (o *owner) draft(_ context.Context, id string) (projections.Draft, error) {
	return read(o, func(s *projections.Store) (projections.Draft, error) { return s.Draft(id) })
}

func (o *owner) objectIDByPath(_ context.Context, ns projections.Namespace, path string) (string, bool, error) {
	r, err := read(o, func(s *projections.Store) (pathReply, error) {
		id, ok := s.ObjectIDByPath(ns, path)
		return pathReply{id, ok}, nil
	})
	return r.ID, r.OK, err
}

func (o *owner) stats(_ context.Context) (Stats, error) {
	return read(o, func(s *projections.Store) (Stats, error) { return StatsOf(s), nil })
}

func (o *owner) record(ctx context.Context, ev events.Event) error {
	o.models.RLock()
	defer o.models.RUnlock()
	return o.n.Record(ctx, ev)
}

func (o *owner) waitFor(ctx context.Context, seq uint64) error {
	o.models.RLock()
	defer o.models.RUnlock()
	return o.n.WaitApplied(ctx, seq)
}

func (o *owner) publish(ctx context.Context) ([]events.Event, error) {
	o.models.RLock()
	defer o.models.RUnlock()
	o.pub.Lock()
	defer o.pub.Unlock()
	return o.n.Publish(ctx)
}

func (o *owner) verify(ctx context.Context) (Report, error) {
	o.models.RLock()
	defer o.models.RUnlock()
	return o.n.Verify(ctx)
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
func (o *owner) lost() context.Context { return context.Background() }
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
	o.models.Lock()
	defer o.models.Unlock()
	return o.n.Close()
}
