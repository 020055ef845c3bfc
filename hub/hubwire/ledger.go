package hubwire

import (
	"encoding/json"

	"github.com/clumsies/clumsies/events"
)

// LedgerStream is the hub's own ledger: what the hub decided, as
// immutable events (catalog changes, review outcomes). Its subjects are
// hubledger.<team>.<workspaceId>.<type>, with "-" for the workspace of a
// team-wide event (a catalog change); a node of the team mirrors the
// events of its own workspace.
const LedgerStream = "HUB_LEDGER"

// LedgerPrefix is the first token of the hub ledger's subjects.
const LedgerPrefix = "hubledger"

// teamWide stands for the workspace of a team-wide event.
const teamWide = "-"

// LedgerEvent is one event of the hub's ledger as a node reads it. The
// hub reads and writes its ledger as an events.Log of events.Event with
// their Team, stored with these fields (and the envelope's version and
// outcome, which events of older hubs lack). Its types and their payloads
// are the rows of the events table of ledger events.LedgerHub
// (events.HubTypes).
type LedgerEvent struct {
	// ID is a ULID, or an id derived from what the event decides (so that
	// deciding twice stores it once).
	ID          string          `json:"id"`
	Type        events.Type     `json:"type"`
	Time        string          `json:"time"`
	Team        string          `json:"team"`
	WorkspaceID string          `json:"workspaceId,omitempty"`
	Data        json.RawMessage `json:"data"`
}

// LedgerSubject is the subject of an event of type typ about team's
// workspace ws ("" for a team-wide event).
func LedgerSubject(team, ws, typ string) string {
	if ws == "" {
		ws = teamWide
	}
	return LedgerPrefix + "." + team + "." + ws + "." + typ
}

// LedgerTeamSubjects covers every event of team in the hub's ledger: its
// catalog changes and the outcomes of its reviews, the aggregate a
// decision about the team is appended on the condition of.
func LedgerTeamSubjects(team string) string { return LedgerPrefix + "." + team + ".>" }
