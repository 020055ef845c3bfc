package hub

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/nats-io/nkeys"

	"github.com/clumsies/clumsies/events"
)

// tokenPrefix starts every join token.
const tokenPrefix = "clj1."

// JoinToken is what `clumsies hub invite` prints and `clumsies hub join`
// takes: where the hub is, and the one-time secret of the invite.
type JoinToken struct {
	// HTTP is the hub's API, where the node registers.
	HTTP string `json:"h"`
	// Leaf is the hub's leaf-node URL, which the node's owner dials.
	Leaf string `json:"l"`
	// Secret is the invite's one-time secret.
	Secret string `json:"s"`
}

// Encode renders the token as one opaque word.
func (t JoinToken) Encode() string {
	b, _ := json.Marshal(t)
	return tokenPrefix + base64.RawURLEncoding.EncodeToString(b)
}

// ParseJoinToken reads a token made by Encode.
func ParseJoinToken(s string) (JoinToken, error) {
	var t JoinToken
	rest, ok := strings.CutPrefix(strings.TrimSpace(s), tokenPrefix)
	if !ok {
		return t, fmt.Errorf("%w: a join token starts with %q; copy the whole token `clumsies hub invite` printed", ErrInvalid, tokenPrefix)
	}
	b, err := base64.RawURLEncoding.DecodeString(rest)
	if err == nil {
		err = json.Unmarshal(b, &t)
	}
	if err != nil || t.HTTP == "" || t.Leaf == "" || t.Secret == "" {
		return t, fmt.Errorf("%w: the join token is damaged; copy it again", ErrInvalid)
	}
	return t, nil
}

// validNodeID reports whether id is n-<16 lowercase hex>.
func validNodeID(id string) bool {
	rest, ok := strings.CutPrefix(id, "n-")
	if !ok || len(rest) != 16 {
		return false
	}
	for i := 0; i < len(rest); i++ {
		if c := rest[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

func validPublicKey(k string) bool { return nkeys.IsValidPublicUserKey(k) }

func validWorkspaceID(ws string) bool { return events.ValidWorkspaceID(ws) }
