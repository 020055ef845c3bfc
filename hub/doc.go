// Package hub will own the Hub: a NATS server with JetStream that sources
// the streams of many workspaces over leaf-node connections, aggregates their
// usage, and publishes the authoritative catalog that workspaces mirror (see
// ARCHITECTURE.md, decision 6). It may import events, projections and
// embeddednats. Nothing is implemented yet: the hub is planned work.
package hub
