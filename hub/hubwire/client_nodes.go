package hubwire

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
)

// Invite asks for a one-time join token (admin).
func (c *Client) Invite(ctx context.Context, req InviteRequest) (string, error) {
	var out TokenAnswer
	if err := c.call(ctx, http.MethodPost, "/api/invites", req, &out); err != nil {
		return "", fmt.Errorf("invite a node: %w", err)
	}
	return out.Token, nil
}

// Join registers a node with the secret of a join token (no token).
func (c *Client) Join(ctx context.Context, req JoinRequest) (Node, error) {
	var n Node
	if err := c.call(ctx, http.MethodPost, "/api/join", req, &n); err != nil {
		return Node{}, fmt.Errorf("join the hub at %s: %w", c.url, err)
	}
	return n, nil
}

// Nodes lists the joined nodes with their links, by id, every page
// (admin).
func (c *Client) Nodes(ctx context.Context) ([]NodeInfo, error) {
	out, err := walk[NodeInfo](ctx, c, "/api/nodes", nil)
	if err != nil {
		return nil, fmt.Errorf("list the nodes: %w", err)
	}
	return out, nil
}

// Revoke revokes node id (admin).
func (c *Client) Revoke(ctx context.Context, id string) (Node, error) {
	var n Node
	if err := c.call(ctx, http.MethodPost, "/api/nodes/"+url.PathEscape(id)+"/revoke", struct{}{}, &n); err != nil {
		return Node{}, fmt.Errorf("revoke node %s: %w", id, err)
	}
	return n, nil
}

// NodeStatus asks what the hub knows about node id (admin, or the node
// itself).
func (c *Client) NodeStatus(ctx context.Context, id string) (NodeStatus, error) {
	var st NodeStatus
	if err := c.call(ctx, http.MethodGet, "/api/nodes/"+url.PathEscape(id)+"/status", nil, &st); err != nil {
		return NodeStatus{}, fmt.Errorf("read the status of node %s: %w", id, err)
	}
	return st, nil
}

// NodeChain asks for the hub's chain of node id's ledger, with the digest
// through seq at when at > 0 (admin, or the node itself).
func (c *Client) NodeChain(ctx context.Context, id string, at uint64) (NodeChain, error) {
	path := "/api/nodes/" + url.PathEscape(id) + "/chain"
	if at > 0 {
		path += "?at=" + strconv.FormatUint(at, 10)
	}
	var nc NodeChain
	if err := c.call(ctx, http.MethodGet, path, nil, &nc); err != nil {
		return NodeChain{}, fmt.Errorf("read the hub's chain of node %s: %w", id, err)
	}
	return nc, nil
}

// MemberToken makes a member token (admin).
func (c *Client) MemberToken(ctx context.Context, req TokenRequest) (string, error) {
	var out TokenAnswer
	if err := c.call(ctx, http.MethodPost, "/api/tokens", req, &out); err != nil {
		return "", fmt.Errorf("make a member token: %w", err)
	}
	return out.Token, nil
}

// TeamNodes lists the active nodes of the token's teams, every page
// (admin or member).
func (c *Client) TeamNodes(ctx context.Context) ([]TeamNode, error) {
	out, err := walk[TeamNode](ctx, c, "/api/team/nodes", nil)
	if err != nil {
		return nil, fmt.Errorf("list the team's nodes: %w", err)
	}
	return out, nil
}

// Health asks for the hub's state (anyone).
func (c *Client) Health(ctx context.Context) (Health, error) {
	var out Health
	if err := c.call(ctx, http.MethodGet, "/api/health", nil, &out); err != nil {
		return Health{}, fmt.Errorf("read the hub's health: %w", err)
	}
	return out, nil
}
