package node

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
)

// An append from another process is acknowledged by the owner's server,
// which in the default durability (embeddednats.SyncGroup) does not fsync
// before it acknowledges: the appender then asks the owner to sync, and
// the owner's StreamSync serves all the processes' appends that arrive
// together with one fsync.

// syncReply is the owner's answer to a sync request.
type syncReply struct {
	// Group says that the owner makes acknowledged events durable on
	// request; false means it runs with SyncInterval and there is nothing
	// to wait for.
	Group bool `json:"group"`
	// Checked says that the owner checks its state folder before it
	// answers (see stateID), so that the appender asks on every append
	// even when there is nothing to wait for.
	Checked bool `json:"checked"`
}

// sync makes every event the owner's server acknowledged before the
// request durable, then checks that they went into the workspace's state
// folder: the answer to a sync is the owner's acknowledgement of the other
// processes' appends.
func (o *owner) sync(ctx context.Context, _ struct{}) (syncReply, error) {
	if o.n.Durable != nil {
		if err := o.n.Durable.Sync(ctx); err != nil {
			return syncReply{}, fmt.Errorf("sync the ledger: %w", err)
		}
	}
	if err := o.n.state.check(); err != nil {
		return syncReply{}, err
	}
	return syncReply{Group: o.n.Durable != nil, Checked: true}, nil
}

// remoteSync is the Syncer of a log opened on the owner's socket: it asks
// the owner to sync and check its state folder, until the owner says it
// does neither (an owner of an earlier version with SyncInterval).
type remoteSync struct {
	r    *remote
	skip atomic.Bool
}

// unknownMethod is the message of an owner asked for a method it does not
// serve.
func unknownMethod(name string) string { return fmt.Sprintf("unknown method %q", name) }

// Sync implements natsjs.Syncer.
func (s *remoteSync) Sync(ctx context.Context) error {
	if s.skip.Load() {
		return nil
	}
	resp, err := mSync.on(ctx, s.r, struct{}{})
	var re *RemoteError
	if errors.As(err, &re) && re.Kind == kindOther && re.Message == unknownMethod(mSync.name) {
		// An owner of an earlier version: its server fsyncs every
		// message before the ack (or runs with SyncInterval).
		s.skip.Store(true)
		return nil
	}
	if err != nil {
		return err
	}
	if !resp.Group && !resp.Checked {
		s.skip.Store(true)
	}
	return nil
}

// syncFailed is closed when the group commit has failed; nil (never ready)
// without one.
func (n *Node) syncFailed() <-chan struct{} {
	if n.Durable == nil {
		return nil
	}
	return n.Durable.Failed()
}

// SyncStats reports the group commit's work in this process: fsync rounds
// run and Sync calls served (its own appends and the other processes'). ok
// is false when this process does not own the workspace or its server
// fsyncs by itself (--sync interval, or an owner without group commit):
// then nothing here counts fsyncs.
func (h *Handle) SyncStats() (rounds, calls uint64, ok bool) {
	o, isOwner := h.ownerNow()
	if !isOwner || o.n.Durable == nil {
		return 0, 0, false
	}
	rounds, calls = o.n.Durable.Stats()
	return rounds, calls, true
}

// NATSRefused returns how many operations the owner's NATS server refused
// its clients (embeddednats.Server.Refused); ok is false when this
// process is not the owner.
func (h *Handle) NATSRefused() (n uint64, ok bool) {
	o, isOwner := h.ownerNow()
	if !isOwner {
		return 0, false
	}
	return o.n.NATS.Refused(), true
}

// ownerNow returns this process's owner backend, if it owns the
// workspace now.
func (h *Handle) ownerNow() (*owner, bool) {
	h.mu.Lock()
	b := h.b
	h.mu.Unlock()
	o, isOwner := b.(*owner)
	return o, isOwner
}
