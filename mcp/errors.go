package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
)

// Code is one value of the closed set of error codes a failed tool call
// carries in structuredContent.code (PROTOCOL.md, "Error contract"). Adding
// a code is a deliberate change to PROTOCOL.md and to TestErrorCodes.
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
	CodeInternal              Code = "internal"
)

// RetryAction tells an agent what to do before calling again. Like Code it
// is a closed set.
type RetryAction string

// The retry actions.
const (
	RetryFixArguments             RetryAction = "fix_arguments"
	RetryCallMemsetup             RetryAction = "call_memsetup"
	RetryRediscoverAndReload      RetryAction = "rediscover_and_reload"
	RetryWithValidConstraint      RetryAction = "retry_with_valid_constraint"
	RetryReloadAndRetry           RetryAction = "reload_and_retry"
	RetryLater                    RetryAction = "retry_later"
	RetryUseExistingOrAnotherPath RetryAction = "use_existing_or_another_path"
)

// codeInfo is what every error of a code has in common: whether an agent
// can recover by calling again, and how.
type codeInfo struct {
	retryable bool
	action    RetryAction
}

// codes is the one place that lists the closed set, with each code's
// defaults. A ToolError may still override Retryable and RetryAction.
var codes = map[Code]codeInfo{
	CodeInvalidParams:         {true, RetryFixArguments},
	CodeSessionRequired:       {true, RetryCallMemsetup},
	CodeSessionConflict:       {false, ""},
	CodeUnknownRule:           {true, RetryRediscoverAndReload},
	CodeUnknownRuleOrWorkflow: {true, RetryRediscoverAndReload},
	CodeInvalidTargetKind:     {false, ""},
	CodeUnknownConstraint:     {true, RetryWithValidConstraint},
	CodeStaleRuleHash:         {true, RetryReloadAndRetry},
	CodeUnsafePath:            {true, RetryFixArguments},
	CodeNotFound:              {true, RetryRediscoverAndReload},
	CodeDraftExists:           {false, RetryUseExistingOrAnotherPath},
	CodeIncompatibleDraft:     {false, ""},
	CodeReadOnly:              {false, ""},
	CodeUnavailable:           {true, RetryLater},
	CodeInternal:              {false, ""},
}

// Codes returns the closed set of error codes, sorted.
func Codes() []Code {
	out := make([]Code, 0, len(codes))
	for c := range codes {
		out = append(out, c)
	}
	slices.Sort(out)
	return out
}

// retryActions returns the closed set of retry actions, sorted.
func retryActions() []RetryAction {
	return []RetryAction{
		RetryCallMemsetup, RetryFixArguments, RetryReloadAndRetry, RetryRediscoverAndReload,
		RetryLater, RetryWithValidConstraint, RetryUseExistingOrAnotherPath,
	}
}

// ToolError is a failed tool call as the agent sees it. Tools return it;
// anything else a tool returns is classified as CodeInternal at the boundary
// (see classify).
type ToolError struct {
	Code        Code
	Message     string // for the agent: says what went wrong and what to do
	Retryable   bool
	RetryAction RetryAction    // "" when there is nothing specific to do
	Extra       map[string]any // code-specific fields: field, index, validConstraints, currentHash, existingId
}

func (e *ToolError) Error() string { return string(e.Code) + ": " + e.Message }

// toolErr returns a ToolError with the defaults of its code.
func toolErr(code Code, format string, args ...any) *ToolError {
	info, ok := codes[code]
	if !ok {
		panic(fmt.Sprintf("mcp: error code %q is not in the closed set", code))
	}
	return &ToolError{Code: code, Message: fmt.Sprintf(format, args...), Retryable: info.retryable, RetryAction: info.action}
}

// with returns e with one more code-specific field.
func (e *ToolError) with(key string, v any) *ToolError {
	if e.Extra == nil {
		e.Extra = map[string]any{}
	}
	e.Extra[key] = v
	return e
}

// invalidParams is the error of an argument that does not match the input
// schema; field is the JSON path of the argument ("refs[0].constraintId").
func invalidParams(field, format string, args ...any) *ToolError {
	e := toolErr(CodeInvalidParams, format, args...)
	if field != "" {
		e.with("field", field)
	}
	return e
}

// Messages for the codes whose text does not depend on the call.
const (
	msgInternal    = "internal error in the clumsies server; the details are in its log. Carry on without this call."
	msgUnavailable = "the clumsies ledger is unavailable and could not confirm this call; retry it shortly."
)

// classify maps any error a tool returned to the ToolError the agent gets.
// This is the only place that decides that an error is internal: the full
// error is logged, the agent gets a short message without Go error text.
func classify(err error, log *slog.Logger, tool string) *ToolError {
	var te *ToolError
	if errors.As(err, &te) {
		if _, ok := codes[te.Code]; ok {
			return te
		}
	}
	// A backend that could not reach the workspace for now says so with an
	// Unavailable() method (node.ErrUnavailable does); the agent may retry.
	var ua interface{ Unavailable() bool }
	if errors.As(err, &ua) && ua.Unavailable() {
		log.Warn("tool call failed: workspace unavailable", "tool", tool, "error", err)
		return toolErr(CodeUnavailable, msgUnavailable)
	}
	log.Error("tool call failed", "tool", tool, "error", err)
	return toolErr(CodeInternal, msgInternal)
}

// payload returns the structuredContent of a failed call: error, code,
// retryable, retryAction when set, then the code-specific fields in key
// order.
func (e *ToolError) payload() json.RawMessage {
	var buf bytes.Buffer
	put := func(k string, v any) {
		b, err := json.Marshal(v)
		if err != nil {
			b = []byte("null")
		}
		if buf.Len() > 1 {
			buf.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		buf.Write(kb)
		buf.WriteByte(':')
		buf.Write(b)
	}
	buf.WriteByte('{')
	put("error", e.Message)
	put("code", e.Code)
	put("retryable", e.Retryable)
	if e.RetryAction != "" {
		put("retryAction", e.RetryAction)
	}
	keys := make([]string, 0, len(e.Extra))
	for k := range e.Extra {
		switch k {
		case "error", "code", "retryable", "retryAction":
			continue // the base fields cannot be overridden
		}
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		put(k, e.Extra[k])
	}
	buf.WriteByte('}')
	return buf.Bytes()
}
