// Package mcp owns the agent-facing protocol of clumsies: the seven MCP
// tools (memsetup, memdisc, memload, memref, agentreport, agentrejected,
// artifact), their schemas, the error contract, the instructions, and the
// binding of connections to agent sessions. It is the only package that
// imports the MCP SDK; besides the standard library it imports only events,
// content and the read side of projections.
//
// Tools read only a Catalog (the projections) and write only through a
// Ledger: every call, failed or not, records exactly one event before it
// answers, and the Ledger returns once the projections have applied it, so
// the next call sees the write. Every failed call answers with isError and a
// structured payload {error, code, retryable, retryAction?, ...}; the codes
// are the closed set in errors.go.
//
// The SDK validates tool arguments only for tools registered with its
// generic AddTool, and reports failures as text. The tools here are
// registered with the low-level Server.AddTool and decode their arguments
// themselves (decode.go), so that argument errors are structured too.
//
// A successful answer carries its JSON as structuredContent and again as
// a text block, as the MCP specification asks for backwards
// compatibility; memdisc writes its text block for the model instead (a
// listing, one line per item) for clients of 2025-06-18 and later, which
// read the structure from structuredContent (modeltext.go, listing.go).
// Over stdio the answer is encoded once (encoded.go).
//
// Client connects a real MCP client to a Server in memory, for the demo,
// benchmarks and tests, so that no other package needs the SDK.
package mcp
