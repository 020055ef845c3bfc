package hublink

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/clumsies/clumsies/hub"
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
func Join(ctx context.Context, ws *workspace.Workspace, token string) (Identity, hub.Node, error) {
	t, err := hub.ParseJoinToken(token)
	if err != nil {
		return Identity{}, hub.Node{}, err
	}
	if have, err := LoadIdentity(ws.StateDir()); err == nil {
		return Identity{}, hub.Node{}, fmt.Errorf("%w as node %s; to join another hub, revoke that node there and remove %s",
			ErrJoined, have.NodeID, identityPath(ws.StateDir()))
	} else if !errors.Is(err, ErrNoIdentity) {
		return Identity{}, hub.Node{}, err
	}
	id, err := NewIdentity()
	if err != nil {
		return Identity{}, hub.Node{}, err
	}
	pub, err := id.PublicKey()
	if err != nil {
		return Identity{}, hub.Node{}, err
	}
	var n hub.Node
	req := hub.JoinRequest{Secret: t.Secret, NodeID: id.NodeID, PublicKey: pub, WorkspaceID: ws.ID()}
	if err := post(ctx, t.HTTP+"/api/join", "", req, &n); err != nil {
		return Identity{}, hub.Node{}, fmt.Errorf("join the hub at %s: %w", t.HTTP, err)
	}
	id.Team, id.Hub = n.Team, t.HTTP
	if err := id.Save(ws.StateDir()); err != nil {
		return Identity{}, hub.Node{}, fmt.Errorf("%w; node %s is registered at the hub: ask its admin to revoke it, then join again", err, id.NodeID)
	}
	if err := ws.SetHubURL(t.Leaf); err != nil {
		return Identity{}, hub.Node{}, err
	}
	return id, n, nil
}

// post sends v as JSON to url with an optional bearer token and decodes
// the answer into out; a failed request's error carries the API's message.
func post(ctx context.Context, url, token string, v, out any) error {
	body, err := json.Marshal(v)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, joinTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		var e hub.APIError
		if json.Unmarshal(b, &e) == nil && e.Error != "" {
			return errors.New(e.Error)
		}
		return fmt.Errorf("%s: %s", resp.Status, strings.TrimSpace(string(b)))
	}
	return json.Unmarshal(b, out)
}
