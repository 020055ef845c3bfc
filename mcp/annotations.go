package mcp

import "github.com/modelcontextprotocol/go-sdk/mcp"

// What a tool's calls change, told to hosts as MCP tool annotations, so
// that a host can approve the read-only tools without asking the user.
//
// Every call records an event in the ledger, read-only tools included. That
// event is the server's own record of the call, not something of the
// user's: memsetup, memdisc and memload change no file, no rule and no
// draft, so calling them again changes nothing the user owns either. The
// other tools add to what a person reads: memref, agentreport and
// agentrejected add attestations to the session, artifact stages drafts.
// None of them is destructive (a draft changes nothing until a person has
// reviewed and applied it), and none is idempotent (a second call records a
// second ref, report or draft, or fails where the first succeeded). All of
// them act on the workspace's own catalog only: no open world.

// access is what a tool's calls change, for the host.
type access int

const (
	readOnly access = iota // nothing the user owns
	additive               // adds records or drafts; removes nothing
)

// annotations returns the tool annotations of a tool with this title and
// access.
func annotations(title string, a access) *mcp.ToolAnnotations {
	closed := false
	an := &mcp.ToolAnnotations{Title: title, OpenWorldHint: &closed}
	switch a {
	case readOnly:
		an.ReadOnlyHint, an.IdempotentHint = true, true
	case additive:
		notDestructive := false
		an.DestructiveHint = &notDestructive
	}
	return an
}
