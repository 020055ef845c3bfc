package hublink

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nkeys"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// statusTimeout bounds the status request.
const statusTimeout = 10 * time.Second

// Status is the state of this node's link as the hub sees it.
type Status struct {
	// Reachable reports whether the hub answered with the node's status;
	// the fields below are the hub's answer and are zero when it did not
	// (but Revoked).
	Reachable bool `json:"reachable"`
	// Error says why the hub did not answer.
	Error string `json:"error,omitempty"`
	// Linked reports whether the node's leaf link is up.
	Linked bool `json:"linked"`
	// Since is when the link came up (Linked) or went down; zero when the
	// hub has not seen it since it started.
	Since time.Time `json:"since,omitzero"`
	// HubSeq is the last sequence of this node's ledger the hub has.
	HubSeq uint64 `json:"hubSeq"`
	// Revoked reports that the hub revoked this node, or refuses its
	// signature (a revoked node's requests are refused as unsigned ones).
	Revoked bool `json:"revoked,omitempty"`
}

// ReadStatus asks the hub about this node, signing the request with the
// node's key. A hub that cannot be reached, or that refuses the request,
// gives a Status with Reachable false, not an error; one that refuses the
// node's signature (a revoked node's) also sets Revoked. A damaged
// identity is an error.
func (id Identity) ReadStatus(ctx context.Context) (Status, error) {
	cl, err := id.client()
	if err != nil {
		return Status{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, statusTimeout)
	defer cancel()
	ns, err := cl.NodeStatus(ctx, id.NodeID)
	if err != nil {
		var e *hubwire.Error
		if errors.As(err, &e) {
			return Status{Revoked: e.Code == hubwire.CodeUnauthorized, Error: e.Message}, nil
		}
		return Status{Error: err.Error()}, nil
	}
	return Status{Reachable: true, Linked: ns.Link.Up, Since: ns.Link.Since, HubSeq: ns.HubSeq, Revoked: !ns.Active()}, nil
}

// client returns a client of the hub's API that signs as this node.
func (id Identity) client() (*hubwire.Client, error) {
	if id.Hub == "" {
		return nil, errors.New("the node identity names no hub API; join again")
	}
	if _, err := nkeys.FromSeed([]byte(id.Seed)); err != nil {
		return nil, fmt.Errorf("read the node key: %w", err)
	}
	return hubwire.NewNodeClient(id.Hub, id.NodeID, id.Seed), nil
}
