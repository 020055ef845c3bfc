package hub

import (
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nkeys"
)

// nodeAuthSkew bounds how far a node's signed timestamp may be from the
// hub's clock.
const nodeAuthSkew = 5 * time.Minute

// NodeAuthScheme is the Authorization scheme a node signs its requests
// with: "Node <unix ms>.<base64url signature of NodeAuthMessage>".
const NodeAuthScheme = "Node "

// NodeAuthMessage is what a node signs with its nkey to ask the hub about
// itself at time ms (unix milliseconds).
func NodeAuthMessage(nodeID string, ms int64) []byte {
	return []byte("clumsies-node-status:" + nodeID + ":" + strconv.FormatInt(ms, 10))
}

// NodeStatus is what the hub knows about one node.
type NodeStatus struct {
	Node
	Link Link `json:"link"`
	// HubSeq is the last sequence of the node's ledger the hub has
	// applied.
	HubSeq uint64 `json:"hubSeq"`
}

// NodeStatus returns what the hub knows about node id.
func (h *Hub) NodeStatus(id string) (NodeStatus, error) {
	n, ok := h.reg.node(id)
	if !ok {
		return NodeStatus{}, fmt.Errorf("%w %s", ErrUnknownNode, id)
	}
	seq, err := h.proj.nodeSeq(id)
	if err != nil {
		return NodeStatus{}, fmt.Errorf("read the status of %s: %w", id, err)
	}
	return NodeStatus{Node: n, Link: h.Link(id), HubSeq: seq}, nil
}

// NodeChain returns the hub's chain of node id's ledger and the check of
// its checkpoints, with the digest through seq at when at > 0.
func (h *Hub) NodeChain(id string, at uint64) (NodeChain, error) {
	n, ok := h.reg.node(id)
	if !ok {
		return NodeChain{}, fmt.Errorf("%w %s", ErrUnknownNode, id)
	}
	c, err := h.proj.nodeChain(n, at)
	if err != nil {
		return NodeChain{}, fmt.Errorf("read the chain of %s: %w", id, err)
	}
	return c, nil
}

// verifyNode checks an Authorization header signed by node id.
func (h *Hub) verifyNode(id, header string, now time.Time) bool {
	rest, ok := strings.CutPrefix(header, NodeAuthScheme)
	if !ok {
		return false
	}
	msText, sigText, ok := strings.Cut(rest, ".")
	if !ok {
		return false
	}
	ms, err := strconv.ParseInt(msText, 10, 64)
	if err != nil {
		return false
	}
	if d := now.Sub(time.UnixMilli(ms)); d > nodeAuthSkew || d < -nodeAuthSkew {
		return false
	}
	sig, err := base64.RawURLEncoding.DecodeString(sigText)
	if err != nil {
		return false
	}
	n, ok := h.reg.node(id)
	if !ok || !n.Active() {
		return false
	}
	kp, err := nkeys.FromPublicKey(n.PublicKey)
	if err != nil {
		return false
	}
	return kp.Verify(NodeAuthMessage(id, ms), sig) == nil
}
