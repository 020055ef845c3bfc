package projections

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash"
)

// Digest returns "sha256:<hex>" over every key and value of the store in
// key order, each written as its length (uvarint) and its bytes. Two stores
// hold equal read models exactly when their digests are equal; Rebuild and
// `clumsies verify` use it to show that replaying the ledger gives the same
// bytes. The rows are those of the registered read models and the meta
// rows: a row of no model fails the digest with an error wrapping
// ErrCorrupt. It returns ErrClosed after Close and the storage error if
// the store cannot be read.
func (s *Store) Digest() (string, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed.Load() {
		return "", ErrClosed
	}
	it, err := s.db.NewIter(nil)
	if err != nil {
		return "", fmt.Errorf("digest %s: %w", s.dir, err)
	}
	defer it.Close()
	h := sha256.New()
	for ok := it.First(); ok; ok = it.Next() {
		if !bytes.HasPrefix(it.Key(), []byte(prefixMeta)) && s.st.owner(string(it.Key())) == nil {
			return "", fmt.Errorf("digest %s: %w: row %q belongs to no read model; %s", s.dir, ErrCorrupt, it.Key(), rebuildHint)
		}
		v, err := it.ValueAndErr()
		if err != nil {
			return "", fmt.Errorf("digest %s: read %q: %w", s.dir, it.Key(), err)
		}
		writeField(h, it.Key())
		writeField(h, v)
	}
	if err := it.Error(); err != nil {
		return "", fmt.Errorf("digest %s: %w", s.dir, err)
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}

// writeField writes b to h prefixed with its length, so that no two
// sequences of keys and values hash the same bytes.
func writeField(h hash.Hash, b []byte) {
	h.Write(binary.AppendUvarint(nil, uint64(len(b))))
	h.Write(b)
}
