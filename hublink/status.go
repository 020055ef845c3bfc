package hublink

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Status is the state of a workspace's link to its hub, as the workspace's
// own server sees it: the hub sources the ledger through a consumer on it.
type Status struct {
	// Linked reports whether the hub is pulling the ledger now (its
	// sourcing consumer is bound over the leaf link).
	Linked bool `json:"linked"`
	// Since is when the current link's sourcing started (Linked), or the
	// hub's last delivery (not Linked); zero when unknown.
	Since time.Time `json:"since,omitzero"`
	// HubSeq is the last ledger sequence delivered to the hub.
	HubSeq uint64 `json:"hubSeq"`
	// LocalSeq is the ledger's last sequence.
	LocalSeq uint64 `json:"localSeq"`
}

// sourcePrefix names the consumers nats-server makes for a stream source.
const sourcePrefix = "JS_SRC_"

// ReadStatus reads the link's status from the workspace's server over nc.
func ReadStatus(ctx context.Context, nc *nats.Conn, wsID string) (Status, error) {
	var st Status
	js, err := jetstream.New(nc)
	if err != nil {
		return st, err
	}
	s, err := js.Stream(ctx, "CLUMSIES_"+wsID)
	if err != nil {
		return st, fmt.Errorf("read the ledger: %w", err)
	}
	info, err := s.Info(ctx)
	if err != nil {
		return st, fmt.Errorf("read the ledger: %w", err)
	}
	st.LocalSeq = info.State.LastSeq
	lister := s.ListConsumers(ctx)
	for ci := range lister.Info() {
		if !strings.HasPrefix(ci.Name, sourcePrefix) {
			continue
		}
		st.HubSeq = max(st.HubSeq, ci.Delivered.Stream)
		switch {
		case ci.PushBound && (!st.Linked || ci.Created.After(st.Since)):
			st.Linked, st.Since = true, ci.Created
		case !st.Linked && ci.Delivered.Last != nil && ci.Delivered.Last.After(st.Since):
			st.Since = *ci.Delivered.Last
		}
	}
	if err := lister.Err(); err != nil && !errors.Is(err, jetstream.ErrEndOfData) {
		return st, fmt.Errorf("read the hub's consumers: %w", err)
	}
	return st, nil
}
