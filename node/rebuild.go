package node

import (
	"context"

	"github.com/clumsies/clumsies/projections"
)

// Rebuild stops the projector, drops every read model, replays the whole
// stream and starts the projector again. Read models ahead of the stream
// leave their chain in markFile first. It returns the digest of the
// rebuilt read models. progress, when not nil, is called as events apply.
func (n *Node) Rebuild(ctx context.Context, progress func(done, total uint64)) (string, error) {
	if store := n.store(); store != nil {
		if err := n.keepMarkOf(ctx, store); err != nil {
			return "", err
		}
	}
	if err := n.stopProjector(); err != nil {
		return "", err
	}
	store, err := projections.Rebuild(ctx, n.Log, ProjectionsDir(n.WS.StateDir()),
		projections.Options{Logger: n.logger, CommitFault: n.fault, NoChain: n.noChain}, progress)
	if err != nil {
		return "", err
	}
	digest, err := store.Digest()
	n.startProjector(store)
	return digest, err
}
