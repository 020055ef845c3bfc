// Package hublink owns a workspace's side of the hub link, node.Link: the
// node identity of this machine's clone (node id and nkey seed, kept in the
// state folder and never committed), joining a hub with a join token, the
// leaf-node link the workspace's owner dials out, the mirror of the team's
// catalog in the workspace's own server (read without network, serving
// what it last synced while the hub is away) laid over the owner's reads,
// the submission of team drafts to the hub and the recording of the hub's
// review outcomes. It may import node (the port), embeddednats, workspace,
// events, catalog, content, projections, hub/hubwire (the hub's names,
// join token and API client) and the nats libraries; never the hub server
// or mcp.
package hublink
