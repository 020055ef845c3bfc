package projections

import "fmt"

// ModelPrefixes returns the key prefix of every read model of the
// registry, in registry order.
func ModelPrefixes() []string {
	var out []string
	for _, m := range newState().models.Models() {
		out = append(out, m.Prefixes()...)
	}
	return out
}

// MetaPrefix is the prefix of the store core's rows.
const MetaPrefix = prefixMeta

// RawKeys returns every key of the store, in key order.
func (s *Store) RawKeys() ([]string, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	it, err := s.db.NewIter(nil)
	if err != nil {
		return nil, err
	}
	defer it.Close()
	var out []string
	for ok := it.First(); ok; ok = it.Next() {
		out = append(out, string(it.Key()))
	}
	return out, it.Error()
}

// SetRaw writes one row behind the projector's back, as a foreign writer
// of the database would.
func (s *Store) SetRaw(key, value string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.db.Set([]byte(key), []byte(value), nil); err != nil {
		return fmt.Errorf("set %q: %w", key, err)
	}
	return nil
}

// MemTables returns the bytes of pebble's memtables (the one in use, those
// being flushed, and the one kept for reuse) and the flushes so far.
func (s *Store) MemTables() (bytes uint64, flushes int64) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	m := s.db.Metrics()
	return m.MemTable.Size + m.MemTable.ZombieSize, m.Flush.Count
}
