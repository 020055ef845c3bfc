// Package front is what the small `clumsies` binary and the core binary
// (`clumsies-core`) share about a stdio session the front began.
//
// An agent host spawns `clumsies serve` and waits for the answer to
// initialize before anything else. The front answers it at once from the
// workspace's META_PROMPT (it links none of the ledger, the read models or
// NATS, so it starts in about the time of a bare go-sdk server), then
// replaces itself with the core through exec: the same process, the same
// stdin and stdout. The core learns from the environment (State, under
// Env) which request was answered and with what, and which bytes the front
// read past it; it replays the request into its own MCP session, keeps its
// own answer to itself (checking that it says the same), and serves the
// rest.
//
// The front answers only what it is sure the core would answer the same
// way (see Answer); anything else is handed over unanswered.
package front
