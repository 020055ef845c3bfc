package hublink

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/clumsies/clumsies/hub/hubwire"
	"github.com/clumsies/clumsies/workspace"
)

// joinTimeout bounds the join request.
const joinTimeout = 30 * time.Second

// ErrJoined means this clone has already joined a hub.
var ErrJoined = errors.New("hublink: this clone has already joined a hub")

// Join registers this clone of ws at the hub named in token: it makes the
// node identity, registers its public key, saves the identity in the state
// folder (mode 0600) and writes the hub's leaf URL into config.toml. The
// owner dials the hub from its next start.
func Join(ctx context.Context, ws *workspace.Workspace, token string) (Identity, hubwire.Node, error) {
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
	jctx, cancel := context.WithTimeout(ctx, joinTimeout)
	defer cancel()
	n, err := hubwire.NewClient(t.HTTP, "").Join(jctx, hubwire.JoinRequest{Secret: t.Secret, NodeID: id.NodeID, PublicKey: pub, WorkspaceID: ws.ID()})
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
