package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"

	"github.com/clumsies/clumsies/events"
)

// RetryAction tells an agent what to do before calling again. Like the error codes it
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

// codes maps every code of the closed set (events.Codes) to what the agent
// is told about it: whether to retry, and how. A ToolError may still
// override Retryable and RetryAction. A test keeps the keys equal to the
// set.
var codes = map[events.Code]codeInfo{
	events.CodeInvalidParams:         {true, RetryFixArguments},
	events.CodeSessionRequired:       {true, RetryCallMemsetup},
	events.CodeSessionConflict:       {false, ""},
	events.CodeUnknownRule:           {true, RetryRediscoverAndReload},
	events.CodeUnknownRuleOrWorkflow: {true, RetryRediscoverAndReload},
	events.CodeInvalidTargetKind:     {false, ""},
	events.CodeUnknownConstraint:     {true, RetryWithValidConstraint},
	events.CodeStaleRuleHash:         {true, RetryReloadAndRetry},
	events.CodeUnsafePath:            {true, RetryFixArguments},
	events.CodeNotFound:              {true, RetryRediscoverAndReload},
	events.CodeDraftExists:           {false, RetryUseExistingOrAnotherPath},
	events.CodeIncompatibleDraft:     {false, ""},
	events.CodeReadOnly:              {false, ""},
	events.CodeUnavailable:           {true, RetryLater},
	events.CodeOutcomeUnknown:        {false, ""},
	events.CodeInternal:              {false, ""},
}

// retryActions returns the closed set of retry actions, sorted.
func retryActions() []RetryAction {
	return []RetryAction{
		RetryCallMemsetup, RetryFixArguments, RetryReloadAndRetry, RetryRediscoverAndReload,
		RetryLater, RetryWithValidConstraint, RetryUseExistingOrAnotherPath,
	}
}

// ToolError is a failed tool call as the agent sees it. Tools return it;
// anything else a tool returns is classified as events.CodeInternal at the boundary
// (see classify).
type ToolError struct {
	Code        events.Code
	Message     string // for the agent: says what went wrong and what to do
	Retryable   bool
	RetryAction RetryAction    // "" when there is nothing specific to do
	Extra       map[string]any // code-specific fields: field, index, validConstraints, currentHash, existingId
}

func (e *ToolError) Error() string { return string(e.Code) + ": " + e.Message }

// toolErr returns a ToolError with the defaults of its code.
func toolErr(code events.Code, format string, args ...any) *ToolError {
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
	e := toolErr(events.CodeInvalidParams, format, args...)
	if field != "" {
		e.with("field", field)
	}
	return e
}

// Messages for the codes whose text does not depend on the call.
const (
	msgInternal    = "internal error in the clumsies server; the details are in its log. Carry on without this call."
	msgUnavailable = "the clumsies ledger is unavailable and did not store this call; retry it shortly."
	// msgOutcomeUnknown tells the agent what to do with a call whose
	// event may or may not be stored yet (see notStored).
	msgOutcomeUnknown = "the clumsies ledger has not confirmed this call yet: its event %s is stored at most once, and clumsies keeps storing it in the background. Do not repeat the call; carry on with your work (an artifact call: check memdisc for the draft before you stage it again)."
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
		return unavailable(err)
	}
	log.Error("tool call failed", "tool", tool, "error", err)
	return toolErr(events.CodeInternal, msgInternal)
}

// notStored is the answer of a call whose event the ledger did not
// confirm: outcome_unknown (not retryable: a retry would be a second
// event) when the event may still be stored, unavailable (retry later)
// when it certainly is not.
func notStored(err error, log *slog.Logger, tool string) *ToolError {
	var ou interface{ OutcomeUnknown() string }
	if errors.As(err, &ou) {
		log.Warn("tool call answered outcome_unknown", "tool", tool, "error", err)
		return toolErr(events.CodeOutcomeUnknown, msgOutcomeUnknown, ou.OutcomeUnknown()).with("eventId", ou.OutcomeUnknown())
	}
	log.Error("record event", "tool", tool, "error", err)
	return unavailable(err)
}

// unavailable is the answer of a call the ledger did not store. A
// cause the user can act on (err has a Reason, such as a workspace that
// cannot be opened) is part of the message.
func unavailable(err error) *ToolError {
	var r interface{ Reason() string }
	if errors.As(err, &r) && r.Reason() != "" {
		return toolErr(events.CodeUnavailable, "%s The workspace cannot be opened: %s", msgUnavailable, r.Reason())
	}
	return toolErr(events.CodeUnavailable, msgUnavailable)
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
