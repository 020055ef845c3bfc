package hublink

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/nats-io/nkeys"

	embeddednats "github.com/clumsies/clumsies/embedded-nats"
)

// identityName is the identity's file in the state folder (mode 0600).
const identityName = "hub-node.json"

// ErrNoIdentity means the workspace has not joined a hub on this machine.
var ErrNoIdentity = errors.New("hublink: this clone has not joined a hub; run `clumsies hub join TOKEN`")

// Identity is this machine's node of a workspace. Two clones of one
// repository are two nodes of one workspace. Never copy it to another
// machine: revoke the node and join again instead.
type Identity struct {
	// NodeID is n-<16 lowercase hex>; it is also the JetStream domain of
	// the workspace's server.
	NodeID string `json:"nodeId"`
	// Seed is the nkey seed (private).
	Seed string `json:"seed"`
	// Team is the team the hub put the node in.
	Team string `json:"team,omitempty"`
	// Hub is the hub's API URL.
	Hub string `json:"hub,omitempty"`
}

// NewIdentity makes a fresh node id and nkey.
func NewIdentity() (Identity, error) {
	kp, err := nkeys.CreateUser()
	if err != nil {
		return Identity{}, fmt.Errorf("make a node key: %w", err)
	}
	seed, err := kp.Seed()
	if err != nil {
		return Identity{}, fmt.Errorf("make a node key: %w", err)
	}
	var b [8]byte
	_, _ = rand.Read(b[:])
	return Identity{NodeID: "n-" + hex.EncodeToString(b[:]), Seed: string(seed)}, nil
}

// PublicKey returns the node's public nkey.
func (id Identity) PublicKey() (string, error) {
	kp, err := nkeys.FromSeed([]byte(id.Seed))
	if err != nil {
		return "", fmt.Errorf("read the node key: %w", err)
	}
	return kp.PublicKey()
}

// LoadIdentity reads the identity from a state folder. It returns
// ErrNoIdentity if there is none.
func LoadIdentity(stateDir string) (Identity, error) {
	var id Identity
	file := identityPath(stateDir)
	b, err := os.ReadFile(file)
	if errors.Is(err, os.ErrNotExist) {
		return id, ErrNoIdentity
	}
	if err != nil {
		return id, fmt.Errorf("read the node identity: %w", err)
	}
	if err := json.Unmarshal(b, &id); err != nil || id.NodeID == "" || id.Seed == "" {
		return id, fmt.Errorf("read the node identity %s: damaged; remove it, revoke the node at the hub and join again", file)
	}
	return id, nil
}

// Save writes the identity into a state folder with mode 0600.
func (id Identity) Save(stateDir string) error {
	if err := os.MkdirAll(stateDir, 0o700); err != nil {
		return fmt.Errorf("save the node identity: %w", err)
	}
	b, err := json.MarshalIndent(id, "", "  ")
	if err != nil {
		return err
	}
	file := identityPath(stateDir)
	tmp := file + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return fmt.Errorf("save the node identity: %w", err)
	}
	if err := os.Rename(tmp, file); err != nil {
		return fmt.Errorf("save the node identity: %w", err)
	}
	return nil
}

// Leaf returns the leaf link to the hub at url, signed with the node's key.
func (id Identity) Leaf(url string) (*embeddednats.Leaf, error) {
	if _, err := nkeys.FromSeed([]byte(id.Seed)); err != nil {
		return nil, fmt.Errorf("read the node key: %w", err)
	}
	return &embeddednats.Leaf{URL: url, Seed: id.Seed}, nil
}

func identityPath(stateDir string) string { return filepath.Join(stateDir, identityName) }

// IdentityFile is the file in stateDir that holds a joined clone's node
// identity; Join refuses a clone that has one.
func IdentityFile(stateDir string) string { return identityPath(stateDir) }

// Key is the node's key as node.CheckpointKey: it signs the ledger's
// checkpoints.
type Key struct{ id Identity }

// Key returns the node's signing key.
func (id Identity) Key() Key { return Key{id} }

// NodeID returns the node's id.
func (k Key) NodeID() string { return k.id.NodeID }

// Sign signs msg with the node's key.
func (k Key) Sign(msg []byte) ([]byte, error) {
	kp, err := nkeys.FromSeed([]byte(k.id.Seed))
	if err != nil {
		return nil, fmt.Errorf("read the node key: %w", err)
	}
	return kp.Sign(msg)
}

// Verify returns nil if sig is the node key's signature of msg.
func (k Key) Verify(msg, sig []byte) error {
	kp, err := nkeys.FromSeed([]byte(k.id.Seed))
	if err != nil {
		return fmt.Errorf("read the node key: %w", err)
	}
	if err := kp.Verify(msg, sig); err != nil {
		return fmt.Errorf("verify a signature of node %s: %w", k.id.NodeID, err)
	}
	return nil
}
