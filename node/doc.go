// Package node owns the running parts of a workspace: in the process that
// owns it, the embedded NATS server and its lock, the JetStream event log,
// the pebble projections and their projector, publishing the content tree
// (and, when asked, watching it and publishing every change), and a read
// service that the workspace's other processes reach through a
// private unix socket; in every other process, the connection to that
// owner. Attach returns a Handle that is either, and takes over when the
// owner goes. It ties together embeddednats, natsjs, projections, catalog,
// contentwatch and workspace; it does not import the MCP SDK and holds no tool logic.
// The dashboard's commit pages are answered here from the ledger and the
// git repository through commitcheck (and gitrepo), as clumsies check is.
// A hub is reached only through the Link port (hublink implements it): node
// imports neither the hub server, nor hub/hubwire, nor mcp.
package node
