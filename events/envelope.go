package events

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	fastjson "github.com/segmentio/encoding/json"
)

// SchemaVersion is the version of the envelope and payload encoding written
// by this build. Decode refuses events written by a newer version.
const SchemaVersion = 1

// Outcome says whether the tool call that produced an event succeeded.
type Outcome string

// Outcomes of a tool call. Non-tool events (catalog, review) are always OK.
const (
	OutcomeOK    Outcome = "ok"
	OutcomeError Outcome = "error"
)

// Event is the immutable envelope of one ledger entry. Data holds the
// type-specific payload (see payloads.go) as raw JSON so that the envelope can
// be read without knowing every payload.
type Event struct {
	// Seq is the stream sequence. It is set when an event is read from a Log
	// and is never part of the stored bytes.
	Seq         uint64  `json:"seq,omitempty"`
	V           int     `json:"v"`
	ID          string  `json:"id"`
	Type        Type    `json:"type"`
	Time        string  `json:"time"`
	WorkspaceID string  `json:"workspaceId"`
	SessionID   string  `json:"sessionId"`
	Tool        string  `json:"tool,omitempty"`
	Outcome     Outcome `json:"outcome"`
	ErrorCode   string  `json:"errorCode,omitempty"`
	DurationUs  int64   `json:"durationUs"`
	// OpenWaitUs is how long a tool call waited for the workspace to open
	// before it began, in microseconds (the first calls after serve
	// starts); absent when it did not wait, and in events recorded before
	// it was kept apart, whose durationUs may include it.
	OpenWaitUs int64 `json:"openWaitUs,omitempty"`
	// Client is the name of the MCP client that made a tool call, as its
	// initialize gave it; Conn the id this server gave the connection the
	// call came over (absent over HTTP at protocol 2026-07-28, where each
	// request is a connection of its own). Absent in events that are no
	// tool calls and in events recorded before they were kept.
	Client string `json:"client,omitempty"`
	Conn   string `json:"conn,omitempty"`
	// Unbound marks a tool call of a session that is not bound to
	// whoever set it up (one set up before sessions were bound).
	Unbound bool            `json:"unbound,omitempty"`
	Data    json.RawMessage `json:"data"`
	// Team is the team an event of the hub's ledger is about (its
	// catalog, a review of one of its workspaces); never set in a
	// workspace's ledger.
	Team string `json:"team,omitempty"`
	// Raw is the event exactly as the log stores it. Like Seq, it is set
	// when an event is read from a Log and is never encoded; the ledger's
	// hash chain (ChainDigest) is computed over it.
	Raw []byte `json:"-"`
}

// TimeLayout is the envelope's time format: RFC 3339, UTC, milliseconds.
const TimeLayout = "2006-01-02T15:04:05.000Z"

// FormatTime renders t in the envelope's time format.
func FormatTime(t time.Time) string { return t.UTC().Format(TimeLayout) }

// ValidWorkspaceID reports whether id can be used as a workspace id:
// "ws-" and then 1 to 63 lowercase letters, digits and dashes, not starting
// with a dash. It is part of every subject, so it may hold no dots,
// wildcards or spaces. (Checked by hand: it runs for every decoded event.)
func ValidWorkspaceID(id string) bool {
	rest, ok := strings.CutPrefix(id, "ws-")
	if !ok || len(rest) == 0 || len(rest) > 63 || rest[0] == '-' {
		return false
	}
	for i := 0; i < len(rest); i++ {
		c := rest[i]
		if (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '-' {
			return false
		}
	}
	return true
}

// New returns an event of type t with a fresh id, the current time, outcome
// OK and data encoded from payload (nil payload encodes as {}).
func New(workspaceID string, t Type, payload any) (Event, error) {
	data, err := marshalPayload(payload)
	if err != nil {
		return Event{}, fmt.Errorf("encode %s payload: %w", t, err)
	}
	return Event{
		V:           SchemaVersion,
		ID:          NewID(),
		Type:        t,
		Time:        FormatTime(time.Now()),
		WorkspaceID: workspaceID,
		Outcome:     OutcomeOK,
		Data:        data,
	}, nil
}

func marshalPayload(payload any) (json.RawMessage, error) {
	if payload == nil {
		return json.RawMessage(`{}`), nil
	}
	if raw, ok := payload.(json.RawMessage); ok {
		return raw, nil
	}
	return json.Marshal(payload)
}

// Validate checks the fields every stored event must have.
func (e Event) Validate() error {
	switch {
	case e.ID == "":
		return fmt.Errorf("%w: empty id", ErrMalformed)
	case !ValidWorkspaceID(e.WorkspaceID):
		return fmt.Errorf("%w: workspace id %q", ErrMalformed, e.WorkspaceID)
	case !e.Type.Valid():
		return fmt.Errorf("%w: unknown type %q", ErrMalformed, e.Type)
	case e.Outcome != OutcomeOK && e.Outcome != OutcomeError:
		return fmt.Errorf("%w: outcome %q", ErrMalformed, e.Outcome)
	case e.V < 1:
		return fmt.Errorf("%w: schema version %d", ErrMalformed, e.V)
	}
	return nil
}

// Payload decodes e.Data into the payload type registered for e.Type, or
// into FailureData when the event records a failed call.
func (e Event) Payload() (any, error) {
	p, ok := NewPayload(e.Type)
	if e.Outcome == OutcomeError {
		p, ok = new(FailureData), true
	}
	if !ok {
		return nil, fmt.Errorf("%w: unknown type %q", ErrMalformed, e.Type)
	}
	if len(e.Data) == 0 {
		return p, nil
	}
	if err := fastjson.Unmarshal(e.Data, p); err != nil {
		return nil, fmt.Errorf("decode %s payload of %s: %w", e.Type, e.ID, err)
	}
	return p, nil
}
