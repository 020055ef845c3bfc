package hub

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// moveTries bounds the compare-and-sets of one node's move (placeOnce).
const moveTries = 5

// placeOnce records node n's shard and the sequence its shard sources
// after (Node.Shard, Node.SourceFrom) in its registry entry, unless the
// entry has a shard already: a compare-and-set on the entry, read from
// the registry's leader, so that the hubs of a cluster moving their
// nodes at once place each node once (a node placed twice could have its
// messages sourced by a shard the registry no longer names, which the
// projector refuses). It returns the entry as the registry holds it.
func (r *registry) placeOnce(ctx context.Context, n hubwire.Node) (hubwire.Node, error) {
	key := keyNodePrefix + n.ID
	for range moveTries {
		var value []byte
		var rev uint64
		err := retry(ctx, func(ctx context.Context) error {
			var err error
			value, rev, err = r.leaderGet(ctx, key)
			return err
		})
		if err != nil {
			return hubwire.Node{}, fmt.Errorf("read node %s from the registry's leader: %w", n.ID, err)
		}
		var cur hubwire.Node
		if err := json.Unmarshal(value, &cur); err != nil {
			return hubwire.Node{}, fmt.Errorf("read node %s: %w", n.ID, err)
		}
		if cur.Shard > 0 || !cur.Active() {
			return cur, r.apply(key, value) // moved by another hub, or revoked meanwhile
		}
		cur.Shard, cur.SourceFrom = n.Shard, n.SourceFrom
		b, _ := json.Marshal(cur)
		if _, err := r.kv.Update(ctx, key, b, rev); lostCAS(err) {
			continue // changed meanwhile: read it again
		} else if err != nil {
			return hubwire.Node{}, fmt.Errorf("record node %s's shard: %w", n.ID, err)
		}
		return cur, r.apply(key, b)
	}
	return hubwire.Node{}, fmt.Errorf("record node %s's shard: its entry kept changing (%d tries)", n.ID, moveTries)
}
