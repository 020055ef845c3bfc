package hub

import (
	"slices"
	"sync"
)

// changes tells the dashboard's streams that a team's figures may have
// changed: the projector touches the teams of every batch it commits,
// the review queue the team of every review it changes. Each team has a
// version; a stream compares the sum over the teams its token may read,
// so a member learns nothing of another team's activity.
type changes struct {
	mu  sync.Mutex
	ver map[string]uint64
	ch  chan struct{} // closed at the next touch
}

func newChanges() *changes {
	return &changes{ver: map[string]uint64{}, ch: make(chan struct{})}
}

// touch marks teams changed and wakes the waiters.
func (c *changes) touch(teams ...string) {
	if len(teams) == 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, t := range teams {
		c.ver[t]++
	}
	close(c.ch)
	c.ch = make(chan struct{})
}

// since returns the version of teams (nil: every team) and a channel
// closed at the next touch of any team.
func (c *changes) since(teams []string) (uint64, <-chan struct{}) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var v uint64
	for t, n := range c.ver {
		if teams == nil || slices.Contains(teams, t) {
			v += n
		}
	}
	return v, c.ch
}
