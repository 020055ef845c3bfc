package hub

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// registryName is the node registry's file in the data folder.
const registryName = "registry.json"

// Errors of the registry, classified by the HTTP API.
var (
	// ErrBadInvite means a join token is unknown, used or expired.
	ErrBadInvite = errors.New("hub: join token unknown, already used or expired")
	// ErrUnknownNode means no node has the given id.
	ErrUnknownNode = errors.New("hub: unknown node")
	// ErrInvalid means a request's fields are not acceptable.
	ErrInvalid = errors.New("hub: invalid request")
)

// inviteTTL is how long a join token stays valid.
const inviteTTL = 7 * 24 * time.Hour

// Node is one machine's clone of a workspace, joined to the hub.
type Node struct {
	ID        string    `json:"id"`
	PublicKey string    `json:"publicKey"`
	Team      string    `json:"team"`
	Workspace string    `json:"workspaceId"`
	Member    string    `json:"member,omitempty"`
	Joined    time.Time `json:"joined"`
	Revoked   time.Time `json:"revoked,omitzero"`
}

// Active reports whether the node is not revoked.
func (n Node) Active() bool { return n.Revoked.IsZero() }

// invite is a one-time join token, stored by the hash of its secret.
type invite struct {
	Hash      string    `json:"hash"`
	Team      string    `json:"team"`
	Workspace string    `json:"workspaceId"`
	Member    string    `json:"member,omitempty"`
	Expires   time.Time `json:"expires"`
	Used      bool      `json:"used,omitempty"`
}

// memberToken lets its holder read the stats of some teams.
type memberToken struct {
	Hash  string   `json:"hash"`
	Name  string   `json:"name"`
	Teams []string `json:"teams"`
}

// registryData is what registry.json holds.
type registryData struct {
	Nodes   []Node        `json:"nodes"`
	Invites []invite      `json:"invites"`
	Tokens  []memberToken `json:"tokens"`
}

// registry is the hub's list of nodes, invites and member tokens, kept in
// one JSON file that every change rewrites atomically. It is small (a few
// hundred bytes per node) and changes rarely.
type registry struct {
	file string
	mu   sync.Mutex
	d    registryData
}

func openRegistry(dataDir string) (*registry, error) {
	r := &registry{file: filepath.Join(dataDir, registryName)}
	b, err := os.ReadFile(r.file)
	if errors.Is(err, os.ErrNotExist) {
		return r, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the node registry: %w", err)
	}
	if err := json.Unmarshal(b, &r.d); err != nil {
		return nil, fmt.Errorf("read the node registry %s: %w", r.file, err)
	}
	return r, nil
}

// save writes the registry; the caller holds mu.
func (r *registry) save() error {
	b, err := json.MarshalIndent(r.d, "", "  ")
	if err != nil {
		return err
	}
	if err := writeFileAtomic(r.file, b, 0o600); err != nil {
		return fmt.Errorf("write the node registry: %w", err)
	}
	return nil
}

// nodes returns every node, revoked ones included, ordered by id.
func (r *registry) nodes() []Node {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := slices.Clone(r.d.Nodes)
	slices.SortFunc(out, func(a, b Node) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// node returns the node with id.
func (r *registry) node(id string) (Node, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, n := range r.d.Nodes {
		if n.ID == id {
			return n, true
		}
	}
	return Node{}, false
}

// addInvite stores a new invite and returns its secret.
func (r *registry) addInvite(team, ws, member string, now time.Time) (string, error) {
	secret := randomHex(24)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.d.Invites = append(r.d.Invites, invite{Hash: hashSecret(secret), Team: team, Workspace: ws, Member: member, Expires: now.Add(inviteTTL)})
	return secret, r.save()
}

// join uses the invite of secret to register a node, and returns it. The
// invite must name the node's workspace.
func (r *registry) join(secret, nodeID, publicKey, ws string, now time.Time) (Node, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	h := hashSecret(secret)
	i := slices.IndexFunc(r.d.Invites, func(in invite) bool { return subtle.ConstantTimeCompare([]byte(in.Hash), []byte(h)) == 1 })
	if i < 0 || r.d.Invites[i].Used || now.After(r.d.Invites[i].Expires) {
		return Node{}, ErrBadInvite
	}
	in := r.d.Invites[i]
	if in.Workspace != ws {
		return Node{}, fmt.Errorf("%w: this token is for workspace %s, not %s", ErrInvalid, in.Workspace, ws)
	}
	for _, n := range r.d.Nodes {
		if n.ID == nodeID || n.PublicKey == publicKey {
			return Node{}, fmt.Errorf("%w: node %s or its key is already registered; make a new identity", ErrInvalid, nodeID)
		}
	}
	n := Node{ID: nodeID, PublicKey: publicKey, Team: in.Team, Workspace: ws, Member: in.Member, Joined: now.UTC()}
	r.d.Invites[i].Used = true
	r.d.Nodes = append(r.d.Nodes, n)
	return n, r.save()
}

// revoke marks a node revoked.
func (r *registry) revoke(id string, now time.Time) (Node, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	i := slices.IndexFunc(r.d.Nodes, func(n Node) bool { return n.ID == id })
	if i < 0 {
		return Node{}, fmt.Errorf("%w %s", ErrUnknownNode, id)
	}
	if r.d.Nodes[i].Active() {
		r.d.Nodes[i].Revoked = now.UTC()
	}
	return r.d.Nodes[i], r.save()
}

// addToken stores a member token for teams and returns it.
func (r *registry) addToken(name string, teams []string) (string, error) {
	token := "mem_" + randomHex(24)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.d.Tokens = append(r.d.Tokens, memberToken{Hash: hashSecret(token), Name: name, Teams: slices.Clone(teams)})
	return token, r.save()
}

// tokenTeams returns the teams a member token may read.
func (r *registry) tokenTeams(token string) ([]string, bool) {
	h := hashSecret(token)
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, t := range r.d.Tokens {
		if subtle.ConstantTimeCompare([]byte(t.Hash), []byte(h)) == 1 {
			return slices.Clone(t.Teams), true
		}
	}
	return nil, false
}

func hashSecret(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}
