package schema

// errorCodes is the closed set of codes a failed tool call records in the
// envelope's errorCode (PROTOCOL.md, "Error contract"). The set is owned by
// package mcp; this package may not import it, so a test compares the two.
var errorCodes = []string{
	"invalid_params", "session_required", "session_conflict", "unknown_rule",
	"unknown_rule_or_workflow", "invalid_target_kind", "unknown_constraint",
	"stale_rule_hash", "unsafe_path", "not_found", "draft_exists",
	"incompatible_draft", "read_only", "unavailable", "internal",
}
