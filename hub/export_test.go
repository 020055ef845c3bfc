package hub

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// useInviteCalls numbers UseInviteAt's calls, each a node of its own.
var useInviteCalls atomic.Int64

// LedgerLayout is the layout of the hub's ledger, for the tests.
var LedgerLayout = ledgerLayout{replicas: 1}

// AccountReady reports whether node id's account is set up on h's server.
func (h *Hub) AccountReady(id string) bool { return h.accounts.ready(id) }

// HubServiceImports is how many service imports the hub's account holds
// on h's server.
func (h *Hub) HubServiceImports() int {
	acc, err := h.ns.LookupAccount(hubAccount)
	if err != nil {
		return -1
	}
	return acc.NumServiceImports()
}

// HubExports is how many exports (services and streams) the hub's
// account holds on h's server.
func (h *Hub) HubExports() int {
	az, err := h.ns.Accountz(&server.AccountzOptions{Account: hubAccount})
	if err != nil || az.Account == nil {
		return -1
	}
	return len(az.Account.Exports)
}

// HasLinksAccount reports whether h's server knows the links account.
func (h *Hub) HasLinksAccount() bool {
	_, err := h.ns.LookupAccount(linksAccount)
	return err == nil
}

// SetMaxNodes lowers the most active nodes h takes (MaxNodes).
func (h *Hub) SetMaxNodes(n int) { h.maxNodes = n }

// LedgerRead returns how many events of its ledger h's read side has
// applied since h started, and its checkpoint.
func (h *Hub) LedgerRead() (read, checkpoint uint64) {
	return h.ledger.read.Load(), h.ledger.Applied()
}

// LedgerRowsPrefix is the prefix of the rows of the hub ledger's read
// side in the hub's read models.
const LedgerRowsPrefix = prefixLedger

// HoldSources holds h's lock on the aggregate's sources until release
// is called: every write of the sources at h waits meanwhile, as behind
// a slow write of a long list.
func (h *Hub) HoldSources() (release func()) {
	h.ctrl.Lock()
	return h.ctrl.Unlock
}

// SetShardSize makes the hub of c place at most n active nodes in a
// shard (ShardSize) once it starts.
func (c *Config) SetShardSize(n int) { c.shards = n }

// APIPrefixOf is node id's JetStream API as the hub reaches it, which
// names the node's source in its shard.
func APIPrefixOf(id string) string { return apiPrefix(id) }

// Kick re-sources nodes ids as the link watcher does.
func (h *Hub) Kick(ctx context.Context, ids ...string) error { return h.kick(ctx, ids...) }

// KicksAsked returns how many nodes the write of the sources under way at
// h and the next one re-source.
func (h *Hub) KicksAsked() int { return h.sourceWrites.asked() }

// SetSourceWriteBound sets the bound of each write of h's sources
// (sourceWriteTimeout).
func (h *Hub) SetSourceWriteBound(d time.Duration) { h.sourceWrites.bound.Store(int64(d)) }

// PlaceNode takes a place in a shard for node id as a join does before
// it registers the node; release(false) gives it back.
func (h *Hub) PlaceNode(ctx context.Context, id string) (int, func(joined bool), error) {
	return h.placeNode(ctx, id)
}

// InviteRevision returns the revision of the invite of secret in the
// registry's bucket, read at the bucket's leader.
func (h *Hub) InviteRevision(ctx context.Context, secret string) (uint64, error) {
	_, rev, err := h.reg.leaderGet(ctx, keyInvitePrefix+hashSecret(secret))
	return rev, err
}

// UseInviteAt marks the invite of secret used with a compare-and-set at
// revision rev, as a join at h does once it has read the invite at rev;
// ErrBadInvite if the set lost. Each call is a node of its own.
func (h *Hub) UseInviteAt(ctx context.Context, secret string, rev uint64) error {
	return h.useInviteOf(ctx, secret, rev, fmt.Sprintf("n-test-%d", useInviteCalls.Add(1)), "")
}

// UseInviteFor marks the invite of secret used by node id with key, as a
// join's first try does before it writes the node's entry.
func (h *Hub) UseInviteFor(ctx context.Context, secret, id, key string) error {
	return h.useInviteOf(ctx, secret, 0, id, key)
}

// useInviteOf reads the invite of secret from the registry's leader and
// marks it used by node id with key, at revision rev (0: the one read).
func (h *Hub) useInviteOf(ctx context.Context, secret string, rev uint64, id, key string) error {
	k := keyInvitePrefix + hashSecret(secret)
	value, read, err := h.reg.leaderGet(ctx, k)
	if err != nil {
		return err
	}
	var in invite
	if err := json.Unmarshal(value, &in); err != nil {
		return err
	}
	if rev == 0 {
		rev = read
	}
	return h.reg.useInvite(ctx, k, in, rev, id, key)
}

// HoldRegistryWatch stalls h's registry watch before it applies its next
// change until release is called, as a watch whose consumer went with a
// stopped server of the cluster delivers nothing: the copy lags. Release
// before the hub is closed.
func (h *Hub) HoldRegistryWatch() (release func()) {
	h.reg.hold.Lock()
	return sync.OnceFunc(h.reg.hold.Unlock)
}
