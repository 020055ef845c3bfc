package node

import (
	"context"

	"github.com/clumsies/clumsies/projections"
)

// SetChunkSize makes replies of the read service go in chunks of n bytes
// and returns a function that restores the default.
func SetChunkSize(n int) (restore func()) {
	chunkSize = n
	return func() { chunkSize = 0 }
}

// ScanRead returns how many content files the last publish scan of n
// opened and hashed.
func ScanRead(n *Node) int {
	n.scanIdx.mu.Lock()
	defer n.scanIdx.mu.Unlock()
	return n.scanIdx.read
}

// PlansSkipped returns how many publish plans of n found the tree and the
// catalog as the publish mark names them, and so scanned nothing.
func PlansSkipped(n *Node) int {
	n.scanIdx.mu.Lock()
	defer n.scanIdx.mu.Unlock()
	return n.scanIdx.skipped
}

// WithoutMethod makes the owner's service in this process answer the named
// method as an earlier version would (unknown method), and returns a
// function that restores it. Call it before any request is in flight.
func WithoutMethod(name string) (restore func()) {
	serve := service[name]
	delete(service, name)
	return func() { service[name] = serve }
}

// HoldProjector stops n's projector from reading until release is called
// (projhold.go).
func HoldProjector(ctx context.Context, n *Node) (release func(), err error) {
	return n.holdProjector(ctx)
}

// BulkPublish is the number of changes from which a publish applies its
// own events.
const BulkPublish = bulkPublish

// OwnerStore returns the read models of the owner in this process, nil
// when h does not own the workspace.
func OwnerStore(h *Handle) *projections.Store {
	h.mu.Lock()
	defer h.mu.Unlock()
	if o, ok := h.b.(*owner); ok {
		return o.n.Store
	}
	return nil
}
