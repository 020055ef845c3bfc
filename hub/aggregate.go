package hub

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go/jetstream"
)

// AggregateStream is the hub's stream that sources every node's ledger.
const AggregateStream = "AGGREGATE"

// SubjectPrefix is the first token of the aggregate's subjects:
// hub.<team>.<workspaceId>.<nodeId>.<event type>.
const SubjectPrefix = "hub"

// ledgerStream is a workspace's stream name (as natsjs names it).
func ledgerStream(ws string) string { return "CLUMSIES_" + ws }

// ledgerSubjects covers a workspace's events (as events names them).
func ledgerSubjects(ws string) string { return "clumsies." + ws + ".>" }

// nodeSubjects is where a node's events land in the aggregate.
func nodeSubjects(n Node) string {
	return SubjectPrefix + "." + n.Team + "." + n.Workspace + "." + n.ID + ".>"
}

// source is the aggregate's source for node n: its ledger, pulled over
// its leaf link, with the subjects moved under the node's team, workspace
// and id.
func source(n Node) *jetstream.StreamSource {
	return &jetstream.StreamSource{
		Name:     ledgerStream(n.Workspace),
		External: &jetstream.ExternalStream{APIPrefix: apiPrefix(n.ID), DeliverPrefix: deliverPrefix(n.ID)},
		SubjectTransforms: []jetstream.SubjectTransformConfig{
			{Source: ledgerSubjects(n.Workspace), Destination: nodeSubjects(n)},
		},
	}
}

// isSourceOf reports whether s is node id's source.
func isSourceOf(s *jetstream.StreamSource, id string) bool {
	return s.External != nil && s.External.APIPrefix == apiPrefix(id)
}

// aggregateConfig is the aggregate's configuration with the sources of
// nodes.
func (h *Hub) aggregateConfig(nodes []Node) jetstream.StreamConfig {
	cfg := jetstream.StreamConfig{
		Name:        AggregateStream,
		Description: "every joined node's ledger, subjects hub.<team>.<workspaceId>.<nodeId>.<type>",
		Storage:     jetstream.FileStorage,
		Retention:   jetstream.LimitsPolicy,
		MaxMsgs:     -1,
		MaxBytes:    -1,
		Duplicates:  10 * time.Minute,
		Replicas:    h.cfg.Replicas(),
		Compression: jetstream.S2Compression,
		DenyDelete:  true,
		DenyPurge:   true,
	}
	for _, n := range nodes {
		if n.Active() {
			cfg.Sources = append(cfg.Sources, source(n))
		}
	}
	return cfg
}

// ensureAggregate creates the aggregate, or brings its sources in line
// with the registry.
func (h *Hub) ensureAggregate(ctx context.Context) error {
	h.ctrl.Lock()
	defer h.ctrl.Unlock()
	want := h.aggregateConfig(h.reg.nodes())
	return retry(ctx, func(ctx context.Context) error {
		_, err := h.js.CreateOrUpdateStream(ctx, want)
		if err != nil {
			return fmt.Errorf("create the aggregate stream: %w", err)
		}
		return nil
	})
}

// updateSources changes the aggregate's sources with edit, which gets the
// current list; the caller holds ctrl.
func (h *Hub) updateSources(ctx context.Context, edit func([]*jetstream.StreamSource) []*jetstream.StreamSource) error {
	return retry(ctx, func(ctx context.Context) error {
		st, err := h.js.Stream(ctx, AggregateStream)
		if err != nil {
			return fmt.Errorf("read the aggregate stream: %w", err)
		}
		info, err := st.Info(ctx)
		if err != nil {
			return fmt.Errorf("read the aggregate stream: %w", err)
		}
		cfg := info.Config
		cfg.Sources = edit(slices.Clone(cfg.Sources))
		if _, err := h.js.UpdateStream(ctx, cfg); err != nil {
			return fmt.Errorf("update the aggregate's sources: %w", err)
		}
		return nil
	})
}

// addSource adds node n's source (if it is missing); the caller holds ctrl.
func (h *Hub) addSource(ctx context.Context, n Node) error {
	return h.updateSources(ctx, func(s []*jetstream.StreamSource) []*jetstream.StreamSource {
		if slices.ContainsFunc(s, func(s *jetstream.StreamSource) bool { return isSourceOf(s, n.ID) }) {
			return s
		}
		return append(s, source(n))
	})
}

// removeSource removes node id's source; the caller holds ctrl.
func (h *Hub) removeSource(ctx context.Context, id string) error {
	return h.updateSources(ctx, func(s []*jetstream.StreamSource) []*jetstream.StreamSource {
		return slices.DeleteFunc(s, func(s *jetstream.StreamSource) bool { return isSourceOf(s, id) })
	})
}

// kick re-sources nodes: it removes and re-adds their sources (two
// updates of the aggregate for the whole batch), so that the aggregate
// asks each node for what it misses now rather than after the source's
// retry backoff (15 s to 2 min). A re-added source resumes after the last
// message the aggregate holds from it.
func (h *Hub) kick(ctx context.Context, ids ...string) error {
	h.ctrl.Lock()
	defer h.ctrl.Unlock()
	var nodes []Node
	for _, id := range ids {
		if n, ok := h.reg.node(id); ok && n.Active() {
			nodes = append(nodes, n)
		}
	}
	if len(nodes) == 0 {
		return nil
	}
	kicked := func(s *jetstream.StreamSource) bool {
		return slices.ContainsFunc(nodes, func(n Node) bool { return isSourceOf(s, n.ID) })
	}
	err := h.updateSources(ctx, func(s []*jetstream.StreamSource) []*jetstream.StreamSource {
		return slices.DeleteFunc(s, kicked)
	})
	if err == nil {
		err = h.updateSources(ctx, func(s []*jetstream.StreamSource) []*jetstream.StreamSource {
			for _, n := range nodes {
				s = append(s, source(n))
			}
			return s
		})
	}
	if err != nil {
		return fmt.Errorf("re-source %d nodes: %w", len(nodes), err)
	}
	return nil
}

// Invite makes a one-time join token for a workspace of team, optionally
// naming the member who will use it.
func (h *Hub) Invite(ws, team, member string) (string, error) {
	if !validWorkspaceID(ws) {
		return "", fmt.Errorf("%w: workspace %q is not a workspace id (ws-...)", ErrInvalid, ws)
	}
	if !validName(team) {
		return "", fmt.Errorf("%w: team %q: use letters, digits, '-' and '_'", ErrInvalid, team)
	}
	if member != "" && !validName(member) {
		return "", fmt.Errorf("%w: member %q: use letters, digits, '-' and '_'", ErrInvalid, member)
	}
	secret, err := h.reg.addInvite(team, ws, member, time.Now())
	if err != nil {
		return "", err
	}
	return JoinToken{HTTP: h.cfg.APIURL(), Leaf: h.cfg.leafURL(), Secret: secret}.Encode(), nil
}

// Join registers a node with the invite's secret: it adds the node's
// account to the server and its ledger to the aggregate.
func (h *Hub) Join(ctx context.Context, secret, nodeID, publicKey, ws string) (Node, error) {
	if !validNodeID(nodeID) || !validPublicKey(publicKey) {
		return Node{}, fmt.Errorf("%w: node id %q or public key %q", ErrInvalid, nodeID, publicKey)
	}
	h.ctrl.Lock()
	defer h.ctrl.Unlock()
	n, err := h.reg.join(secret, nodeID, publicKey, ws, time.Now())
	if err != nil {
		return Node{}, err
	}
	if err := h.reload(); err != nil {
		return Node{}, fmt.Errorf("join %s: %w", nodeID, err)
	}
	if err := h.addSource(ctx, n); err != nil {
		return Node{}, fmt.Errorf("join %s: %w", nodeID, err)
	}
	return n, nil
}

// Revoke revokes a node: its source leaves the aggregate (what it already
// delivered stays) and its account and key leave the server, which drops
// its link and refuses it from then on.
func (h *Hub) Revoke(ctx context.Context, id string) (Node, error) {
	h.ctrl.Lock()
	defer h.ctrl.Unlock()
	n, err := h.reg.revoke(id, time.Now())
	if err != nil {
		return Node{}, err
	}
	if err := h.removeSource(ctx, id); err != nil {
		return Node{}, fmt.Errorf("revoke %s: %w", id, err)
	}
	if err := h.reload(); err != nil {
		return Node{}, fmt.Errorf("revoke %s: %w", id, err)
	}
	// A reload re-checks clients, not leaf links: drop the node's link.
	if err := h.dropLinks(id); err != nil {
		return Node{}, fmt.Errorf("revoke %s: %w", id, err)
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
func (h *Hub) Nodes() []Node { return h.reg.nodes() }

var errClosed = errors.New("hub: closed")
