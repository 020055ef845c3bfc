package hub

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// registryName is the registry's local copy in the data folder.
const registryName = "registry.json"

// Errors of the registry, classified by the HTTP API.
var (
	// ErrBadInvite means a join token is unknown, used or expired.
	ErrBadInvite = errors.New("hub: join token unknown, already used or expired")
	// ErrUnknownNode means no node has the given id.
	ErrUnknownNode = errors.New("hub: unknown node")
	// ErrInvalid means a request's fields are not acceptable.
	ErrInvalid = errors.New("hub: invalid request")
)

// inviteTTL is how long a join token stays valid.
const inviteTTL = 7 * 24 * time.Hour

// invite is a one-time join token, stored by the hash of its secret.
type invite struct {
	Hash      string    `json:"hash"`
	Team      string    `json:"team"`
	Workspace string    `json:"workspaceId"`
	Member    string    `json:"member,omitempty"`
	Expires   time.Time `json:"expires"`
	Used      bool      `json:"used,omitempty"`
	// UsedBy and UsedKey name the node whose join used the invite, so
	// that a join whose answer was lost (a write unanswered while the
	// registry's leader changed) knows the use for its own.
	UsedBy  string `json:"usedBy,omitempty"`
	UsedKey string `json:"usedKey,omitempty"`
}

// memberToken lets its holder read the stats of some teams.
type memberToken struct {
	Hash  string   `json:"hash"`
	Name  string   `json:"name"`
	Teams []string `json:"teams"`
	// Reviewer lets its holder accept and decline the drafts submitted to
	// its teams' catalogs.
	Reviewer bool `json:"reviewer,omitempty"`
}

// registryData is what registry.json holds.
type registryData struct {
	Nodes   []hubwire.Node `json:"nodes"`
	Invites []invite       `json:"invites"`
	Tokens  []memberToken  `json:"tokens"`
}

// Key prefixes in the registry bucket.
const (
	keyNodePrefix   = "node."
	keyInvitePrefix = "invite."
	keyTokenPrefix  = "token."
)

// registry is the hub's list of nodes, invites and member tokens. The
// bucket is the truth, shared by every hub of a cluster; every hub keeps a
// copy in memory and in registry.json, from which it generates its
// nats-server config before its server (and so the bucket) is up.
type registry struct {
	file string
	kv   jetstream.KeyValue
	// js is the hub's JetStream, for reads at the bucket's leader
	// (registryinvite.go).
	js jetstream.JetStream
	// copy writes registry.json behind the changes, and journal each
	// change at once (registryjournal.go).
	copy    *localCopy
	journal *registryJournal

	mu sync.Mutex
	d  registryData

	// hold, held by the tests (export_test.go), stalls the watch before
	// it applies a change, as a watch whose consumer is gone.
	hold sync.RWMutex

	// placing serializes this hub's takes of places in shards
	// (shardplaces.go).
	placing sync.Mutex
}

func openRegistry(dataDir string) (*registry, error) {
	r := &registry{file: filepath.Join(dataDir, registryName), journal: &registryJournal{dir: dataDir, n: 1}}
	r.copy = &localCopy{
		write: func(b []byte) error { return writeFileAtomic(r.file, b, 0o600) },
		read: func() ([]byte, func(), error) {
			r.mu.Lock()
			defer r.mu.Unlock()
			b, err := json.Marshal(r.d)
			return b, r.journal.rotate(), err
		},
	}
	b, err := os.ReadFile(r.file)
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return nil, fmt.Errorf("read the node registry: %w", err)
	default:
		if err := json.Unmarshal(b, &r.d); err != nil {
			return nil, fmt.Errorf("read the node registry %s: %w", r.file, err)
		}
	}
	last, err := replayJournals(dataDir, r.d.set)
	if err != nil || last == 0 {
		return r, err
	}
	// What the journals held goes into the copy now, and the journals
	// away: the next journal starts after them.
	if b, err = json.Marshal(r.d); err == nil {
		err = writeFileAtomic(r.file, b, 0o600)
	}
	if err != nil {
		return nil, fmt.Errorf("write the node registry with its journal: %w", err)
	}
	removeJournals(dataDir, last)
	r.journal.n = last + 1
	return r, nil
}

// attach binds the registry to its bucket (creating it), loads it, and
// returns whether the copy changed. A bucket still empty gets the local
// copy's entries.
func (r *registry) attach(ctx context.Context, js jetstream.JetStream, replicas int) (bool, error) {
	kv, err := js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{
		Bucket: hubwire.RegistryBucket, Description: "clumsies hub: nodes, invites, member tokens",
		History: 1, Storage: jetstream.FileStorage, Replicas: replicas,
	})
	if err != nil {
		return false, fmt.Errorf("open the registry bucket: %w", err)
	}
	r.kv, r.js = kv, js
	keys, err := kv.ListKeys(ctx)
	if err != nil {
		return false, fmt.Errorf("list the registry: %w", err)
	}
	var d registryData
	n := 0
	for k := range keys.Keys() {
		e, err := kv.Get(ctx, k)
		if err != nil {
			return false, fmt.Errorf("read the registry's %s: %w", k, err)
		}
		if err := d.set(k, e.Value()); err != nil {
			return false, err
		}
		n++
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if n == 0 {
		for k, v := range r.d.entries() {
			if _, err := kv.Put(ctx, k, v); err != nil {
				return false, fmt.Errorf("seed the registry bucket: %w", err)
			}
		}
		return false, nil
	}
	d.sort()
	old, _ := json.Marshal(r.d)
	now, _ := json.Marshal(d)
	if string(old) == string(now) {
		return false, nil
	}
	r.d = d
	return true, r.save()
}

// watch calls changed with the key of every change of the bucket (made here or by
// another hub) has been applied to the copy, until ctx ends. It starts
// with the last value of every key, not with the changes to come: the
// changes made since the copy was read (attach, or the watch before
// this one ended) are then not lost. A value the copy holds already
// changes nothing and calls nothing. It is checked against the bucket
// every watchCheckEvery, and ends with errWatchStalled when it stays
// behind without delivering (watchStall): its consumer went with a
// server of the cluster.
func (r *registry) watch(ctx context.Context, changed func(key string)) error {
	w, err := r.kv.WatchAll(ctx)
	if err != nil {
		return fmt.Errorf("watch the registry: %w", err)
	}
	defer w.Stop()
	check := time.NewTicker(watchCheckEvery)
	defer check.Stop()
	var (
		delivered uint64 // the highest revision delivered
		stall     watchStall
	)
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-check.C:
			last, err := r.lastRevision(ctx)
			if err != nil {
				continue // no leader to answer now: checked again
			}
			if stall.observe(last, delivered, time.Now()) {
				return fmt.Errorf("%w: delivered up to revision %d, the bucket holds %d", errWatchStalled, delivered, last)
			}
		case e, ok := <-w.Updates():
			if !ok {
				return errors.New("the registry watch ended")
			}
			if e == nil {
				continue // every key's last value was delivered
			}
			r.hold.RLock() // the section is empty: only the tests hold it
			r.hold.RUnlock()
			delivered = max(delivered, e.Revision())
			if strings.HasPrefix(e.Key(), keyPlacePrefix) {
				continue // the shards' places are read from the bucket (shardplaces.go)
			}
			r.mu.Lock()
			same := r.d.holds(e.Key(), e.Value())
			if !same {
				err = r.d.set(e.Key(), e.Value())
				if err == nil {
					err = r.saveEntry(e.Key(), e.Value())
				}
			}
			r.mu.Unlock()
			if err != nil {
				return err
			}
			if !same {
				changed(e.Key())
			}
		}
	}
}

// set stores one bucket entry in d, whose lists are ordered (sort): the
// entry replaces the one of its id, or is inserted in its place, so that
// a change costs the same whatever the registry holds.
func (d *registryData) set(key string, value []byte) error {
	switch {
	case strings.HasPrefix(key, keyNodePrefix):
		var n hubwire.Node
		if err := json.Unmarshal(value, &n); err != nil {
			return fmt.Errorf("read the registry's %s: %w", key, err)
		}
		d.Nodes = upsert(d.Nodes, n, idOfNode)
	case strings.HasPrefix(key, keyInvitePrefix):
		var in invite
		if err := json.Unmarshal(value, &in); err != nil {
			return fmt.Errorf("read the registry's %s: %w", key, err)
		}
		d.Invites = upsert(d.Invites, in, hashOfInvite)
	case strings.HasPrefix(key, keyTokenPrefix):
		var t memberToken
		if err := json.Unmarshal(value, &t); err != nil {
			return fmt.Errorf("read the registry's %s: %w", key, err)
		}
		d.Tokens = upsert(d.Tokens, t, hashOfToken)
	}
	return nil
}

func (d *registryData) sort() {
	slices.SortFunc(d.Nodes, func(a, b hubwire.Node) int { return strings.Compare(a.ID, b.ID) })
	slices.SortFunc(d.Invites, func(a, b invite) int { return strings.Compare(a.Hash, b.Hash) })
	slices.SortFunc(d.Tokens, func(a, b memberToken) int { return strings.Compare(a.Hash, b.Hash) })
}

// entries returns d as bucket entries.
func (d *registryData) entries() map[string][]byte {
	out := map[string][]byte{}
	for _, n := range d.Nodes {
		out[keyNodePrefix+n.ID], _ = json.Marshal(n)
	}
	for _, in := range d.Invites {
		out[keyInvitePrefix+in.Hash], _ = json.Marshal(in)
	}
	for _, t := range d.Tokens {
		out[keyTokenPrefix+t.Hash], _ = json.Marshal(t)
	}
	return out
}

// save schedules a write of the local copy (registrycopy.go) and returns
// the error of an earlier write that failed; the caller holds mu.
func (r *registry) save() error {
	r.copy.changed()
	r.copy.mu.Lock()
	defer r.copy.mu.Unlock()
	err := r.copy.err
	r.copy.err = nil
	return err
}

// saveEntry journals the change of entry key to value, then schedules
// the local copy's write (save); the caller holds mu.
func (r *registry) saveEntry(key string, value []byte) error {
	if err := r.journal.record(key, value); err != nil {
		return err
	}
	return r.save()
}

// close writes the local copy if a change is not written yet.
func (r *registry) close() error {
	err := r.copy.close()
	r.mu.Lock()
	defer r.mu.Unlock()
	r.journal.close()
	return err
}

// put writes an entry to the bucket and to the copy.
func (r *registry) put(ctx context.Context, key string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	// A put written twice is written once: tried again while the
	// registry's leader changes.
	if err := retry(ctx, func(ctx context.Context) error {
		_, err := r.kv.Put(ctx, key, b)
		return err
	}); err != nil {
		return fmt.Errorf("write the registry's %s: %w", key, err)
	}
	return r.apply(key, b)
}

// apply stores an entry written to the bucket in the copy.
func (r *registry) apply(key string, b []byte) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.d.set(key, b); err != nil {
		return err
	}
	return r.saveEntry(key, b)
}

// nodes returns every node, revoked ones included, ordered by id.
func (r *registry) nodes() []hubwire.Node {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.d.Nodes)
}

// eachNode calls fn with each node of the registry in its order (by id),
// in place and under the registry's lock: fn must not keep n nor call
// the registry.
func (r *registry) eachNode(fn func(n *hubwire.Node)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := range r.d.Nodes {
		fn(&r.d.Nodes[i])
	}
}

// shards returns the number of shard streams the registry's nodes name
// (shardCount), without copying the nodes: the leader watcher asks four
// times a second.
func (r *registry) shards() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return shardCount(r.d.Nodes)
}

// node returns the node with id.
func (r *registry) node(id string) (hubwire.Node, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.d.node(id)
}

// taken reports whether a node of the registry has id nodeID or the key
// publicKey.
func (r *registry) taken(nodeID, publicKey string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.d.node(nodeID); ok {
		return true
	}
	for _, n := range r.d.Nodes {
		if n.PublicKey == publicKey {
			return true
		}
	}
	return false
}

// has reports whether node id is in the registry, revoked or not.
func (r *registry) has(id string) bool {
	_, ok := r.node(id)
	return ok
}

// shardCounts returns how many active nodes each shard holds.
func (r *registry) shardCounts() map[int]int {
	r.mu.Lock()
	defer r.mu.Unlock()
	counts := map[int]int{}
	for _, n := range r.d.Nodes {
		if n.Active() && n.Shard > 0 {
			counts[n.Shard]++
		}
	}
	return counts
}

// node returns the node with id, found in d's ordered list.
func (d *registryData) node(id string) (hubwire.Node, bool) {
	i, ok := find(d.Nodes, id, idOfNode)
	if !ok {
		return hubwire.Node{}, false
	}
	return d.Nodes[i], true
}

// nodeByKey returns the node whose public key is publicKey.
func (r *registry) nodeByKey(publicKey string) (hubwire.Node, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, n := range r.d.Nodes {
		if n.PublicKey == publicKey {
			return n, true
		}
	}
	return hubwire.Node{}, false
}

// addInvite stores a new invite and returns its secret.
func (r *registry) addInvite(ctx context.Context, team, ws, member string, now time.Time) (string, error) {
	secret := randomHex(24)
	in := invite{Hash: hashSecret(secret), Team: team, Workspace: ws, Member: member, Expires: now.Add(inviteTTL)}
	return secret, r.put(ctx, keyInvitePrefix+in.Hash, in)
}

// join uses the invite of secret to register a node, and returns it. The
// invite must name the node's workspace. Joining again with the invite
// that registered the node, with the same id and key, returns the node:
// a client may retry a join whose answer it did not get. Using the invite is a
// compare-and-set on its entry: of two joins with one token (at two hubs
// of a cluster, say), one wins. place gives a new node its shard, once
// the invite and the node are found good (a bad token takes no place).
func (r *registry) join(ctx context.Context, secret, nodeID, publicKey, ws, name string, place func() (int, error), now time.Time) (hubwire.Node, error) {
	key := keyInvitePrefix + hashSecret(secret)
	value, rev, err := r.readInvite(ctx, key)
	if err != nil {
		return hubwire.Node{}, err
	}
	var in invite
	if err := json.Unmarshal(value, &in); err != nil {
		return hubwire.Node{}, fmt.Errorf("read the invite: %w", err)
	}
	if subtle.ConstantTimeCompare([]byte(in.Hash), []byte(hashSecret(secret))) != 1 {
		return hubwire.Node{}, ErrBadInvite
	}
	used := in.Used
	if used {
		// A join asked again with the same token, id and key (its answer
		// was lost) gets the node it registered, or goes on to register
		// it when its first try used the invite and stopped before.
		if n, ok := r.node(nodeID); ok {
			if n.PublicKey == publicKey && n.Workspace == ws && n.Team == in.Team && n.Active() {
				return n, nil
			}
			return hubwire.Node{}, ErrBadInvite
		}
		if in.UsedBy != nodeID || in.UsedKey != publicKey || in.UsedBy == "" {
			return hubwire.Node{}, ErrBadInvite
		}
	} else if now.After(in.Expires) {
		return hubwire.Node{}, ErrBadInvite
	}
	if in.Workspace != ws {
		return hubwire.Node{}, fmt.Errorf("%w: this token is for workspace %s, not %s", ErrInvalid, in.Workspace, ws)
	}
	if r.taken(nodeID, publicKey) {
		return hubwire.Node{}, fmt.Errorf("%w: node %s or its key is already registered; make a new identity", ErrInvalid, nodeID)
	}
	shard, err := place()
	if err != nil {
		return hubwire.Node{}, err
	}
	if !used {
		if err := r.useInvite(ctx, key, in, rev, nodeID, publicKey); err != nil {
			return hubwire.Node{}, err
		}
	}
	n := hubwire.Node{ID: nodeID, PublicKey: publicKey, Team: in.Team, Workspace: ws, WorkspaceName: name, Member: in.Member, Joined: now.UTC(), Shard: shard}
	return n, r.put(ctx, keyNodePrefix+n.ID, n)
}

// revoke marks a node revoked.
func (r *registry) revoke(ctx context.Context, id string, now time.Time) (hubwire.Node, error) {
	n, ok := r.node(id)
	if !ok {
		return hubwire.Node{}, fmt.Errorf("%w %s", ErrUnknownNode, id)
	}
	if !n.Active() {
		return n, nil
	}
	n.Revoked = now.UTC()
	return n, r.put(ctx, keyNodePrefix+n.ID, n)
}

// addToken stores a member token for teams and returns it.
func (r *registry) addToken(ctx context.Context, name string, teams []string, reviewer bool) (string, error) {
	token := "mem_" + randomHex(24)
	t := memberToken{Hash: hashSecret(token), Name: name, Teams: slices.Clone(teams), Reviewer: reviewer}
	return token, r.put(ctx, keyTokenPrefix+t.Hash, t)
}

// tokenTeams returns the teams a member token may read.
func (r *registry) tokenTeams(token string) ([]string, bool) {
	h := hashSecret(token)
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, t := range r.d.Tokens {
		if subtle.ConstantTimeCompare([]byte(t.Hash), []byte(h)) == 1 {
			return slices.Clone(t.Teams), true
		}
	}
	return nil, false
}

// tokenOf returns the member token token is.
func (r *registry) tokenOf(token string) (memberToken, bool) {
	h := hashSecret(token)
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, t := range r.d.Tokens {
		if subtle.ConstantTimeCompare([]byte(t.Hash), []byte(h)) == 1 {
			t.Teams = slices.Clone(t.Teams)
			return t, true
		}
	}
	return memberToken{}, false
}

func hashSecret(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// KnownToken reports whether token is a member token of the hub.
func (h *Hub) KnownToken(token string) bool {
	_, ok := h.reg.tokenTeams(token)
	return ok
}
