package hub

import (
	"time"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// How a kick is confirmed, and repeated when it was not.
const (
	// confirmEvery is how often the kicks not yet confirmed are checked
	// against the sources of their shards.
	confirmEvery = time.Second
	// rekickFirst is how long a kicked node's source may go without a
	// word from the node before it is kicked again; each further kick
	// of the same link waits twice as long, up to rekickMax.
	rekickFirst = 2 * time.Second
	rekickMax   = 4 * time.Second
	// kickTries bounds the kicks of one link (the first included): a
	// node that never answers (its ledger cannot be opened, say) is left
	// to nats-server's own retries after about 42 s, so that it does not
	// keep the aggregate's writer busy (each kick writes its shard's
	// source list twice, at most ShardSize sources). The kicks go on that
	// long because a shard whose leader was lost takes a new one in a
	// cluster under load only after seconds, and a source that asked the
	// old one waits out nats-server's backoff (up to 2 minutes).
	kickTries = 12
)

// unconfirmed is a kick whose source the node has not answered yet.
type unconfirmed struct {
	cid   uint64        // the leaf connection it was kicked for
	at    time.Time     // when the kick was written
	wait  time.Duration // how long from at until it is kicked again
	tries int           // the kicks of this link so far
}

// kickConfirms follows each kick until the node's source hears from the
// node (a message or a heartbeat of its sourcing consumer, the source's
// Active), and says which nodes to kick again.
//
// A kick asks the node for a sourcing consumer at once, but a request the
// node cannot serve yet (its ledger stream not made yet, as at a fresh
// node's first link; its interest not yet known at the hub in a storm of
// links) leaves the source in nats-server's own retry: 30 s to wait for
// an answer that was lost, then a backoff of 10 s more per failure (its
// stream.go, calculateRetryBackoff and srcConsumerWaitTime). A kick
// again makes the source a new one, which asks at once.
type kickConfirms struct {
	waiting map[string]unconfirmed // node id ->
	checked time.Time
}

func newKickConfirms() *kickConfirms {
	return &kickConfirms{waiting: map[string]unconfirmed{}}
}

// kicked records the kicks of due, written at now. A node kicked again
// for the same link waits twice as long as before for its answer.
func (c *kickConfirms) kicked(due map[string]uint64, now time.Time) {
	for id, cid := range due {
		k := unconfirmed{cid: cid, at: now, wait: rekickFirst, tries: 1}
		if prev, ok := c.waiting[id]; ok && prev.cid == cid {
			k.wait, k.tries = min(2*prev.wait, rekickMax), prev.tries+1
		}
		c.waiting[id] = k
	}
}

// due reports whether a check is due at now: some kick waits for its
// answer and confirmEvery passed since the last check.
func (c *kickConfirms) due(now time.Time) bool {
	return len(c.waiting) > 0 && now.Sub(c.checked) >= confirmEvery
}

// check reads the nodes' sources (in their shards) as they were at asked, and returns
// the nodes to kick again with their connection ids: those not heard
// from since their kick once its wait is over, kickTries times per link
// at most. It forgets the kicks that were answered and those whose link is gone or was replaced (current
// gives a node's current connection id, 0 for none; a new link is
// kicked for on its own).
func (c *kickConfirms) check(asked time.Time, sources map[string]hubwire.Sourcing, current func(id string) uint64) map[string]uint64 {
	c.checked = asked
	again := map[string]uint64{}
	for id, k := range c.waiting {
		if current(id) != k.cid {
			delete(c.waiting, id)
			continue
		}
		if s, ok := sources[apiPrefix(id)]; ok && s.Active >= 0 && asked.Add(-s.Active).After(k.at) {
			delete(c.waiting, id)
			continue
		}
		if asked.Sub(k.at) < k.wait {
			continue
		}
		if k.tries >= kickTries {
			delete(c.waiting, id) // left to nats-server's retries
			continue
		}
		again[id] = k.cid
	}
	return again
}
