package node

import (
	"context"
	"fmt"

	"github.com/clumsies/clumsies/projections"
)

// markFile, in the state folder, keeps the ledger's hash chain as read
// models that are thrown away had seen it, when they were ahead of the
// stream: the stream lost its tail or an older copy of it was put back.
// The rebuilt read models no longer know how far the ledger had reached;
// verify keeps reporting it from this file until someone removes it (as
// after restoring an older copy on purpose).
const markFile = "ledger-mark.json"

// chainMark is the content of markFile.
type chainMark struct {
	Seq    uint64 `json:"seq"`
	Digest string `json:"digest"`
	// Stream is where the stream ended when the mark was kept.
	Stream uint64 `json:"stream"`
}

// keepMark writes store's chain head to markFile when it is ahead of the
// stream, which ends at last, and further than a mark already kept.
func (n *Node) keepMark(store *projections.Store, last uint64) error {
	head := store.Chain()
	if head.Seq <= last {
		return nil
	}
	if old, ok, err := readMark(n.WS.StateDir()); err == nil && ok && old.Seq >= head.Seq {
		return nil
	}
	if err := writeStateFile(n.WS.StateDir(), markFile, chainMark{Seq: head.Seq, Digest: head.Digest, Stream: last}); err != nil {
		return fmt.Errorf("keep the ledger's mark: %w", err)
	}
	n.logger.Warn("the read models had seen the ledger further than the stream now goes; kept in "+markFile+" for verify",
		"seq", head.Seq, "stream", last)
	return nil
}

// keepMarkOf is keepMark against the stream's current end.
func (n *Node) keepMarkOf(ctx context.Context, store *projections.Store) error {
	last, err := n.Log.LastSeq(ctx)
	if err != nil {
		return fmt.Errorf("read the stream's last sequence: %w", err)
	}
	return n.keepMark(store, last)
}

// readMark reads markFile; ok is false when there is none.
func readMark(stateDir string) (chainMark, bool, error) {
	var m chainMark
	ok, err := readStateFile(stateDir, markFile, &m)
	return m, ok, err
}
