// Package evidence is the one definition of a session's evidence: the
// files the host's hooks saw it touch (attest.file_edit), the rules in
// scope for them, whether the agent loaded each before the edit, and the
// memref claims the ledger does not back, and what the gates recorded
// (attest.tool_gated, the unloaded and protected files of attest.file_edit,
// attest.stop_blocked's files). A session's Row is also the one record
// of what it loaded (Loads: the versions of each rule it received, under
// the id the rule has now), which the workspace's pre-tool gate reads as
// the evidence does, so that the two cannot disagree after a
// catalog.reid. The workspace's read model
// (projections) and the hub's (hub) fold their events into a Row each, so
// that the hub's figures for a workspace are the workspace's own.
package evidence
