package hub

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/cockroachdb/pebble/v2"
	"github.com/nats-io/nkeys"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/hub/hubwire"
	"github.com/clumsies/clumsies/ledger"
)

// The hub keeps, per node, the hash chain of the node's ledger as the hub
// received it (events.ChainDigest over the sourced messages' bytes, in the
// node's sequence order) and checks every ledger.checkpoint the node sent
// against it with ledger's Checker: a node that rewrites its own history
// afterwards, its checkpoints included, no longer matches the hub's copy.
// The Checker's state is the node's chain head row; the digest through
// each sequence is a row too (the Checker's History).

func readHead(r pebble.Reader, nodeID string) (ledger.CheckerState, error) {
	var h ledger.CheckerState
	v, closer, err := r.Get(keyChainHead(nodeID))
	if errors.Is(err, pebble.ErrNotFound) {
		return h, nil
	}
	if err != nil {
		return h, err
	}
	defer closer.Close()
	if err := json.Unmarshal(v, &h); err != nil {
		return h, fmt.Errorf("read the chain of %s: %w", nodeID, err)
	}
	return h, nil
}

// chainHistory is the hub's digests of one node's chain, per sequence.
type chainHistory struct {
	r    pebble.Reader
	node string
}

// DigestAt returns the hub's digest of the node's chain through seq.
func (h chainHistory) DigestAt(seq uint64) (events.ChainDigest, bool, error) {
	var d events.ChainDigest
	v, closer, err := h.r.Get(keyChainAt(h.node, seq))
	if errors.Is(err, pebble.ErrNotFound) {
		return d, false, nil
	}
	if err != nil {
		return d, false, err
	}
	defer closer.Close()
	if len(v) != len(d) {
		return d, false, fmt.Errorf("read the chain of %s at seq %d: damaged", h.node, seq)
	}
	copy(d[:], v)
	return d, true, nil
}

// chain adds the message data of node n at its ledger sequence seq (ev
// decoded) to n's chain in b. A message delivered again is skipped.
func (p *projector) chain(b *pebble.Batch, n hubwire.Node, seq uint64, data []byte, ev events.Event) error {
	c := p.checkers[n.ID]
	if c == nil {
		h, err := readHead(b, n.ID)
		if err != nil {
			return err
		}
		if c, err = ledger.RestoreChecker(n.Workspace, h, chainHistory{b, n.ID}); err != nil {
			return err
		}
		c.KeepSigned()
		c.Verify(p.verifier(n))
		p.checkers[n.ID] = c
	}
	if seq <= c.Through() {
		return nil
	}
	ev.Seq, ev.Raw = seq, data
	c.Add(ev)
	d := c.Digest()
	return b.Set(keyChainAt(n.ID, seq), d[:], nil)
}

// writeHeads writes the chain heads of the batch's nodes into b.
func (p *projector) writeHeads(b *pebble.Batch) error {
	for id, c := range p.checkers {
		v, err := json.Marshal(c.State())
		if err != nil {
			return err
		}
		if err := b.Set(keyChainHead(id), v, nil); err != nil {
			return err
		}
	}
	return nil
}

// verifier checks that a checkpoint of n's ledger is signed by a node of
// n's workspace known to the registry (n itself, or a node the clone had
// before it joined again). Every node the checkpoint may name is known:
// a name the registry does not hold is refused.
func (p *projector) verifier(n hubwire.Node) ledger.Verifier {
	return func(node string, msg, sig []byte) (bool, error) {
		signer, ok := p.nodes(node)
		if !ok || signer.Workspace != n.Workspace {
			return true, fmt.Errorf("it names node %q, not a node of workspace %s", node, n.Workspace)
		}
		kp, err := nkeys.FromPublicKey(signer.PublicKey)
		if err != nil {
			return true, fmt.Errorf("node %s has no usable public key: %v", signer.ID, err)
		}
		if err := kp.Verify(msg, sig); err != nil {
			return true, fmt.Errorf("its signature is not node %s's", signer.ID)
		}
		return true, nil
	}
}

// nodeChain returns the hub's chain of node n, with the digest through
// seq at when at > 0.
func (p *projector) nodeChain(n hubwire.Node, at uint64) (hubwire.NodeChain, error) {
	h, err := readHead(p.db, n.ID)
	if err != nil {
		return hubwire.NodeChain{}, err
	}
	c := hubwire.NodeChain{Node: n.ID, Workspace: n.Workspace, Through: h.Through, Digest: h.Digest,
		Checkpoints: h.Checkpoints, Signed: h.Signed, Verified: h.Verified}
	if h.Problem != nil {
		c.Problem = &hubwire.ChainProblem{Seq: h.Problem.Seq, Reason: h.Problem.Reason}
	}
	if at > 0 {
		d, ok, err := chainHistory{p.db, n.ID}.DigestAt(at)
		if err != nil {
			return hubwire.NodeChain{}, err
		}
		if !ok {
			return hubwire.NodeChain{}, fmt.Errorf("%w: the hub holds node %s's chain through seq %d, not seq %d", ErrInvalid, n.ID, h.Through, at)
		}
		c.At = &hubwire.ChainLink{Seq: at, Digest: d.String()}
	}
	return c, nil
}
