package hubwire

// InviteRequest is the body of POST /api/invites.
type InviteRequest struct {
	WorkspaceID string `json:"workspaceId"`
	Team        string `json:"team"`
	Member      string `json:"member,omitempty"`
}

// JoinRequest is the body of POST /api/join.
type JoinRequest struct {
	Secret      string `json:"secret"`
	NodeID      string `json:"nodeId"`
	PublicKey   string `json:"publicKey"`
	WorkspaceID string `json:"workspaceId"`
	// WorkspaceName is the workspace's name for people (its config.toml's
	// name, else its folder's): a label the hub shows beside the id, not
	// an identity. Optional.
	WorkspaceName string `json:"workspaceName,omitempty"`
}

// TokenRequest is the body of POST /api/tokens: a member token for teams.
type TokenRequest struct {
	Name  string   `json:"name"`
	Teams []string `json:"teams"`
	// Reviewer lets the token accept and decline its teams' drafts.
	Reviewer bool `json:"reviewer,omitempty"`
}

// DeclineRequest is the body of POST /api/reviews/{id}/decline.
type DeclineRequest struct {
	Reason string `json:"reason"`
}

// TokenAnswer is the answer of POST /api/invites (a join token) and of
// POST /api/tokens (a member token).
type TokenAnswer struct {
	Token string `json:"token"`
}
