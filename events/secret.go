package events

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
)

// A session secret binds an agent session to whoever set it up: the
// host's session-start hook hands the agent one with its session id, or a
// memsetup where no hook ran issues one. A call that has no connection
// bound to the session, and a memsetup of the session from another
// connection, must present it. The ledger keeps only its hash
// (SecretHash); the secret itself is never recorded.

// Bindings: how a session was bound to whoever set it up.
const (
	// BoundByHook: the session's secret came from the host's
	// session-start hook.
	BoundByHook = "hook"
	// BoundByMemsetup: no hook ran; memsetup issued the secret (or took
	// the one the agent brought).
	BoundByMemsetup = "memsetup"
)

// NewSessionSecret returns a fresh secret: "css-" and 32 lowercase hex
// digits (128 random bits).
func NewSessionSecret() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand never fails on supported platforms
	return "css-" + hex.EncodeToString(b[:])
}

// SecretHash is what the ledger keeps of a secret: "sha256:<64 hex>".
func SecretHash(secret string) string {
	h := sha256.Sum256([]byte(secret))
	return "sha256:" + hex.EncodeToString(h[:])
}

// SecretMatches reports whether secret hashes to hash, in constant time.
func SecretMatches(secret, hash string) bool {
	return subtle.ConstantTimeCompare([]byte(SecretHash(secret)), []byte(hash)) == 1
}

// MaxSecret bounds a session secret an agent passes, in bytes.
const MaxSecret = 128
