package hubwire

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
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
		return t, fmt.Errorf("%w: a join token starts with %q; copy the whole token `clumsies hub invite` printed", ErrBadJoinToken, tokenPrefix)
	}
	b, err := base64.RawURLEncoding.DecodeString(rest)
	if err == nil {
		err = json.Unmarshal(b, &t)
	}
	if err != nil || t.HTTP == "" || t.Leaf == "" || t.Secret == "" {
		return t, fmt.Errorf("%w: the join token is damaged; copy it again", ErrBadJoinToken)
	}
	return t, nil
}
