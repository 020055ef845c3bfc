// Package natsjs owns the JetStream-backed events.Log: one stream per
// workspace, appends deduplicated by event id (Nats-Msg-Id), and ordered
// replay and subscription; it must not import nats-server (only events,
// nats.go and the standard library), so it works against any server the
// caller connects to.
//
// The stream is named after the workspace (see StreamName), holds the
// subjects clumsies.<workspaceId>.>, is file-backed, and has DenyDelete and
// DenyPurge set: the ledger is append-only. How often the store is fsynced is
// the server's setting (embeddednats.Server.Sync); Append returns only after
// JetStream has acknowledged the event under that setting and, when the
// log has an Options.Sync (a server in embeddednats.SyncGroup), after that
// Syncer has made it durable.
package natsjs
