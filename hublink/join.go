package hublink

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/clumsies/clumsies/hub/hubwire"
	"github.com/clumsies/clumsies/workspace"
)

// joinTimeout bounds one join request.
const joinTimeout = 30 * time.Second

// How a join that got no answer is asked again.
const (
	// joinPatience bounds how long a join keeps asking.
	joinPatience = 2 * time.Minute
	// joinFirstWait is the wait before the first retry; it doubles up to
	// joinMaxWait.
	joinFirstWait = 250 * time.Millisecond
	joinMaxWait   = 8 * time.Second
)

// Waiting is told, before each retry of a join, why the hub has not
// answered and how long the join waits before asking again.
type Waiting func(err error, wait time.Duration)

// ErrJoined means this clone has already joined a hub.
var ErrJoined = errors.New("hublink: this clone has already joined a hub")

// Join registers this clone of ws at the hub named in token: it makes the
// node identity, registers its public key, saves the identity in the state
// folder (mode 0600) and writes the hub's leaf URL into config.toml. The
// owner dials the hub from its next start.
//
// A request the hub refused to connect, dropped, or answered with a
// server error (5xx) is asked again with the same identity after a
// backoff (250 ms doubling up to 8 s, for up to 2 minutes), telling
// waiting (if not nil) each time: the hub answers a join asked again
// with the node it registered. A refusal (4xx) is returned at once.
func Join(ctx context.Context, ws *workspace.Workspace, token string, waiting Waiting) (Identity, hubwire.Node, error) {
	t, err := hubwire.ParseJoinToken(token)
	if err != nil {
		return Identity{}, hubwire.Node{}, err
	}
	if have, err := LoadIdentity(ws.StateDir()); err == nil {
		return Identity{}, hubwire.Node{}, fmt.Errorf("%w as node %s; to join another hub, revoke that node there and remove %s",
			ErrJoined, have.NodeID, identityPath(ws.StateDir()))
	} else if !errors.Is(err, ErrNoIdentity) {
		return Identity{}, hubwire.Node{}, err
	}
	id, err := NewIdentity()
	if err != nil {
		return Identity{}, hubwire.Node{}, err
	}
	pub, err := id.PublicKey()
	if err != nil {
		return Identity{}, hubwire.Node{}, err
	}
	req := hubwire.JoinRequest{Secret: t.Secret, NodeID: id.NodeID, PublicKey: pub, WorkspaceID: ws.ID(), WorkspaceName: ws.Name()}
	n, err := joinRetrying(ctx, hubwire.NewClient(t.HTTP, ""), req, waiting)
	if err != nil {
		return Identity{}, hubwire.Node{}, err
	}
	id.Team, id.Hub = n.Team, t.HTTP
	if err := id.Save(ws.StateDir()); err != nil {
		return Identity{}, hubwire.Node{}, fmt.Errorf("%w; node %s is registered at the hub: ask its admin to revoke it, then join again", err, id.NodeID)
	}
	if err := ws.SetHubURL(t.Leaf); err != nil {
		return Identity{}, hubwire.Node{}, err
	}
	return id, n, nil
}

// joinRetrying sends req until the hub answers it, as Join says.
func joinRetrying(ctx context.Context, c *hubwire.Client, req hubwire.JoinRequest, waiting Waiting) (hubwire.Node, error) {
	deadline := time.Now().Add(joinPatience)
	wait := joinFirstWait
	for {
		jctx, cancel := context.WithTimeout(ctx, joinTimeout)
		n, err := c.Join(jctx, req)
		cancel()
		if err == nil || !retriable(err) || ctx.Err() != nil || time.Now().Add(wait).After(deadline) {
			return n, err
		}
		if waiting != nil {
			waiting(err, wait)
		}
		select {
		case <-ctx.Done():
			return hubwire.Node{}, ctx.Err()
		case <-time.After(wait):
		}
		wait = min(2*wait, joinMaxWait)
	}
}

// retriable reports whether a join that failed with err may succeed if
// asked again: the hub did not answer, or failed on its side.
func retriable(err error) bool {
	if errors.Is(err, hubwire.ErrUnreachable) {
		return true
	}
	var he *hubwire.Error
	return errors.As(err, &he) && he.Status >= 500
}
