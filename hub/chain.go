package hub

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/cockroachdb/pebble/v2"
	"github.com/nats-io/nkeys"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/hub/hubwire"
	"github.com/clumsies/clumsies/projections/engine"
	"github.com/clumsies/clumsies/proof/ledger"
)

// The hub keeps, per node, the hash chain of the node's ledger as the hub
// received it (events.ChainDigest over the sourced messages' bytes, in the
// node's sequence order) and checks every ledger.checkpoint the node sent
// against it with ledger's Checker: a node that rewrites its own history
// afterwards, its checkpoints included, no longer matches the hub's copy.
// The Checker's state is the node's chain head row; the digest through
// each sequence is a row too (the Checker's History).

// chainModel keeps each node's chain: its head (key h, the Checker's
// state) and the digest through each sequence (key d, the Checker's
// History).
type chainModel struct {
	rows  *engine.DiskRows
	nodes func(id string) (hubwire.Node, bool)
	// checkers hold the chains of the nodes of the batch being applied,
	// their heads written once at its end.
	checkers map[string]*ledger.Checker
}

func newChainModel(db pebble.Reader, nodes func(string) (hubwire.Node, bool)) *chainModel {
	return &chainModel{rows: engine.NewDiskRows(db), nodes: nodes, checkers: map[string]*ledger.Checker{}}
}

func (m *chainModel) Prefixes() []string            { return []string{"h" + sep, "d" + sep} }
func (m *chainModel) DiskOnly() []string            { return m.Prefixes() }
func (m *chainModel) Load(k string, _ []byte) error { return engine.ErrUnknownRow }

// Apply adds the message of the item to its node's chain. A message
// delivered again is skipped.
func (m *chainModel) Apply(it *hubItem) {
	n := it.node
	c := m.checkers[n.ID]
	if c == nil {
		var h ledger.CheckerState
		if v, ok := m.rows.Get(keyChainHead(n.ID)); ok {
			if err := json.Unmarshal(v, &h); err != nil {
				m.rows.Fail(fmt.Errorf("read the chain of %s: %w", n.ID, err))
				return
			}
		}
		var err error
		if c, err = ledger.RestoreChecker(n.Workspace, h, chainHistory{m.rows, n.ID}); err != nil {
			m.rows.Fail(err)
			return
		}
		c.KeepSigned()
		c.Verify(m.verifier(n))
		m.checkers[n.ID] = c
	}
	if it.origin <= c.Through() {
		return
	}
	ev := *it.ev
	ev.Seq, ev.Raw = it.origin, it.data
	c.Add(ev)
	d := c.Digest()
	m.rows.Set(keyChainAt(n.ID, it.origin), d[:])
}

// Write writes the chain heads of the batch's nodes and the digests.
func (m *chainModel) Write(w *engine.RowWriter) {
	for id, c := range m.checkers {
		v, err := json.Marshal(c.State())
		if err != nil {
			m.rows.Fail(err)
			continue
		}
		m.rows.Set(keyChainHead(id), v)
	}
	clear(m.checkers)
	m.rows.Write(w)
}

// chainHistory is the hub's digests of one node's chain, per sequence.
type chainHistory struct {
	rows *engine.DiskRows
	node string
}

// DigestAt returns the hub's digest of the node's chain through seq.
func (h chainHistory) DigestAt(seq uint64) (events.ChainDigest, bool, error) {
	var d events.ChainDigest
	v, ok := h.rows.Get(keyChainAt(h.node, seq))
	if err := h.rows.Err(); err != nil || !ok {
		return d, false, err
	}
	if len(v) != len(d) {
		return d, false, fmt.Errorf("read the chain of %s at seq %d: damaged", h.node, seq)
	}
	copy(d[:], v)
	return d, true, nil
}

// verifier checks that a checkpoint of n's ledger is signed by a node of
// n's workspace known to the registry (n itself, or a node the clone had
// before it joined again). Every node the checkpoint may name is known:
// a name the registry does not hold is refused.
func (m *chainModel) verifier(n hubwire.Node) ledger.Verifier {
	return func(node string, msg, sig []byte) (bool, error) {
		signer, ok := m.nodes(node)
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
	var h ledger.CheckerState
	v, closer, err := p.db.Get(keyChainHead(n.ID))
	switch {
	case err == nil:
		err = json.Unmarshal(v, &h)
		closer.Close()
		if err != nil {
			return hubwire.NodeChain{}, fmt.Errorf("read the chain of %s: %w", n.ID, err)
		}
	case !errors.Is(err, pebble.ErrNotFound):
		return hubwire.NodeChain{}, err
	}
	c := hubwire.NodeChain{Node: n.ID, Workspace: n.Workspace, Through: h.Through, Digest: h.Digest,
		Checkpoints: h.Checkpoints, Signed: h.Signed, Verified: h.Verified}
	if h.Problem != nil {
		c.Problem = &hubwire.ChainProblem{Seq: h.Problem.Seq, Reason: h.Problem.Reason}
	}
	if at > 0 {
		d, ok, err := chainHistory{engine.NewDiskRows(p.db), n.ID}.DigestAt(at)
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
