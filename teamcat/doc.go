// Package teamcat owns a workspace's copy of its team's catalog: a
// JetStream key-value mirror, in the workspace's own server, of the team's
// catalog bucket at the hub, pulled over the owner's leaf link, and the
// in-memory view of it that tool calls read (no network on a tool call).
// The mirror keeps serving what it last synced while the hub is away. It
// may import hub/hubwire (for the catalog's names and entry type), content
// and the nats libraries; never the hub server, node, mcp or projections.
package teamcat
