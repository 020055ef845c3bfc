package hub

import (
	"slices"
	"strings"
	"sync"
)

// Bounds of each of the projector's stats caches (statsCaches): the
// answers it keeps at one checkpoint, and what they may weigh (sizeOf).
const (
	statsCacheEntries = 16
	statsCacheBytes   = 64 << 20
)

// statsKey names one answer the projector computes: q's window (its
// days, resolved) and filters. The period is not in it: the answer is
// kept with a daily trend, which gives the others.
type statsKey struct {
	from, to                string
	teams                   string
	workspace, rule, member string
}

// keyOf returns the key of q's answer over the days from to to.
func keyOf(q Query, from, to string) statsKey {
	teams := "*" // every team: a nil Teams
	if q.Teams != nil {
		teams = sep + strings.Join(slices.Sorted(slices.Values(q.Teams)), sep)
	}
	return statsKey{from: from, to: to, teams: teams, workspace: q.Workspace, rule: q.Rule, member: q.Member}
}

// checkpointCache keeps the answers computed from the read models at
// their latest checkpoint, so that the summary and every page of a list
// read at that checkpoint cost one computation: the rows under a
// checkpoint never change (they are committed with it, by the projector
// alone), and the projector is deterministic. Answers of an older
// checkpoint are dropped when a newer one is first asked for, or
// committed (moved), whichever comes first: a hub under load that no one
// reads keeps none; an answer computed from a snapshot older than the
// latest is not kept. It holds at most max answers weighing at most
// maxBytes (statsCacheEntries and statsCacheBytes when zero), dropping
// the least recently used; an answer that alone weighs more is answered
// but not kept, so that what the cache holds never grows with the
// history an answer covers (the pages read after it compute it again).
// A request for an answer being computed waits for it instead of
// computing it again.
type checkpointCache[V any] struct {
	max, maxBytes int

	mu      sync.Mutex
	applied uint64
	entries map[statsKey]*cacheEntry[V]
	order   []statsKey // least recently used first
	bytes   int
	// computed counts the answers computed, kept or not.
	computed uint64
}

// cacheEntry is an answer, or one being computed until done is closed.
type cacheEntry[V any] struct {
	done chan struct{}
	v    V
	err  error
	size int
}

// get returns the answer of k at checkpoint applied, computing it with
// compute unless the cache holds it or is computing it. Callers must not
// change what the answer refers to: it is shared.
func (c *checkpointCache[V]) get(applied uint64, k statsKey, compute func() (V, error)) (V, error) {
	c.mu.Lock()
	if c.max == 0 {
		c.max, c.maxBytes = statsCacheEntries, statsCacheBytes
	}
	if applied > c.applied || c.entries == nil {
		c.reset(applied)
	}
	if applied < c.applied {
		c.computed++
		c.mu.Unlock()
		return compute()
	}
	if e, ok := c.entries[k]; ok {
		c.touch(k)
		c.mu.Unlock()
		<-e.done
		return e.v, e.err
	}
	e := &cacheEntry[V]{done: make(chan struct{})}
	c.entries[k] = e
	c.order = append(c.order, k)
	c.computed++
	c.mu.Unlock()

	e.v, e.err = compute()
	if e.err == nil {
		e.size = sizeOf(e.v)
	}
	c.mu.Lock()
	if c.entries[k] == e { // not dropped for a newer checkpoint meanwhile
		if e.err != nil {
			c.drop(k)
		} else {
			c.bytes += e.size
			c.fit(k)
		}
	}
	c.mu.Unlock()
	close(e.done)
	return e.v, e.err
}

// fit drops k's answer if it alone weighs more than maxBytes, then the
// least recently used answers but k's until the cache is within its
// bounds.
func (c *checkpointCache[V]) fit(k statsKey) {
	if c.entries[k].size > c.maxBytes {
		c.drop(k)
	}
	for _, o := range slices.Clone(c.order) {
		if len(c.order) <= c.max && c.bytes <= c.maxBytes {
			return
		}
		if o != k {
			c.drop(o)
		}
	}
}

// moved drops the answers of checkpoints older than applied, the read
// models' checkpoint just committed: no read at applied or later takes
// them, and a read of an older snapshot computes its own answer.
func (c *checkpointCache[V]) moved(applied uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if applied > c.applied {
		c.reset(applied)
	}
}

// reset empties the cache for checkpoint applied; the caller holds mu.
func (c *checkpointCache[V]) reset(applied uint64) {
	c.applied, c.entries, c.order, c.bytes = applied, map[statsKey]*cacheEntry[V]{}, nil, 0
}

// touch makes k the most recently used.
func (c *checkpointCache[V]) touch(k statsKey) {
	if i := slices.Index(c.order, k); i >= 0 {
		c.order = append(slices.Delete(c.order, i, i+1), k)
	}
}

// drop forgets k's answer.
func (c *checkpointCache[V]) drop(k statsKey) {
	if e, ok := c.entries[k]; ok {
		c.bytes -= e.size
		delete(c.entries, k)
	}
	c.order = slices.DeleteFunc(c.order, func(o statsKey) bool { return o == k })
}

// held returns how many answers the cache holds and what they weigh.
func (c *checkpointCache[V]) held() (entries, bytes int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries), c.bytes
}
