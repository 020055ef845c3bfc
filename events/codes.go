package events

import "slices"

// Code is one value of the closed set of error codes a failed tool call
// carries: in the agent's answer (structuredContent.code) and in the
// envelope's errorCode (PROTOCOL.md, "Error contract"). The MCP layer maps
// errors to these codes; the schema generator reads the set from here.
// Adding a code is a deliberate change to PROTOCOL.md and to the tests that
// pin the set.
type Code string

// The closed set of error codes.
const (
	CodeInvalidParams         Code = "invalid_params"
	CodeSessionRequired       Code = "session_required"
	CodeSessionConflict       Code = "session_conflict"
	CodeUnknownRule           Code = "unknown_rule"
	CodeUnknownRuleOrWorkflow Code = "unknown_rule_or_workflow"
	CodeInvalidTargetKind     Code = "invalid_target_kind"
	CodeUnknownConstraint     Code = "unknown_constraint"
	CodeStaleRuleHash         Code = "stale_rule_hash"
	CodeUnsafePath            Code = "unsafe_path"
	CodeNotFound              Code = "not_found"
	CodeDraftExists           Code = "draft_exists"
	CodeIncompatibleDraft     Code = "incompatible_draft"
	CodeReadOnly              Code = "read_only"
	CodeUnavailable           Code = "unavailable"
	CodeOutcomeUnknown        Code = "outcome_unknown"
	CodeInternal              Code = "internal"
)

var codes = []Code{
	CodeInvalidParams, CodeSessionRequired, CodeSessionConflict, CodeUnknownRule,
	CodeUnknownRuleOrWorkflow, CodeInvalidTargetKind, CodeUnknownConstraint,
	CodeStaleRuleHash, CodeUnsafePath, CodeNotFound, CodeDraftExists,
	CodeIncompatibleDraft, CodeReadOnly, CodeUnavailable, CodeOutcomeUnknown, CodeInternal,
}

// Codes returns the closed set of error codes, sorted.
func Codes() []Code { return slices.Sorted(slices.Values(codes)) }

// Valid reports whether c is in the closed set.
func (c Code) Valid() bool { return slices.Contains(codes, c) }
