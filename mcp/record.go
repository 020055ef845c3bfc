package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/clumsies/clumsies/events"
)

// Ledger records one event durably. Record returns once the event is stored
// and, when it changes the catalog (events.Event.ChangesCatalog), once the
// projections have applied it, so the next read of the Catalog sees it. An
// error means the event is not stored (the tool answers unavailable),
// unless it has an OutcomeUnknown() string method: then the event is
// stored at most once and may still be (the tool answers outcome_unknown
// with the event id that method returns).
type Ledger interface {
	Record(ctx context.Context, ev events.Event) error
	// RecordExpecting is Record on the condition of events.Log's
	// AppendExpecting. On events.ErrConflict nothing was stored, and the
	// read models have caught up with the event that came first, so the
	// caller can read and decide again at once.
	RecordExpecting(ctx context.Context, ev events.Event, exp events.Expectation) error
}

// LogLedger is the Ledger of a process that owns the log and the
// projections: it appends to Log and, for an event that changes the
// catalog, waits until Store has applied it.
type LogLedger struct {
	Log   events.Log
	Store interface {
		WaitFor(ctx context.Context, seq uint64) error
	}
}

// Record implements Ledger.
func (l LogLedger) Record(ctx context.Context, ev events.Event) error {
	seq, err := l.Log.Append(ctx, ev)
	if err != nil {
		return fmt.Errorf("append %s: %w", ev.Type, err)
	}
	return l.applied(ctx, ev, seq)
}

// RecordExpecting implements Ledger.
func (l LogLedger) RecordExpecting(ctx context.Context, ev events.Event, exp events.Expectation) error {
	seq, err := l.Log.AppendExpecting(ctx, ev, exp)
	var ce *events.ConflictError
	if errors.As(err, &ce) {
		last := ce.Actual
		if last == 0 {
			if last, err = l.Log.LastSeq(ctx); err != nil {
				return fmt.Errorf("read the last sequence after a conflict: %w", err)
			}
		}
		if werr := l.Store.WaitFor(ctx, last); werr != nil {
			return fmt.Errorf("wait for seq %d after a conflict: %w", last, werr)
		}
		return ce
	}
	if err != nil {
		return fmt.Errorf("append %s: %w", ev.Type, err)
	}
	return l.applied(ctx, ev, seq)
}

func (l LogLedger) applied(ctx context.Context, ev events.Event, seq uint64) error {
	if !ev.ChangesCatalog() {
		return nil
	}
	if err := l.Store.WaitFor(ctx, seq); err != nil {
		return fmt.Errorf("wait for %s at seq %d: %w", ev.Type, seq, err)
	}
	return nil
}

// entry is what a tool call leaves in the ledger, apart from the envelope
// fields every call shares.
type entry struct {
	typ       events.Type
	payload   any    // for a successful call
	sessionID string // the session the call belongs to
	// expect, when set, is the state a successful call decided on: its
	// event is appended only if that state is still current.
	expect *events.Expectation
}

// newEvent builds the one event of a tool call. A failed call carries
// FailureData with the raw arguments, cut to events.MaxFailureArgs. It
// returns the failure the call ends with: fail, or internal when the
// payload could not be encoded.
func (s *Server) newEvent(tool string, e entry, raw json.RawMessage, fail *ToolError, took time.Duration) (events.Event, *ToolError) {
	var payload any = e.payload
	if fail != nil {
		payload = failureData(fail.Message, raw)
	}
	ev, err := events.New(s.cfg.WorkspaceID, e.typ, payload)
	if err != nil {
		// Only a payload that cannot be encoded gets here; record the call
		// anyway, as a failure without its data.
		s.log.Error("encode event payload", "tool", tool, "type", e.typ, "error", err)
		ev, _ = events.New(s.cfg.WorkspaceID, e.typ, events.FailureData{Message: msgInternal})
		fail = toolErr(events.CodeInternal, msgInternal)
	}
	ev.SessionID = e.sessionID
	ev.Tool = tool
	if fail != nil {
		ev.Outcome = events.OutcomeError
		ev.ErrorCode = string(fail.Code)
	}
	ev.DurationUs = took.Microseconds()
	return ev, fail
}

// failureData is the payload of a failed call. Arguments longer than
// events.MaxFailureArgs are kept as a JSON string holding their start, so
// that the payload stays valid JSON.
func failureData(msg string, raw json.RawMessage) events.FailureData {
	f := events.FailureData{Message: msg}
	raw = withoutSecret(raw)
	switch {
	case len(raw) == 0:
	case len(raw) <= events.MaxFailureArgs && json.Valid(raw):
		f.Args = raw
	default:
		f.Args, f.ArgsTruncated = cutArgs(raw), true
	}
	return f
}

// cutArgs returns a JSON string of at most events.MaxFailureArgs bytes
// holding the start of raw.
func cutArgs(raw []byte) json.RawMessage {
	n := min(len(raw), events.MaxFailureArgs)
	for {
		for n > 0 && n < len(raw) && !utf8.RuneStart(raw[n]) {
			n-- // never cut a character in two
		}
		b, _ := json.Marshal(string(raw[:n]))
		if len(b) <= events.MaxFailureArgs {
			return b
		}
		n = max(0, n-(len(b)-events.MaxFailureArgs))
	}
}
