package hub

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// A node's place in a shard is taken with a compare-and-set on the
// shard's entry in the registry's bucket, "place.<k>", which lists the
// nodes holding a place there: the hubs of a cluster joining nodes at
// once cannot place more than the shard size in one shard, where a
// placement decided from each hub's copy of the registry alone could
// (each hub counts only its own joins in flight). The entry is read from
// the bucket's leader and written with its revision, so of two hubs
// taking the last place at once, one wins and the other moves on to the
// next shard.
//
// The entry counts with the registry: a shard's places are held by its
// active nodes in the registry's copy and by the nodes its entry lists
// that the copy does not hold yet (a join under way here or at another
// hub). A listed node the copy holds revoked has left its place; a
// listed node the copy does not hold after placeHoldTTL never joined (its
// join failed and could not give the place back) and leaves it too. Each
// write of the entry keeps only the places it counts, so the entry holds
// at most a shard's worth of nodes, and a hub made before the entries
// counts its shards' nodes from the registry.

// keyPlacePrefix is the prefix of the shards' place entries in the
// registry's bucket. The registry's copy does not keep them
// (registryData.set ignores them) and its watch does not act on them.
const keyPlacePrefix = "place."

// placeHoldTTL is how long a place taken by a node the registry does not
// hold yet is kept for it: well past a join's own bound (placeJoinBound),
// so that a join under way never loses its place.
const placeHoldTTL = 10 * time.Minute

// placeJoinBound bounds a join from the moment its place is taken until
// the registry holds the node.
const placeJoinBound = 2 * time.Minute

// placeTries bounds the compare-and-sets of one place: the joins of one
// hub take their places in turn, so only the other hubs' joins collide.
const placeTries = 20

// placeHolder is a node holding a place in a shard's entry.
type placeHolder struct {
	ID string    `json:"id"`
	At time.Time `json:"at"`
}

// keyPlace is shard k's place entry.
func keyPlace(k int) string { return keyPlacePrefix + strconv.Itoa(k) }

// takePlace takes a place for node id in the first shard from hint on
// with fewer than size places held, and returns it. hint is where this
// hub's copy of the registry finds room (shardPlacer): the shards before
// it are full as far as this hub knows. A node that holds a place in
// shard hint already keeps it (a join asked again).
func (r *registry) takePlace(ctx context.Context, id string, hint, size int, now time.Time) (int, error) {
	r.placing.Lock() // the joins at this hub take their places in turn
	defer r.placing.Unlock()
	k := max(hint, 1)
	for try := range placeTries {
		if try > 0 {
			// Another hub's join took a place between the read and the
			// write: wait a moment, so that the hubs do not keep
			// colliding.
			time.Sleep(time.Duration(rand.IntN(10*try+1)) * time.Millisecond)
		}
		value, rev, err := r.readPlaces(ctx, k)
		if err != nil {
			return 0, err
		}
		held := r.heldPlaces(k, value, now)
		if slices.ContainsFunc(held, func(p placeHolder) bool { return p.ID == id }) {
			return k, nil
		}
		if len(held) >= size {
			k++
			continue
		}
		held = append(held, placeHolder{ID: id, At: now.UTC()})
		err = r.writePlaces(ctx, k, held, rev)
		if errors.Is(err, errPlacesChanged) {
			continue // another hub took a place meanwhile: count again
		}
		if err != nil {
			return 0, err
		}
		return k, nil
	}
	return 0, fmt.Errorf("take a place in a shard for node %s: the shards' entries kept changing (%d tries); join again", id, placeTries)
}

// givePlace gives node id's place in shard k back after its join failed;
// a place not given back is freed after placeHoldTTL.
func (r *registry) givePlace(ctx context.Context, id string, k int) error {
	for range placeTries {
		value, rev, err := r.readPlaces(ctx, k)
		if err != nil {
			return err
		}
		var list []placeHolder
		if err := json.Unmarshal(value, &list); err != nil && value != nil {
			return fmt.Errorf("read the places of shard %d: %w", k, err)
		}
		kept := slices.DeleteFunc(list, func(p placeHolder) bool { return p.ID == id })
		if len(kept) == len(list) {
			return nil
		}
		if err := r.writePlaces(ctx, k, kept, rev); !errors.Is(err, errPlacesChanged) {
			return err
		}
	}
	return fmt.Errorf("give back node %s's place in shard %d: its entry kept changing", id, k)
}

// readPlaces reads shard k's place entry from the bucket's leader, with
// its revision; nil and 0 if it has none yet.
func (r *registry) readPlaces(ctx context.Context, k int) ([]byte, uint64, error) {
	var value []byte
	var rev uint64
	err := retry(ctx, func(ctx context.Context) error {
		var err error
		value, rev, err = r.leaderGet(ctx, keyPlace(k))
		return err
	})
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, fmt.Errorf("read the places of shard %d from the registry's leader: %w", k, err)
	}
	return value, rev, nil
}

// errPlacesChanged means a shard's place entry changed since it was read.
var errPlacesChanged = errors.New("hub: the shard's places changed meanwhile")

// writePlaces writes shard k's place entry if its revision is still rev
// (0: if it has none); errPlacesChanged if it changed meanwhile
// (lostCAS).
func (r *registry) writePlaces(ctx context.Context, k int, held []placeHolder, rev uint64) error {
	b, _ := json.Marshal(held)
	// A set left unanswered while the registry's leader changes is tried
	// again; if the first was made, the next reads as lost and the caller
	// reads the entry again, where it finds the place it took.
	err := retry(ctx, func(ctx context.Context) error {
		var err error
		if rev == 0 {
			_, err = r.kv.Create(ctx, keyPlace(k), b)
		} else {
			_, err = r.kv.Update(ctx, keyPlace(k), b, rev)
		}
		return err
	})
	switch {
	case err == nil:
		return nil
	case lostCAS(err):
		return errPlacesChanged
	default:
		return fmt.Errorf("write the places of shard %d: %w", k, err)
	}
}

// heldPlaces is who holds a place in shard k: the active nodes of shard k
// in the registry's copy, and the nodes listed in its entry value that
// the copy does not hold, taken within placeHoldTTL of now.
func (r *registry) heldPlaces(k int, value []byte, now time.Time) []placeHolder {
	var listed []placeHolder
	_ = json.Unmarshal(value, &listed) // an entry that does not read holds no pending place
	var held []placeHolder
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, n := range r.d.Nodes {
		if n.Active() && n.Shard == k {
			held = append(held, placeHolder{ID: n.ID, At: n.Joined})
		}
	}
	for _, p := range listed {
		if _, known := r.d.node(p.ID); !known && now.Sub(p.At) < placeHoldTTL {
			held = append(held, p)
		}
	}
	return held
}

// placeNode is where a join of node id, not in the registry yet, places
// it: a place taken in the registry (takePlace) from where this hub's
// copy finds room. release gives the place back if the join fails, and
// must be called once the join answered either way, also when placeNode
// failed (it then does nothing).
func (h *Hub) placeNode(ctx context.Context, id string) (shard int, release func(joined bool), err error) {
	hint := h.placer.place(id, h.reg.shardCounts(), h.reg.has)
	shard, err = h.reg.takePlace(ctx, id, hint, h.placer.size, time.Now())
	if err != nil {
		h.placer.done(id)
		return 0, func(bool) {}, fmt.Errorf("join %s: %w", id, err)
	}
	return shard, func(joined bool) {
		h.placer.done(id)
		if !joined {
			ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			defer cancel()
			if err := h.reg.givePlace(ctx, id, shard); err != nil {
				h.logger.Warn("a failed join's place in its shard is freed later", "node", id, "shard", shard, "in", placeHoldTTL, "err", err)
			}
		}
	}, nil
}
