package node

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/clumsies/clumsies/projections"
	"github.com/clumsies/clumsies/proof/ledger"
	"github.com/clumsies/clumsies/workspace"
)

// VerifyStopped verifies ws while no process owns it, without starting
// an owner: it takes the workspace's lock (failing with an error wrapping
// embeddednats.ErrLocked when another process owns it: verify through
// that owner instead), checks the stream directly against its checkpoints
// and against what the read models recorded of it (opened as they are on
// disk, not caught up, not rebuilt), and names every sequence missing or
// rewritten. Only when the ledger holds does it start the read models and
// check them as Verify does; a damaged stream, which stops a projector,
// is reported without one.
func VerifyStopped(ctx context.Context, ws *workspace.Workspace, opts Options) (Report, error) {
	n, err := Open(ctx, ws, opts)
	if err != nil {
		return Report{}, err
	}
	defer n.Close()
	var r Report
	store, openErr := projections.Open(ProjectionsDir(ws.StateDir()), projections.Options{Logger: n.logger, NoChain: n.noChain})
	if openErr != nil {
		store = nil // checked against the checkpoints alone
	}
	r.Chain, err = n.checkChain(ctx, store)
	if store != nil {
		store.Close()
	}
	if err != nil {
		return r, err
	}
	r.Problems = chainProblems(r.Chain)
	if r.Chain.Problem != nil {
		r.Events = r.Chain.Through
		if openErr != nil {
			r.Problems = append(r.Problems, "the read models cannot be opened: "+openErr.Error())
		}
		return r, nil
	}
	if err := n.StartProjections(ctx); err != nil {
		return r, fmt.Errorf("verify: %w", err)
	}
	if _, err := n.CatchUp(ctx); err != nil {
		return r, fmt.Errorf("verify: %w", err)
	}
	return r, n.verifyModels(ctx, n.store(), &r)
}

// checkChain checks the ledger's hash chain from the first stored message
// against its checkpoints, the signatures this node made, and the read
// models in store (nil: none): the chain they reached (a shorter stream
// lost its tail), each message's digest as they applied it (a rewritten
// message is named at its sequence), and the mark of earlier read models
// that were rebuilt (ledger-mark.json).
func (n *Node) checkChain(ctx context.Context, store *projections.Store) (ledger.Result, error) {
	c := ledger.NewChecker(n.WS.ID())
	c.Verify(verifier(n.key))
	if store != nil {
		head := store.Chain()
		c.Expect(head.Seq, head.Digest, "the read models")
		c.Remember(store.ChainMemory())
	}
	if m, ok, err := readMark(n.WS.StateDir()); err != nil {
		return ledger.Result{}, err
	} else if ok && (store == nil || m.Seq > store.Chain().Seq) {
		c.Expect(m.Seq, m.Digest, "the read models before they were rebuilt ("+filepath.Join(n.WS.StateDir(), markFile)+
			"; remove it if an older copy of the ledger was put back on purpose)")
	}
	r, err := ledger.Check(ctx, n.Log, n.WS.ID(), c)
	if err == nil && c.MemoryErr() != nil {
		n.logger.Warn("verify: the digests the read models recorded cannot be read; checked against the checkpoints only", "err", c.MemoryErr())
	}
	return r, err
}

// chainProblems renders what a check of the chain found: the first
// problem, then every sequence missing and every one rewritten.
func chainProblems(r ledger.Result) []string {
	p := r.Problem
	if p == nil {
		return nil
	}
	out := []string{fmt.Sprintf("ledger chain broken at seq %d (the checkpoints hold through seq %d): %s", p.Seq, p.After, p.Reason)}
	if len(r.Missing) > 0 {
		spans := make([]string, len(r.Missing))
		for i, s := range r.Missing {
			spans[i] = s.String()
		}
		out = append(out, "missing from the stream: seq "+strings.Join(spans, ", "))
	}
	if len(r.Changed) > 0 {
		seqs := make([]string, len(r.Changed))
		for i, s := range r.Changed {
			seqs[i] = fmt.Sprint(s)
		}
		out = append(out, "rewritten since the read models applied them: seq "+strings.Join(seqs, ", "))
	}
	return out
}

// verifier checks the signatures made with key; it knows no other node's.
func verifier(key CheckpointKey) ledger.Verifier {
	return func(node string, msg, sig []byte) (bool, error) {
		if key == nil || node != key.NodeID() {
			return false, nil
		}
		return true, key.Verify(msg, sig)
	}
}
