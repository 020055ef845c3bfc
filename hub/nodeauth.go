package hub

import (
	"fmt"
	"time"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// NodeStatus returns what the hub knows about node id.
func (h *Hub) NodeStatus(id string) (hubwire.NodeStatus, error) {
	n, ok := h.reg.node(id)
	if !ok {
		return hubwire.NodeStatus{}, fmt.Errorf("%w %s", ErrUnknownNode, id)
	}
	seq, err := h.proj.nodeSeq(id)
	if err != nil {
		return hubwire.NodeStatus{}, fmt.Errorf("read the status of %s: %w", id, err)
	}
	return hubwire.NodeStatus{Node: n, Link: h.Link(id), HubSeq: seq}, nil
}

// NodeChain returns the hub's chain of node id's ledger and the check of
// its checkpoints, with the digest through seq at when at > 0.
func (h *Hub) NodeChain(id string, at uint64) (hubwire.NodeChain, error) {
	n, ok := h.reg.node(id)
	if !ok {
		return hubwire.NodeChain{}, fmt.Errorf("%w %s", ErrUnknownNode, id)
	}
	c, err := h.proj.nodeChain(n, at)
	if err != nil {
		return hubwire.NodeChain{}, fmt.Errorf("read the chain of %s: %w", id, err)
	}
	return c, nil
}

// verifyNode checks an Authorization header signed by node id, which
// must be active.
func (h *Hub) verifyNode(id, header string, now time.Time) bool {
	n, ok := h.reg.node(id)
	return ok && n.Active() && hubwire.VerifyNode(id, n.PublicKey, header, now)
}
