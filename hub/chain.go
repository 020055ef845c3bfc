package hub

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/cockroachdb/pebble/v2"
	"github.com/nats-io/nkeys"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/hub/hubwire"
)

// The hub keeps, per node, the hash chain of the node's ledger as the hub
// received it (events.ChainDigest over the sourced messages' bytes, in the
// node's sequence order) and checks every ledger.checkpoint the node sent
// against it: a node that rewrites its own history afterwards, its
// checkpoints included, no longer matches the hub's copy.

// chainHead is what the projector keeps per node between messages.
type chainHead struct {
	Through     uint64                `json:"through"`
	Digest      string                `json:"digest"`
	Checkpoints int                   `json:"checkpoints"`
	Signed      int                   `json:"signed"`
	Verified    uint64                `json:"verified"`
	Problem     *hubwire.ChainProblem `json:"problem,omitempty"`
}

func (h *chainHead) fail(seq uint64, format string, args ...any) {
	if h.Problem == nil {
		h.Problem = &hubwire.ChainProblem{Seq: seq, Reason: fmt.Sprintf(format, args...)}
	}
}

func readHead(r pebble.Reader, nodeID string) (chainHead, bool, error) {
	var h chainHead
	v, closer, err := r.Get(keyChainHead(nodeID))
	if errors.Is(err, pebble.ErrNotFound) {
		return h, false, nil
	}
	if err != nil {
		return h, false, err
	}
	defer closer.Close()
	if err := json.Unmarshal(v, &h); err != nil {
		return h, false, fmt.Errorf("read the chain of %s: %w", nodeID, err)
	}
	return h, true, nil
}

// chainDigest returns the hub's digest of node's chain through seq.
func chainDigest(r pebble.Reader, nodeID string, seq uint64) (string, bool, error) {
	v, closer, err := r.Get(keyChainAt(nodeID, seq))
	if errors.Is(err, pebble.ErrNotFound) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	defer closer.Close()
	var d events.ChainDigest
	if len(v) != len(d) {
		return "", false, fmt.Errorf("read the chain of %s at seq %d: damaged", nodeID, seq)
	}
	copy(d[:], v)
	return d.String(), true, nil
}

// chain adds the message data of node n at its ledger sequence seq (ev
// decoded) to n's chain in b. A message delivered again is skipped.
func (p *projector) chain(b *pebble.Batch, n hubwire.Node, seq uint64, data []byte, ev events.Event) error {
	h := p.heads[n.ID]
	if h == nil {
		stored, _, err := readHead(b, n.ID)
		if err != nil {
			return err
		}
		h = &stored
		p.heads[n.ID] = h
	}
	if seq <= h.Through {
		return nil
	}
	d := events.ChainStart(n.Workspace)
	if h.Through > 0 {
		var err error
		if d, err = events.ParseChainDigest(h.Digest); err != nil {
			return fmt.Errorf("read the chain of %s: %w", n.ID, err)
		}
	}
	if seq != h.Through+1 {
		h.fail(h.Through+1, "the hub never received seq %d..%d of the node's ledger", h.Through+1, seq-1)
	}
	if ev.Type == events.TypeCheckpoint {
		if err := p.checkpoint(b, n, seq, ev, d, h); err != nil {
			return err
		}
	}
	d = d.Next(seq, data)
	h.Through, h.Digest = seq, d.String()
	return b.Set(keyChainAt(n.ID, seq), d[:], nil)
}

// writeHeads writes the chain heads of the batch's nodes into b.
func (p *projector) writeHeads(b *pebble.Batch) error {
	for id, h := range p.heads {
		v, err := json.Marshal(h)
		if err != nil {
			return err
		}
		if err := b.Set(keyChainHead(id), v, nil); err != nil {
			return err
		}
	}
	return nil
}

// checkpoint checks the checkpoint ev, at seq of node n's ledger, against
// the chain the hub received (through seq-1: prev) and its signature.
// Once a node's ledger carries a signed checkpoint, every later one must
// be signed too.
func (p *projector) checkpoint(b *pebble.Batch, n hubwire.Node, seq uint64, ev events.Event, prev events.ChainDigest, h *chainHead) error {
	h.Checkpoints++
	var cp events.CheckpointData
	if err := json.Unmarshal(ev.Data, &cp); err != nil {
		h.fail(seq, "the checkpoint does not decode: %v", err)
		return nil
	}
	if cp.Seq >= seq || seq-cp.Seq > events.CheckpointWindow {
		h.fail(seq, "the checkpoint covers seq %d but is stored at seq %d", cp.Seq, seq)
		return nil
	}
	at := prev.String()
	if cp.Seq+1 < seq {
		d, ok, err := chainDigest(b, n.ID, cp.Seq)
		if err != nil {
			return err
		}
		if !ok {
			h.fail(seq, "the checkpoint covers seq %d, which the hub never received", cp.Seq)
			return nil
		}
		at = d
	}
	if cp.Digest != at {
		h.fail(seq, "the checkpoint says the chain through seq %d is %s, the messages the hub received hash to %s", cp.Seq, cp.Digest, at)
		return nil
	}
	switch err := p.checkSignature(n, cp); {
	case errors.Is(err, errUnsigned) && h.Signed == 0:
		// Checkpoints before the node joined carry no signature.
	case err != nil:
		h.fail(seq, "the checkpoint of seq %d is refused: %v", cp.Seq, err)
		return nil
	default:
		h.Signed++
	}
	if h.Problem == nil && cp.Seq > h.Verified {
		h.Verified = cp.Seq
	}
	return nil
}

// errUnsigned marks a checkpoint without a signature.
var errUnsigned = errors.New("it carries no signature")

// checkSignature checks that cp is signed by a node of n's workspace
// known to the registry (n itself, or a node the clone had before it
// joined again).
func (p *projector) checkSignature(n hubwire.Node, cp events.CheckpointData) error {
	if cp.Node == "" && cp.Signature == "" {
		return errUnsigned
	}
	signer, ok := p.nodes(cp.Node)
	if !ok || signer.Workspace != n.Workspace {
		return fmt.Errorf("it names node %q, not a node of workspace %s", cp.Node, n.Workspace)
	}
	sig, err := base64.RawURLEncoding.DecodeString(cp.Signature)
	if err != nil {
		return fmt.Errorf("its signature is not base64url: %v", err)
	}
	kp, err := nkeys.FromPublicKey(signer.PublicKey)
	if err != nil {
		return fmt.Errorf("node %s has no usable public key: %v", signer.ID, err)
	}
	if err := kp.Verify(events.CheckpointMessage(n.Workspace, cp.Seq, cp.Digest), sig); err != nil {
		return fmt.Errorf("its signature is not node %s's", signer.ID)
	}
	return nil
}

// nodeChain returns the hub's chain of node n, with the digest through
// seq at when at > 0.
func (p *projector) nodeChain(n hubwire.Node, at uint64) (hubwire.NodeChain, error) {
	h, _, err := readHead(p.db, n.ID)
	if err != nil {
		return hubwire.NodeChain{}, err
	}
	c := hubwire.NodeChain{Node: n.ID, Workspace: n.Workspace, Through: h.Through, Digest: h.Digest,
		Checkpoints: h.Checkpoints, Signed: h.Signed, Verified: h.Verified, Problem: h.Problem}
	if at > 0 {
		d, ok, err := chainDigest(p.db, n.ID, at)
		if err != nil {
			return hubwire.NodeChain{}, err
		}
		if !ok {
			return hubwire.NodeChain{}, fmt.Errorf("%w: the hub holds node %s's chain through seq %d, not seq %d", ErrInvalid, n.ID, h.Through, at)
		}
		c.At = &hubwire.ChainLink{Seq: at, Digest: d}
	}
	return c, nil
}
