// Package evidence is the one definition of a session's evidence: the
// files the host's hooks saw it touch (attest.file_edit), the rules in
// scope for them, whether the agent loaded each before the edit, and the
// memref claims the ledger does not back, and what the gates recorded
// (attest.tool_gated, the unloaded and protected files of attest.file_edit,
// attest.stop_blocked's files). The workspace's read model
// (projections) and the hub's (hub) fold their events into a Row each, so
// that the hub's figures for a workspace are the workspace's own.
package evidence
