package foldcase

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
)

// Line is one event of a workspace fold case (projections/testdata/fold):
// its type and payload ("data"), its session when not the default, and
// the error code that makes it a failed call.
type Line struct {
	Type    events.Type     `json:"type"`
	Session *string         `json:"session,omitempty"`
	Code    string          `json:"code,omitempty"`
	Data    json.RawMessage `json:"data"`
}

// Events appends the events of c's lines, of workspace, to a new memory
// log and returns them as the log delivers them: with their sequences
// and stored bytes. Each is made by NewEvent, then given its line's
// session and failure; a catalog.publish without a hash gets its body's,
// so cases need not spell hashes out.
func Events(tb testing.TB, workspace string, c Case) []events.Event {
	tb.Helper()
	ctx := context.Background()
	log := events.NewMemoryLog()
	for n, l := range Lines[Line](tb, c) {
		var payload any = l.Data
		if l.Type == events.TypeCatalogPublish {
			payload = withHash(tb, c, l.Data)
		}
		ev := NewEvent(tb, workspace, n, l.Type, payload)
		if l.Session != nil {
			ev.SessionID = *l.Session
		}
		if l.Code != "" {
			ev.Outcome, ev.ErrorCode = events.OutcomeError, l.Code
		}
		if _, err := log.Append(ctx, ev); err != nil {
			tb.Fatalf("%s: event %d: %v", c.File, n+1, err)
		}
	}
	var out []events.Event
	if err := log.Replay(ctx, 1, func(ev events.Event) error {
		out = append(out, ev)
		return nil
	}); err != nil {
		tb.Fatalf("%s: replay: %v", c.File, err)
	}
	return out
}

// NewEvent returns a new event of type t with payload, of workspace, the
// n-th (from 0) of its ledger: at 2026-01-02T03:04:05Z plus n seconds,
// and for a tool call, of its tool (Tool), in session "s1", taking 10µs.
func NewEvent(tb testing.TB, workspace string, n int, t events.Type, payload any) events.Event {
	tb.Helper()
	ev, err := events.New(workspace, t, payload)
	if err != nil {
		tb.Fatalf("new %s event: %v", t, err)
	}
	ev.Time = events.FormatTime(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC).Add(time.Duration(n) * time.Second))
	if t.IsTool() {
		ev.Tool, ev.SessionID, ev.DurationUs = Tool(t), "s1", 10
	}
	return ev
}

// Tool returns the name of the MCP tool whose call records an event of
// type t, "" for a type no tool call records.
func Tool(t events.Type) string { return tools[t] }

var tools = map[events.Type]string{
	events.TypeSetup: "memsetup", events.TypeDiscover: "memdisc", events.TypeLoad: "memload",
	events.TypeRefer: "memref", events.TypeAgentReport: "agentreport", events.TypeReject: "agentrejected",
	events.TypeDraftCreate: "artifact", events.TypeDraftUpdate: "artifact", events.TypeDraftRename: "artifact",
	events.TypeDraftDelete: "artifact", events.TypeDraftDiscard: "artifact", events.TypeArtifactError: "artifact",
}

// withHash returns a catalog.publish payload with its hash filled in
// from its body when it has none.
func withHash(tb testing.TB, c Case, raw json.RawMessage) events.PublishData {
	tb.Helper()
	var p events.PublishData
	if err := json.Unmarshal(raw, &p); err != nil {
		tb.Fatalf("%s: catalog.publish: %v", c.File, err)
	}
	if p.Hash == "" {
		p.Hash = content.Hash([]byte(p.Body))
	}
	return p
}
