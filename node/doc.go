// Package node owns the running parts of one workspace in the process that
// owns it: the embedded NATS server and its lock, the JetStream event log,
// the pebble projections and their projector, publishing the content tree,
// and the ledger the MCP tools record through. It ties together
// embeddednats, natsjs, projections, catalog and workspace; it does not
// import the MCP SDK and holds no tool logic.
package node
