package hub

import (
	"slices"
	"sync"

	"github.com/cockroachdb/pebble/v2"
)

// Bounds of the caches of the days' parts of the stats (dayCache): a
// window of a year under a handful of filters, and what the parts of
// each kind may weigh (sizeOf): the counters' (a day's counters of 50
// workspaces using 67 rules each weigh about 1 MiB), the sessions'.
const (
	statsDayEntries       = 2048
	statsDayCountsBytes   = 64 << 20
	statsDaySessionsBytes = 32 << 20
)

// dayCache keeps the part of an answer each day of its window gives, per
// query (its filters; the key's from and to are the day), with the
// versions of the day it was computed at (statsVersions): a read after a
// change computes the parts of the days the change touched, and takes
// the others as they were. A part is good for any snapshot whose versions
// of its day are the part's, so that reads of older and newer snapshots
// share it. It holds at most max parts weighing at most maxBytes
// (statsDayEntries and the bound of the kind whose versions it reads when
// zero), dropping the least recently used; a part that alone weighs more
// is answered but not kept.
type dayCache[V any] struct {
	max, maxBytes int

	mu      sync.Mutex
	entries map[statsKey]dayEntry[V]
	order   []statsKey // least recently used first
	bytes   int
	// computed counts the parts computed, kept or not.
	computed uint64
}

type dayEntry[V any] struct {
	v    V
	at   dayVersion
	size int
}

// get returns day d's part of q's answer in snap, computing it with
// compute unless the cache holds it at snap's versions of the day (those
// under the prefix versions, and the catalog's).
// Callers must not change what the part refers to: it is shared.
func (c *dayCache[V]) get(snap *pebble.Snapshot, versions string, q Query, d string, compute func() (V, error)) (V, error) {
	var zero V
	at, err := versionOf(snap, versions, d)
	if err != nil {
		return zero, err
	}
	k := keyOf(q, d, d)
	c.mu.Lock()
	if c.max == 0 {
		c.max, c.maxBytes = statsDayEntries, statsDaySessionsBytes
		if versions == prefixCountsVersion {
			c.maxBytes = statsDayCountsBytes
		}
	}
	if e, ok := c.entries[k]; ok && e.at == at {
		c.order = append(slices.DeleteFunc(c.order, func(o statsKey) bool { return o == k }), k)
		c.mu.Unlock()
		return e.v, nil
	}
	c.computed++
	c.mu.Unlock()

	v, err := compute()
	if err != nil {
		return zero, err
	}
	size := sizeOf(v)
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.entries[k]; ok {
		if e.at.newer(at) {
			return v, nil // a newer part is kept: a read of an older snapshot
		}
		c.drop(k)
	}
	if size > c.maxBytes {
		return v, nil
	}
	if c.entries == nil {
		c.entries = map[statsKey]dayEntry[V]{}
	}
	c.entries[k] = dayEntry[V]{v: v, at: at, size: size}
	c.order = append(c.order, k)
	c.bytes += size
	for len(c.order) > c.max || c.bytes > c.maxBytes {
		c.drop(c.order[0])
	}
	return v, nil
}

// drop forgets k's part; the caller holds mu.
func (c *dayCache[V]) drop(k statsKey) {
	if e, ok := c.entries[k]; ok {
		c.bytes -= e.size
		delete(c.entries, k)
	}
	c.order = slices.DeleteFunc(c.order, func(o statsKey) bool { return o == k })
}

// held returns how many parts the cache holds and what they weigh.
func (c *dayCache[V]) held() (entries, bytes int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries), c.bytes
}

// stale names the days' parts a commit made stale: per prefix of the
// versions of a kind of part (keys.go), the days it changed; everyDay
// for all of them, and the catalog's everyDay for every part of every
// kind.
type stale map[string]map[string]bool

// forget drops the parts s names of the kind whose versions are under
// prefix: no read at the commit or after takes them (their day's version
// moved), so that a hub that applies events while no one reads keeps
// none of the parts they changed.
func (c *dayCache[V]) forget(s stale, prefix string) {
	days := s[prefix]
	all := days[everyDay] || s[prefixCatalogVersion][everyDay]
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, k := range slices.Clone(c.order) {
		if all || days[k.from] {
			c.drop(k)
		}
	}
}
