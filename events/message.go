package events

import (
	"encoding/binary"
	"encoding/hex"
	"hash/crc32"
)

// MessageDigest identifies one stored message on its own, apart from the
// chain: CRC-32C (Castagnoli) then CRC-32 (IEEE), each big-endian, over
// its sequence (8 bytes, big-endian), the length of its bytes (8 bytes,
// big-endian) and the bytes exactly as the log stores them (Event.Raw).
// The read models keep one per message they apply, so that verify can
// name each message rewritten since, even after an earlier one broke the
// chain: a change is missed with a chance of 2^-64, and never when it
// spans 32 bits or fewer. It is a checksum, not a cryptographic digest:
// the read models are no proof of anything (they can be rebuilt); the
// chain and the signed checkpoints are, and stay SHA-256. A checksum
// costs a fifth of a second SHA-256 over every message.
type MessageDigest [8]byte

// String renders d as 16 lowercase hex digits.
func (d MessageDigest) String() string { return hex.EncodeToString(d[:]) }

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// MessageDigester computes MessageDigests.
type MessageDigester struct{ head [16]byte }

// Digest returns the MessageDigest of the stored message raw at seq.
func (m *MessageDigester) Digest(seq uint64, raw []byte) MessageDigest {
	binary.BigEndian.PutUint64(m.head[:8], seq)
	binary.BigEndian.PutUint64(m.head[8:], uint64(len(raw)))
	var d MessageDigest
	binary.BigEndian.PutUint32(d[:4], crc32.Update(crc32.Update(0, castagnoli, m.head[:]), castagnoli, raw))
	binary.BigEndian.PutUint32(d[4:], crc32.Update(crc32.ChecksumIEEE(m.head[:]), crc32.IEEETable, raw))
	return d
}
