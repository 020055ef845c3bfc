package hub

import (
	"context"
	"errors"
	"fmt"

	"github.com/nats-io/nats.go/jetstream"
)

// catchUp reads the entries of nodes ids from the registry stream's
// leader, which holds every acknowledged write, and applies those the
// copy does not hold yet; it returns whether it applied any. The copy
// follows the bucket through its watch: this is for a hub that waits for
// its copy to hold a node another hub wrote (awaitRegistry) while the
// watch has not delivered it. A node the leader does not hold is left
// for the watch.
func (r *registry) catchUp(ctx context.Context, ids []string) (bool, error) {
	applied := false
	for _, id := range ids {
		key := keyNodePrefix + id
		value, _, err := r.leaderGet(ctx, key)
		if errors.Is(err, jetstream.ErrKeyNotFound) {
			continue
		}
		if err != nil {
			return applied, fmt.Errorf("read node %s from the registry's leader: %w", id, err)
		}
		r.mu.Lock()
		held := r.d.holds(key, value)
		r.mu.Unlock()
		if held {
			continue
		}
		if err := r.apply(key, value); err != nil {
			return applied, err
		}
		applied = true
	}
	return applied, nil
}
