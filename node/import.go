package node

import (
	"context"
	"io"

	"github.com/clumsies/clumsies/proof/ledger"
)

// Import stores an export (ledger.Export's format, read from what open
// opens) into the workspace's ledger, after checking its chain and that
// it goes on where the ledger ends (ledger.Import). The read models are
// not touched: Rebuild them after. progress, when not nil, is called as
// events are stored.
func (n *Node) Import(ctx context.Context, open func() (io.ReadCloser, error), progress func(done, total uint64)) (ledger.Summary, error) {
	return ledger.Import(ctx, open, n.WS.ID(), n.Log, progress)
}
