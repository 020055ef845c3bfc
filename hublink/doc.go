// Package hublink owns a workspace's side of the hub link: the node
// identity of this machine's clone (node id and nkey seed, kept in the
// state folder and never committed), joining a hub with a join token, and
// the leaf-node link the workspace's owner dials out. It may import
// embeddednats, workspace, hub/hubwire (the join token and the hub's API
// client) and the nats libraries; never the hub server.
package hublink
