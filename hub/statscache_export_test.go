package hub

import "github.com/clumsies/clumsies/hub/hubwire"

// StatsRecomputed answers q as Stats does, computed afresh from the read
// models: none of the projector's kept answers is used.
func (h *Hub) StatsRecomputed(q Query) (hubwire.Stats, error) { return h.stats(q, &statsCaches{}) }

// StatsComputed counts the stats answers h's projector computed: whole
// stats and evidence alone.
func (h *Hub) StatsComputed() uint64 {
	c := &h.proj.caches
	c.stats.mu.Lock()
	n := c.stats.computed
	c.stats.mu.Unlock()
	c.evidence.mu.Lock()
	defer c.evidence.mu.Unlock()
	return n + c.evidence.computed
}

// StatsDaysComputed counts the days' parts of the stats h's projector
// computed: the counters' and the sessions' of a day under a query.
func (h *Hub) StatsDaysComputed() uint64 { return h.proj.caches.daysComputed() }

// StatsHeld is what h's projector keeps of its stats answers: how many
// answers of every kind and what they weigh (sizeOf).
func (h *Hub) StatsHeld() (entries, bytes int) {
	c := &h.proj.caches
	for _, held := range []func() (int, int){c.stats.held, c.evidence.held, c.gates.held} {
		e, b := held()
		entries, bytes = entries+e, bytes+b
	}
	return entries, bytes
}
