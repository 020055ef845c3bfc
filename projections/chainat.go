package projections

import (
	"encoding/binary"
	"fmt"

	"github.com/cockroachdb/pebble/v2"

	"github.com/clumsies/clumsies/events"
)

// The digests of the messages the read models applied
// (events.MessageDigest) are packed in blocks of chainBlockLen sequences:
// block b holds seqs b*chainBlockLen+1 through (b+1)*chainBlockLen, one
// row keyed prefixChainAt + b (big-endian) whose value is the digest of
// each of them in order, digestLen bytes each, up to the last one
// applied; a sequence not applied holds zeros. One row of at most 512
// bytes per block, instead of a row per message, keeps what a rebuild
// writes for them to 8 bytes a message.
const (
	chainBlockLen = 64
	digestLen     = len(events.MessageDigest{})
)

// chainBlockOf returns the block of seq and its place in the block.
func chainBlockOf(seq uint64) (block uint64, i int) {
	return (seq - 1) / chainBlockLen, int((seq - 1) % chainBlockLen)
}

func chainBlockKey(block uint64) []byte {
	return binary.BigEndian.AppendUint64([]byte(prefixChainAt), block)
}

// decodeChainBlock checks the row of a block, keyed k with value v, and
// returns its block index.
func decodeChainBlock(k, v []byte) (uint64, error) {
	if len(k) != len(prefixChainAt)+8 || len(v) == 0 || len(v)%digestLen != 0 || len(v) > chainBlockLen*digestLen {
		return 0, fmt.Errorf("%w: chain row %q holds %d bytes", ErrCorrupt, k, len(v))
	}
	return binary.BigEndian.Uint64(k[len(prefixChainAt):]), nil
}

// chainBlock is a block of recorded digests as the chain model fills it.
type chainBlock struct {
	index uint64
	at    []byte // digestLen bytes per sequence from the block's first
}

// put records d as the digest of the i-th sequence of the block.
func (b *chainBlock) put(i int, d events.MessageDigest) {
	if n := (i + 1) * digestLen; len(b.at) < n {
		b.at = append(b.at, make([]byte, n-len(b.at))...)
	}
	copy(b.at[i*digestLen:], d[:])
}

// resume reads back the block of seq, the last one applied, so that the
// digests after it join those already on disk.
func (m *chainModel) resume(r pebble.Reader) error {
	if m.off || m.row.Seq == 0 {
		return nil
	}
	block, _ := chainBlockOf(m.row.Seq)
	k := chainBlockKey(block)
	v, closer, err := r.Get(k)
	switch {
	case err == pebble.ErrNotFound:
		m.cur = chainBlock{index: block}
		return nil
	case err != nil:
		return fmt.Errorf("read the chain row %q: %w", k, err)
	}
	defer closer.Close()
	if _, err := decodeChainBlock(k, v); err != nil {
		return err
	}
	m.cur = chainBlock{index: block, at: append([]byte(nil), v...)}
	return nil
}

// ChainMemory reads back the digests of the messages the read models
// applied, one per sequence: what the ledger held when they applied it,
// whatever it holds now. Asked in increasing order of
// sequence, it reads the store a chunk of blocks at a time, holding the
// store's lock only while it reads one.
type ChainMemory struct {
	s       *Store
	from    uint64 // the chunk holds from..from+len(have)-1
	have    []bool
	digests []events.MessageDigest
}

// chainAtChunk is how many blocks a ChainMemory reads at a time.
const chainAtChunk = 64

// ChainMemory returns a reader of the message digests recorded per
// sequence.
func (s *Store) ChainMemory() *ChainMemory { return &ChainMemory{s: s} }

// MessageAt returns the digest of the message at seq that the read
// models recorded when they applied it; ok is false when they hold none
// (they never applied seq, or were rebuilt since, or keep no chain).
func (m *ChainMemory) MessageAt(seq uint64) (d events.MessageDigest, ok bool, err error) {
	if seq == 0 {
		return d, false, nil
	}
	if seq < m.from || seq >= m.from+uint64(len(m.have)) {
		if err := m.read(seq); err != nil {
			return d, false, err
		}
	}
	i := seq - m.from
	return m.digests[i], m.have[i], nil
}

// read loads the chunk of blocks that starts with the block of seq.
func (m *ChainMemory) read(seq uint64) error {
	s := m.s
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed.Load() {
		return ErrClosed
	}
	if m.have == nil {
		m.have, m.digests = make([]bool, chainAtChunk*chainBlockLen), make([]events.MessageDigest, chainAtChunk*chainBlockLen)
	}
	clear(m.have)
	first, _ := chainBlockOf(seq)
	m.from = first*chainBlockLen + 1
	it, err := s.db.NewIter(nil)
	if err != nil {
		return fmt.Errorf("read the recorded chain from seq %d: %w", seq, err)
	}
	defer it.Close()
	end := chainBlockKey(first + chainAtChunk)
	for ok := it.SeekGE(chainBlockKey(first)); ok && string(it.Key()) < string(end); ok = it.Next() {
		k := it.Key()
		v, err := it.ValueAndErr()
		if err != nil {
			return fmt.Errorf("read the recorded chain at %q: %w", k, err)
		}
		block, err := decodeChainBlock(k, v)
		if err != nil {
			return fmt.Errorf("read the recorded chain: %w", err)
		}
		base := (block - first) * chainBlockLen
		for j := 0; j*digestLen < len(v); j++ {
			d := m.digests[base+uint64(j)][:]
			copy(d, v[j*digestLen:])
			m.have[base+uint64(j)] = !allZero(d)
		}
	}
	if err := it.Error(); err != nil {
		return fmt.Errorf("read the recorded chain from seq %d: %w", seq, err)
	}
	return nil
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}
