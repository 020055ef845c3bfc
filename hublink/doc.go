// Package hublink owns a workspace's side of the hub link: the node
// identity of this machine's clone (node id and nkey seed, kept in the
// state folder and never committed), joining a hub with a join token, and
// the leaf-node link the workspace's owner dials out. It may import
// embeddednats, workspace, hub (for the join token and the API's wire
// types) and the nats libraries.
package hublink
