package projections

import (
	"encoding/binary"
	"fmt"

	"github.com/clumsies/clumsies/events"
)

// chainAt is the chain digest through one sequence, as the chain model
// computed it when it applied the event.
type chainAt struct {
	seq    uint64
	digest events.ChainDigest
}

func chainAtKey(seq uint64) []byte {
	return binary.BigEndian.AppendUint64([]byte(prefixChainAt), seq)
}

// chainAtChunk is how many sequences a ChainMemory reads at a time.
const chainAtChunk = 4096

// ChainMemory reads back the chain digests the read models recorded as
// they applied the log, one per sequence: what the ledger held when they
// applied it, whatever it holds now. Asked in increasing order of
// sequence, it reads the store a chunk at a time, holding the store's lock
// only while it reads one.
type ChainMemory struct {
	s       *Store
	from    uint64 // the chunk holds from..from+len(have)-1
	have    []bool
	digests []events.ChainDigest
}

// ChainMemory returns a reader of the digests recorded per sequence.
func (s *Store) ChainMemory() *ChainMemory { return &ChainMemory{s: s} }

// ChainAt returns the chain digest through seq that the read models
// recorded when they applied it; ok is false when they hold none (they
// never applied seq, or were rebuilt since, or keep no chain).
func (m *ChainMemory) ChainAt(seq uint64) (d events.ChainDigest, ok bool, err error) {
	if seq < m.from || seq >= m.from+uint64(len(m.have)) {
		if err := m.read(seq); err != nil {
			return d, false, err
		}
	}
	i := seq - m.from
	return m.digests[i], m.have[i], nil
}

// read loads the chunk that starts at seq.
func (m *ChainMemory) read(seq uint64) error {
	s := m.s
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed.Load() {
		return ErrClosed
	}
	if m.have == nil {
		m.have, m.digests = make([]bool, chainAtChunk), make([]events.ChainDigest, chainAtChunk)
	}
	clear(m.have)
	m.from = seq
	it, err := s.db.NewIter(nil)
	if err != nil {
		return fmt.Errorf("read the recorded chain from seq %d: %w", seq, err)
	}
	defer it.Close()
	end := chainAtKey(seq + chainAtChunk)
	for ok := it.SeekGE(chainAtKey(seq)); ok && string(it.Key()) < string(end); ok = it.Next() {
		k := it.Key()
		v, err := it.ValueAndErr()
		if err != nil {
			return fmt.Errorf("read the recorded chain at %q: %w", k, err)
		}
		if len(k) != len(prefixChainAt)+8 || len(v) != len(events.ChainDigest{}) {
			return fmt.Errorf("read the recorded chain: %w: row %q holds %d bytes", ErrCorrupt, k, len(v))
		}
		i := binary.BigEndian.Uint64(k[len(prefixChainAt):]) - seq
		m.have[i] = true
		copy(m.digests[i][:], v)
	}
	if err := it.Error(); err != nil {
		return fmt.Errorf("read the recorded chain from seq %d: %w", seq, err)
	}
	return nil
}
