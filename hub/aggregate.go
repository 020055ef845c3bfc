package hub

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// ledgerStream is a workspace's stream name (as natsjs names it).
func ledgerStream(ws string) string { return "CLUMSIES_" + ws }

// ledgerSubjects covers a workspace's events (as events names them).
func ledgerSubjects(ws string) string { return "clumsies." + ws + ".>" }

// nodeSubjects is where a node's events land in the aggregate.
func nodeSubjects(n hubwire.Node) string {
	return hubwire.SubjectPrefix + "." + n.Team + "." + n.Workspace + "." + n.ID + ".>"
}

// source is node n's source in its shard: its ledger, pulled over its
// leaf link, with the subjects moved under the node's team, workspace and
// id; after the sequence the aggregate held when the node was moved to
// its shard, if it was (Node.SourceFrom). nats-server starts there only
// while the shard holds nothing from the node; after, a source added
// again resumes after the last message the shard holds from it.
func source(n hubwire.Node) *jetstream.StreamSource {
	var from uint64
	if n.SourceFrom > 0 {
		from = n.SourceFrom + 1
	}
	return &jetstream.StreamSource{
		OptStartSeq: from,
		Name:        ledgerStream(n.Workspace),
		External:    &jetstream.ExternalStream{APIPrefix: apiPrefix(n.ID), DeliverPrefix: deliverPrefix(n.ID)},
		SubjectTransforms: []jetstream.SubjectTransformConfig{
			{Source: ledgerSubjects(n.Workspace), Destination: nodeSubjects(n)},
		},
	}
}

// streamConfigs is the shards' configurations, each with a source for
// every node of it that sourced says, then the aggregate's.
func streamConfigs(nodes []hubwire.Node, replicas int, sourced func(hubwire.Node) bool) []jetstream.StreamConfig {
	count := shardCount(nodes)
	out := make([]jetstream.StreamConfig, 0, count+1)
	for k := 1; k <= count; k++ {
		out = append(out, shardStream(k, replicas))
	}
	for _, n := range nodes {
		if n.Shard > 0 && sourced(n) {
			out[n.Shard-1].Sources = append(out[n.Shard-1].Sources, source(n))
		}
	}
	top := aggregateStream(replicas)
	for k := 1; k <= count; k++ {
		top.Sources = append(top.Sources, shardSource(k))
	}
	return append(out, top)
}

// aggregateStream is the aggregate's configuration without its sources.
func aggregateStream(replicas int) jetstream.StreamConfig {
	return jetstream.StreamConfig{
		Name:        hubwire.AggregateStream,
		Description: "every joined node's ledger, subjects hub.<team>.<workspaceId>.<nodeId>.<type>",
		Storage:     jetstream.FileStorage,
		Retention:   jetstream.LimitsPolicy,
		MaxMsgs:     -1,
		MaxBytes:    -1,
		Duplicates:  10 * time.Minute,
		Replicas:    replicas,
		Compression: jetstream.S2Compression,
		DenyDelete:  true,
		DenyPurge:   true,
	}
}

// setSources writes the sources of every stream of the aggregate (the
// shards, then the aggregate itself) whose list changed: every active
// node of the registry is a source of its shard, but those in except.
// The caller holds ctrl. Every change of the sources goes through here
// as whole lists derived from the registry, never as an edit of what a
// stream holds: two hubs of a cluster that write at once then still
// converge on the registry's lists (the last write of each is the full
// one).
//
// A list equal to the one this hub wrote last for that stream is not
// written again: every change of the registry (an invite made or used, a
// token) asks for a write, and nats-server's update of a long source list
// is dear, so a storm of joins left a backlog of identical writes behind
// it. A join, a revoke or a kick so writes its node's shard only (at most
// ShardSize sources); the aggregate's own list changes only when a shard
// is added. The lists are compared before any configuration is built
// (sourceLists), so that a write costs what its stream holds, not what
// the registry does. In a cluster only the writer writes
// (sourcewriter.go).
func (h *Hub) setSources(ctx context.Context, except []string) error {
	start, wrote := time.Now(), false
	defer func() {
		if wrote {
			h.sourceWritesMade.Add(1)
			h.sourceWriteNanos.Add(int64(time.Since(start)))
		}
	}()
	for _, l := range h.sourceLists(except) {
		if prev, ok := h.written[l.stream]; ok && slices.Equal(l.names, prev) {
			continue
		}
		want, names := h.streamConfig(l)
		w, err := h.writeStream(ctx, want, names)
		wrote = wrote || w
		if err != nil {
			return err
		}
	}
	return nil
}

// writeStream writes want, one stream of the aggregate whose sources are
// names (sourceList), and says whether it tried. The caller holds ctrl.
func (h *Hub) writeStream(ctx context.Context, want jetstream.StreamConfig, names []string) (bool, error) {
	created := false
	err := retry(ctx, func(ctx context.Context) error {
		var err error
		if created, err = h.createOrUpdate(ctx, want); err != nil {
			return fmt.Errorf("write the sources of %s: %w", want.Name, err)
		}
		return nil
	})
	if err != nil {
		return true, err
	}
	h.written[want.Name] = names
	if k, ok := hubwire.ShardOf(want.Name); ok && created {
		if err := h.spreadLeader(ctx, k); err != nil {
			h.logger.Warn("the new shard keeps the leader it was given", "err", err)
		}
	}
	return true, nil
}

// ensureAggregate creates the aggregate, or brings its sources in line
// with the registry, and begins the making of the catalog of every team
// with a node or an invite (catalogready.go). A hub of
// a cluster that finds the aggregate made leaves its sources to the
// writer (sourcewriter.go), which re-sources every node when it is
// elected (leader.go).
func (h *Hub) ensureAggregate(ctx context.Context) error {
	h.ctrl.Lock()
	defer h.ctrl.Unlock()
	if err := h.moveToShards(ctx); err != nil {
		return err
	}
	if !h.ns.JetStreamIsClustered() || !h.aggregateExists(ctx) {
		if err := h.setSources(ctx, nil); err != nil {
			return err
		}
	}
	h.cats.start(h.reg.teams()...)
	return nil
}

// aggregateExists reports whether the aggregate stream is made; a read
// that fails says no, and the caller writes it as before.
func (h *Hub) aggregateExists(ctx context.Context) bool {
	err := retry(ctx, func(ctx context.Context) error {
		_, err := h.js.Stream(ctx, hubwire.AggregateStream)
		return err
	})
	return err == nil
}

// kick re-sources nodes: the writer writes the sources of their shards
// without them, then with them (sourceWrites, with the kicks asked meanwhile), so that
// the aggregate asks each node for what it misses now rather than after
// the source's retry backoff (15 s to 2 min). A re-added source resumes
// after the last message the aggregate holds from it.
func (h *Hub) kick(ctx context.Context, ids ...string) error {
	if err := h.syncSources(ctx, sourceAsk{Kick: ids}); err != nil {
		return fmt.Errorf("re-source %d nodes: %w", len(ids), err)
	}
	return nil
}

// syncRegistry applies a change of the registry, made here or at another
// hub of the cluster: the accounts of new nodes, the aggregate's sources,
// and the links of revoked nodes. It waits neither for the other hubs to
// set up the new accounts (peers.go) nor for the write of the sources
// (writeSourcesAfter): the registry's watch, which calls it, is what sets
// up the accounts of the nodes joined at other hubs, and a watch held by
// a write of a long source list (seconds at a few hundred sources in a
// loaded cluster) fell behind the joins, so that the other hubs' joins
// waited out their bound for it and sourced nodes this hub did not know.
func (h *Hub) syncRegistry(ctx context.Context) error {
	if err := h.accounts.addAll(h.reg.nodes()); err != nil {
		return err
	}
	h.cats.start(h.reg.teams()...)
	h.writeSourcesAfter(nil)
	if shared := h.shareAccounts(); shared != nil {
		h.writeSourcesAfter(shared)
	}
	for _, n := range h.reg.nodes() {
		if !n.Active() {
			if err := h.dropLinks(n.ID); err != nil {
				return err
			}
		}
	}
	return nil
}

// syncEntry applies a change of the registry's entry key that the watch
// delivered: for a node's entry, what syncRegistry does for every node,
// for that node alone, so that a change costs the same whatever the
// registry holds; for an invite not used yet, the making of its team's
// catalog (catalogready.go). Member tokens change nothing here.
func (h *Hub) syncEntry(ctx context.Context, key string) error {
	if hash, ok := strings.CutPrefix(key, keyInvitePrefix); ok {
		if team, ok := h.reg.inviteTeam(hash); ok {
			h.cats.start(team)
		}
		return nil
	}
	id, ok := strings.CutPrefix(key, keyNodePrefix)
	if !ok {
		return nil
	}
	n, ok := h.reg.node(id)
	if !ok {
		return nil
	}
	if !n.Active() {
		h.writeSourcesAfter(nil)
		return h.dropLinks(n.ID)
	}
	h.cats.start(n.Team)
	if err := h.accounts.add(n); err != nil {
		return err
	}
	h.writeSourcesAfter(nil)
	if !h.accounts.isShared(n.ID) {
		h.writeSourcesAfter(h.shareAccount(n.ID))
	}
	return nil
}

// writeSources writes the aggregate's sources from the registry, under
// ctrl, first without the nodes of kick if any: the write that
// sourceWrites coalesces.
//
// In a cluster a hub that lost the aggregate's lead since the write was
// asked writes nothing (errNotWriter): its copy of the registry may lack
// what the new writer wrote meanwhile, and a list it wrote after the new
// writer's would drop those nodes' sources.
func (h *Hub) writeSources(ctx context.Context, kick []string) error {
	h.ctrl.Lock()
	defer h.ctrl.Unlock()
	if !h.writesSources() {
		return errNotWriter
	}
	if len(kick) > 0 {
		if err := h.setSources(ctx, kick); err != nil {
			return fmt.Errorf("re-source %d nodes: %w", len(kick), err)
		}
	}
	return h.setSources(ctx, nil)
}

// Invite makes a one-time join token for a workspace of team, optionally
// naming the member who will use it.
func (h *Hub) Invite(ctx context.Context, ws, team, member string) (string, error) {
	if !validWorkspaceID(ws) {
		return "", fmt.Errorf("%w: workspace %q is not a workspace id (ws-...)", ErrInvalid, ws)
	}
	if !validName(team) {
		return "", fmt.Errorf("%w: team %q: use letters, digits, '-' and '_'", ErrInvalid, team)
	}
	if member != "" && !validName(member) {
		return "", fmt.Errorf("%w: member %q: use letters, digits, '-' and '_'", ErrInvalid, member)
	}
	secret, err := h.reg.addInvite(ctx, team, ws, member, time.Now())
	if err != nil {
		return "", err
	}
	h.cats.wait(ctx, team) // a new team's catalog is made now, not at its first join
	return hubwire.JoinToken{HTTP: h.cfg.APIURL(), Leaf: h.cfg.leafURL(), Secret: secret}.Encode(), nil
}

// Join registers a node with the invite's secret: it adds the node's
// account to the server and its ledger to its shard of the aggregate
// (placeNode: a place taken in the registry). Its cost does
// not grow with the registry but for the write of the aggregate's
// sources, which the joins waiting at once share (sourceWrites), made by
// the cluster's one writer (sourcewriter.go). name is
// the workspace's name for people (checkWorkspaceName), kept with the
// node; "" for none.
func (h *Hub) Join(ctx context.Context, secret, nodeID, publicKey, ws, name string) (hubwire.Node, error) {
	if !validNodeID(nodeID) || !validPublicKey(publicKey) {
		return hubwire.Node{}, fmt.Errorf("%w: node id %q or public key %q", ErrInvalid, nodeID, publicKey)
	}
	if err := checkWorkspaceName(name); err != nil {
		return hubwire.Node{}, err
	}
	if err := h.checkRoom(nodeID); err != nil {
		return hubwire.Node{}, err
	}
	release := func(bool) {}
	place := func() (shard int, err error) { // once the invite is good, for a new node
		shard, release, err = h.placeNode(ctx, nodeID)
		return shard, err
	}
	jctx, cancel := context.WithTimeout(ctx, placeJoinBound)
	n, err := h.reg.join(jctx, secret, nodeID, publicKey, ws, name, place, time.Now())
	cancel()
	release(err == nil)
	if err != nil {
		return hubwire.Node{}, err
	}
	if err := h.accounts.add(n); err != nil {
		return hubwire.Node{}, fmt.Errorf("join %s: %w", nodeID, err)
	}
	select {
	case <-h.shareAccount(n.ID):
	case <-ctx.Done():
		return hubwire.Node{}, fmt.Errorf("join %s: %w", nodeID, ctx.Err())
	}
	if err := h.syncSources(ctx, sourceAsk{Joined: []string{n.ID}}); err != nil {
		return hubwire.Node{}, fmt.Errorf("join %s: %w", nodeID, err)
	}
	h.cats.wait(ctx, n.Team) // made at the invite: a join waits only for one under way
	return n, nil
}

// Revoke revokes a node: its source leaves the aggregate (what it already
// delivered stays), its link is dropped and the server refuses its key
// from then on (the authenticator reads the registry at each connection).
func (h *Hub) Revoke(ctx context.Context, id string) (hubwire.Node, error) {
	n, err := h.reg.revoke(ctx, id, time.Now())
	if err != nil {
		return hubwire.Node{}, err
	}
	if err := h.syncSources(ctx, sourceAsk{Revoked: []string{id}}); err != nil {
		return hubwire.Node{}, fmt.Errorf("revoke %s: %w", id, err)
	}
	if err := h.dropLinks(id); err != nil {
		return hubwire.Node{}, fmt.Errorf("revoke %s: %w", id, err)
	}
	return n, nil
}

// dropLinks closes node id's leaf links.
func (h *Hub) dropLinks(id string) error {
	lz, err := h.ns.Leafz(&server.LeafzOptions{Account: nodeAccount(id)})
	if err != nil {
		return err
	}
	for _, l := range lz.Leafs {
		if l.Account == nodeAccount(id) {
			_ = h.ns.DisconnectClientByID(l.ID) // gone already is fine
		}
	}
	return nil
}

// Nodes returns the registry's nodes.
func (h *Hub) Nodes() []hubwire.Node { return h.reg.nodes() }
