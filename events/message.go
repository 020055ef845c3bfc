package events

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
)

// MessageDigest identifies one stored message on its own, apart from the
// chain: the first 8 bytes of SHA-256 over its sequence (8 bytes,
// big-endian), the length of its bytes (8 bytes, big-endian) and the
// bytes exactly as the log stores them (Event.Raw). The read models keep
// one per message they apply, so that verify can tell each message
// rewritten since, even after an earlier one broke the chain (a chance
// of 2^-64 to miss one).
type MessageDigest [8]byte

// String renders d as 16 lowercase hex digits.
func (d MessageDigest) String() string { return hex.EncodeToString(d[:]) }

// MessageDigester computes MessageDigests, reusing one buffer.
type MessageDigester struct{ buf []byte }

// Digest returns the MessageDigest of the stored message raw at seq.
func (m *MessageDigester) Digest(seq uint64, raw []byte) MessageDigest {
	m.buf = binary.BigEndian.AppendUint64(m.buf[:0], seq)
	m.buf = binary.BigEndian.AppendUint64(m.buf, uint64(len(raw)))
	m.buf = append(m.buf, raw...)
	sum := sha256.Sum256(m.buf)
	return MessageDigest(sum[:8])
}
