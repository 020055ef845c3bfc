package projections

import (
	"slices"
	"sync"

	"github.com/clumsies/clumsies/content"
)

// rowCache keeps the bodies and constraints of the objects read last, and
// the hash of the constraints, so that an agent loading the same few
// objects again and again does not read and decode their rows, nor hash
// the constraints, every time. It is bounded by entries and by
// bytes; an entry is valid for the publish (the sequence) it was read at.
type rowCache struct {
	mu    sync.Mutex
	m     map[string]cachedRow
	bytes int
}

type cachedRow struct {
	seq         uint64
	body        string
	constraints []content.Constraint
	// constraintsHash is ConstraintsHash(constraints).
	constraintsHash string
	size            int
}

// Bounds of the row cache: a tool process keeps about 1 MiB of texts.
const (
	rowCacheEntries = 256
	rowCacheBytes   = 1 << 20
)

func (c *rowCache) get(id string, seq uint64) (cachedRow, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	r, ok := c.m[id]
	return r, ok && r.seq == seq
}

// put keeps r for id, evicting entries (any) until both bounds hold. An
// entry larger than a quarter of the byte bound is not kept.
func (c *rowCache) put(id string, r cachedRow) {
	r.size = len(r.body)
	for _, k := range r.constraints {
		r.size += len(k.ID) + len(k.Name) + len(k.Text) + len(k.TextHash)
	}
	if r.size > rowCacheBytes/4 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = make(map[string]cachedRow)
	}
	if old, ok := c.m[id]; ok {
		c.bytes -= old.size
		delete(c.m, id)
	}
	for k, old := range c.m {
		if len(c.m) < rowCacheEntries && c.bytes+r.size <= rowCacheBytes {
			break
		}
		c.bytes -= old.size
		delete(c.m, k)
	}
	c.m[id] = r
	c.bytes += r.size
}

// clear drops every entry (the state was replaced).
func (c *rowCache) clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	clear(c.m)
	c.bytes = 0
}

// published returns the body, the constraints and their hash
// (ConstraintsHash) of published object o, from the cache or from its
// rows. The caller holds s.mu and has checked that the store is open. The
// constraints are the caller's to change.
func (s *Store) published(o *object) (cachedRow, error) {
	id := o.ID()
	r, ok := s.rows.get(id, o.seq())
	if !ok {
		body, err := s.body(id)
		if err != nil {
			return cachedRow{}, err
		}
		var cs []content.Constraint
		if o.constraintCount() > 0 {
			row, err := s.objectRow(id)
			if err != nil {
				return cachedRow{}, err
			}
			cs = row.Constraints
		}
		r = cachedRow{seq: o.seq(), body: body, constraints: cs, constraintsHash: ConstraintsHash(cs)}
		s.rows.put(id, r)
	}
	r.constraints = slices.Clone(r.constraints)
	return r, nil
}
