// Package hub owns the Hub: a NATS server with JetStream (domain "hub")
// that aggregates the ledgers of many workspaces, the projector that
// counts them into pebble, and its HTTP API (see ARCHITECTURE.md,
// decision 6, and docs/hub.md). It may import events, nats-server,
// nats.go, nkeys, pebble and toml; never the workspace side (node,
// hublink, mcp).
//
// Every clone of a workspace that joins is a node with its own nkey and
// NATS account. The node's owner dials the hub's leaf listener; its link
// is bound to the node's account, which exports to the hub account only
// the node's JetStream API, deliver subjects and flow control. Each node
// is placed at its join in a shard of at most ShardSize nodes (its place
// taken with a compare-and-set on the shard's entry in the registry, so
// that joins at several hubs at once cannot overfill it), a stream
// in the hub account that sources its nodes' ledgers over their links,
// moving the subjects to hub.<team>.<workspaceId>.<nodeId>.>; one
// aggregate stream sources the shards, and the projector follows it,
// reading each message's copy in its shard for the node's source header
// (a copy its shard lost is counted from the aggregate's own; a shard
// stream deleted is made again at once).
// The nodes' accounts are added to the running server in process (the
// generated nats-server config names no node and is never reloaded), and
// the hub's authenticator admits each link; the hub's controller is the
// only writer of the shards' and the aggregate's sources (each list
// written only when it changes, for at most MaxNodes nodes; in a cluster
// only the aggregate's leader writes them, and the other hubs ask it);
// when a node's link comes up it
// re-sources the node so that sourcing resumes in about a second, and
// again while the node's source has not heard from it; a hub that takes
// the lead of the aggregate or of a shard has it re-sourced too.
//
// The hub also holds each team's catalog (a key-value bucket per team,
// the bucket's sequence its revision, made as soon as the hub hears of
// the team, by the cluster's writer: catalogready.go), which the team's
// nodes mirror over the same link, and the review of the drafts agents make on team objects:
// a queue folded from the nodes' draft events in the aggregate and from
// the hub's own ledger (HUB_LEDGER), where catalog changes and review
// outcomes are recorded and from which each node mirrors the outcomes
// about its workspace. It may also import content and catalog, for the
// catalog's parsing and the drafts aggregate's fold.
//
// What the hub shares with its clients (the names of its streams, buckets
// and subjects, its API's request and answer types, error codes, the join
// token and the node-key signature, and the API's one Client) is package
// hubwire: the handlers here serve its types, and nothing outside the
// server but what starts a hub imports this package.
package hub
