package hubwire

import (
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nkeys"
)

// nodeAuthSkew bounds how far a node's signed timestamp may be from the
// hub's clock.
const nodeAuthSkew = 5 * time.Minute

// NodeAuthScheme is the Authorization scheme a node signs its requests
// with: "Node <unix ms>.<base64url signature of NodeAuthMessage>".
const NodeAuthScheme = "Node "

// NodeAuthMessage is what a node signs with its nkey to ask the hub about
// itself at time ms (unix milliseconds).
func NodeAuthMessage(nodeID string, ms int64) []byte {
	return []byte("clumsies-node-status:" + nodeID + ":" + strconv.FormatInt(ms, 10))
}

// SignNode returns the Authorization header of a request of node nodeID
// at now, signed with the node's nkey seed.
func SignNode(nodeID, seed string, now time.Time) (string, error) {
	kp, err := nkeys.FromSeed([]byte(seed))
	if err != nil {
		return "", fmt.Errorf("read the node key: %w", err)
	}
	ms := now.UnixMilli()
	sig, err := kp.Sign(NodeAuthMessage(nodeID, ms))
	if err != nil {
		return "", fmt.Errorf("sign the request: %w", err)
	}
	return NodeAuthScheme + strconv.FormatInt(ms, 10) + "." + base64.RawURLEncoding.EncodeToString(sig), nil
}

// VerifyNode reports whether header is the Authorization header of a
// request of node nodeID, whose public nkey is publicKey, signed within
// nodeAuthSkew of now.
func VerifyNode(nodeID, publicKey, header string, now time.Time) bool {
	rest, ok := strings.CutPrefix(header, NodeAuthScheme)
	if !ok {
		return false
	}
	msText, sigText, ok := strings.Cut(rest, ".")
	if !ok {
		return false
	}
	ms, err := strconv.ParseInt(msText, 10, 64)
	if err != nil {
		return false
	}
	if d := now.Sub(time.UnixMilli(ms)); d > nodeAuthSkew || d < -nodeAuthSkew {
		return false
	}
	sig, err := base64.RawURLEncoding.DecodeString(sigText)
	if err != nil {
		return false
	}
	kp, err := nkeys.FromPublicKey(publicKey)
	if err != nil {
		return false
	}
	return kp.Verify(NodeAuthMessage(nodeID, ms), sig) == nil
}
