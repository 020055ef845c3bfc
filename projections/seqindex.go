package projections

import (
	"context"
	"encoding/binary"
	"fmt"
	"math/bits"
	"strings"

	"github.com/clumsies/clumsies/projections/engine"
)

// seqIndex is an index of the ledger: for each id (a session, a rule), the
// sequences of its events, kept as bitmaps of 256 sequences per row:
// <prefix><id>\x00<seq/256 u64> holds 4×u64, bit s%256 set for each
// sequence s of the id in that range. A row depends only on the set of
// sequences, never on how events were batched, and a batch writes one row
// per id it touched rather than one per event. Memory holds the newest
// row of each id (sequences only grow, so no older row changes again).
type seqIndex struct {
	prefix  string
	last    map[string]*seqBucket
	touched map[string]struct{}
	// done holds rows that were touched since the last write and then
	// left for a newer one: written at the next write too.
	done []doneBucket
}

type doneBucket struct {
	id string
	b  *seqBucket
}

type seqBucket struct {
	n    uint64    // seq / seqBucketSize
	bits [4]uint64 // bit i: sequence n*256+i
}

const seqBucketSize = 256

func newSeqIndex(prefix string) *seqIndex {
	return &seqIndex{prefix: prefix, last: make(map[string]*seqBucket), touched: make(map[string]struct{})}
}

func (x *seqIndex) add(id string, seq uint64) {
	b := x.last[id]
	if b == nil || b.n != seq/seqBucketSize {
		if _, dirty := x.touched[id]; dirty && b != nil {
			x.done = append(x.done, doneBucket{id, b})
		}
		b = &seqBucket{n: seq / seqBucketSize}
		x.last[id] = b
	}
	i := seq % seqBucketSize
	b.bits[i/64] |= 1 << (i % 64)
	x.touched[id] = struct{}{}
}

func (x *seqIndex) key(id string, n uint64) []byte {
	k := make([]byte, 0, len(x.prefix)+len(id)+9)
	k = append(k, x.prefix...)
	k = append(k, id...)
	k = append(k, 0)
	return binary.BigEndian.AppendUint64(k, n)
}

func (x *seqIndex) write(w *engine.RowWriter) {
	put := func(id string, b *seqBucket) {
		v := make([]byte, 0, 32)
		for _, word := range b.bits {
			v = binary.BigEndian.AppendUint64(v, word)
		}
		w.Set(x.key(id, b.n), v)
	}
	for _, d := range x.done {
		put(d.id, d.b)
	}
	for id := range x.touched {
		put(id, x.last[id])
	}
	clear(x.touched)
	x.done = x.done[:0]
}

// load reads one row back; rows of an id come in key order, so the last
// one kept is the newest.
func (x *seqIndex) load(k string, v []byte) error {
	id, n, err := x.parse(k)
	if err != nil {
		return err
	}
	b, err := decodeBucket(n, v)
	if err != nil {
		return err
	}
	x.last[id] = b
	return nil
}

func (x *seqIndex) parse(k string) (id string, n uint64, err error) {
	rest := k[len(x.prefix):]
	if len(rest) < 9 || rest[len(rest)-9] != 0 {
		return "", 0, fmt.Errorf("index key %q: want <id>\\x00<u64>", k)
	}
	return rest[:len(rest)-9], binary.BigEndian.Uint64([]byte(rest[len(rest)-8:])), nil
}

func decodeBucket(n uint64, v []byte) (*seqBucket, error) {
	if len(v) != 32 {
		return nil, fmt.Errorf("index row: want 32 bytes, got %d", len(v))
	}
	b := &seqBucket{n: n}
	for i := range b.bits {
		b.bits[i] = binary.BigEndian.Uint64(v[8*i:])
	}
	return b, nil
}

// newest returns the newest limit sequences of id in the index under
// prefix (all when limit <= 0), newest first, and whether older ones were
// left out.
func (s *Store) newest(ctx context.Context, prefix, id string, limit int) ([]uint64, bool, error) {
	if err := ctx.Err(); err != nil {
		return nil, false, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed.Load() {
		return nil, false, ErrClosed
	}
	lower := prefix + id + "\x00"
	it, err := s.db.NewIter(nil)
	if err != nil {
		return nil, false, fmt.Errorf("read %s%s: %w", prefix, id, err)
	}
	defer it.Close()
	var out []uint64
	for ok := it.SeekLT([]byte(prefix + id + "\x01")); ok && strings.HasPrefix(string(it.Key()), lower); ok = it.Prev() {
		k := string(it.Key())
		if len(k) != len(lower)+8 {
			continue
		}
		v, err := it.ValueAndErr()
		if err != nil {
			return nil, false, fmt.Errorf("read %q: %w", k, err)
		}
		b, err := decodeBucket(binary.BigEndian.Uint64([]byte(k[len(lower):])), v)
		if err != nil {
			return nil, false, fmt.Errorf("read %q: %w", k, err)
		}
		for w := len(b.bits) - 1; w >= 0; w-- {
			for word := b.bits[w]; word != 0; {
				top := 63 - bits.LeadingZeros64(word)
				word &^= 1 << top
				if limit > 0 && len(out) == limit {
					return out, true, nil
				}
				out = append(out, b.n*seqBucketSize+uint64(w*64+top))
			}
		}
	}
	return out, false, it.Error()
}
