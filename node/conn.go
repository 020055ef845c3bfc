package node

import (
	"context"
	"time"

	"github.com/nats-io/nats.go"
)

// Conn returns a connection to the workspace's embedded server, the
// owner's own or this process's connection to the owner, for reads of
// JetStream state such as the hub's sourcing consumers. It is valid until
// the owner changes; do not close it.
func (h *Handle) Conn(ctx context.Context) (*nats.Conn, error) {
	b, err := h.current(ctx, time.Now().Add(h.retryFor))
	if err != nil {
		return nil, err
	}
	switch b := b.(type) {
	case *owner:
		return b.n.Conn, nil
	case *remote:
		return b.nc, nil
	}
	return nil, ErrUnavailable
}
