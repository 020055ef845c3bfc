package events

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
)

// TypeCheckpoint is the event a workspace's owner appends every so many
// events and when it shuts down: it pins the ledger's hash chain at a
// sequence, so that a stored message rewritten, removed or rolled back
// afterwards shows. It is neither a tool call nor part of an aggregate.
const TypeCheckpoint Type = "ledger.checkpoint"

// CheckpointData is the payload of ledger.checkpoint.
type CheckpointData struct {
	// Seq is the sequence the digest covers: every stored message up to
	// and including Seq. A checkpoint is stored after what it covers,
	// within CheckpointWindow messages (at Seq+1 when nothing else was
	// appended meanwhile).
	Seq uint64 `json:"seq"`
	// Digest is the chain digest through Seq ("sha256:<64 hex>").
	Digest string `json:"digest"`
	// Node is the id of the node whose key signed the checkpoint, when
	// the workspace has a node identity.
	Node string `json:"node,omitempty"`
	// Signature is the node key's signature of "<workspaceId> <seq>
	// <digest>", when the workspace has a node identity.
	Signature string `json:"signature,omitempty"`
}

// CheckpointWindow bounds how far after the sequence it covers a
// checkpoint may be stored: its writer appends it once the projections
// have caught up, and other processes' events may land in between.
const CheckpointWindow = 1 << 16

// ChainDigest is one link of a ledger's hash chain: a SHA-256 over the
// previous link and one stored message.
type ChainDigest [sha256.Size]byte

// ChainStart returns the digest the chain of workspaceID starts from,
// before its first event.
func ChainStart(workspaceID string) ChainDigest {
	return sha256.Sum256([]byte("clumsies ledger chain v1\x00" + workspaceID))
}

// Next returns the chain digest after the stored message raw at sequence
// seq: SHA-256 of the previous digest, seq (8 bytes, big-endian), the
// length of raw (8 bytes, big-endian) and raw itself. raw is the message
// exactly as the log stores it (Event.Raw), so that any change to the
// stored bytes, or to the sequence they are stored at, changes every
// digest after it.
func (d ChainDigest) Next(seq uint64, raw []byte) ChainDigest {
	var buf [sha256.Size + 16]byte
	copy(buf[:], d[:])
	binary.BigEndian.PutUint64(buf[sha256.Size:], seq)
	binary.BigEndian.PutUint64(buf[sha256.Size+8:], uint64(len(raw)))
	h := sha256.New()
	h.Write(buf[:])
	h.Write(raw)
	var out ChainDigest
	h.Sum(out[:0])
	return out
}

// String renders d as "sha256:<64 lowercase hex>".
func (d ChainDigest) String() string { return "sha256:" + hex.EncodeToString(d[:]) }

// ParseChainDigest parses the form String writes. It returns an error
// wrapping ErrMalformed for anything else.
func ParseChainDigest(s string) (ChainDigest, error) {
	var d ChainDigest
	h, ok := strings.CutPrefix(s, "sha256:")
	if !ok || len(h) != 2*len(d) {
		return d, fmt.Errorf("%w: chain digest %q is not sha256:<64 hex>", ErrMalformed, s)
	}
	if _, err := hex.Decode(d[:], []byte(h)); err != nil {
		return d, fmt.Errorf("%w: chain digest %q: %v", ErrMalformed, s, err)
	}
	return d, nil
}

// CheckpointMessage is what a node's key signs for a checkpoint of the
// ledger of workspaceID: "<workspaceId> <seq> <digest>".
func CheckpointMessage(workspaceID string, seq uint64, digest string) []byte {
	return []byte(workspaceID + " " + strconv.FormatUint(seq, 10) + " " + digest)
}
