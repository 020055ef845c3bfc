package hub

import (
	"encoding/json"
	"fmt"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/hub/hubwire"
)

// ledgerLayout is the layout (natsjs.Layout) of the hub's ledger, an
// events.Log: stream HUB_LEDGER, an event of a team about its workspace
// ws under hubledger.<team>.<ws>.<type> ("-" for a team-wide event), each
// of the team's aggregate (events.AggregateTeam). An event is stored with
// the fields hubwire.LedgerEvent reads (what nodes mirror, and what older
// hubs wrote), the envelope's version and outcome besides.
type ledgerLayout struct{ replicas int }

// storedLedgerEvent is an event of the hub's ledger as stored: what a
// node reads, with the version and the outcome, which events of older
// hubs lack.
type storedLedgerEvent struct {
	V int `json:"v,omitempty"`
	hubwire.LedgerEvent
	Outcome events.Outcome `json:"outcome,omitempty"`
}

func (l ledgerLayout) Stream() jetstream.StreamConfig {
	return jetstream.StreamConfig{
		Name:        hubwire.LedgerStream,
		Description: "the hub's own events: catalog changes and review outcomes, hubledger.<team>.<workspaceId>.<type>",
		Subjects:    []string{hubwire.LedgerPrefix + ".>"},
		Replicas:    l.replicas,
	}
}

func (ledgerLayout) Encode(ev events.Event) ([]byte, error) {
	if err := checkLedgerEvent(ev); err != nil {
		return nil, fmt.Errorf("append %s: %w", ev.Type, err)
	}
	if len(ev.Data) == 0 {
		ev.Data = json.RawMessage(`{}`)
	}
	b, err := json.Marshal(storedLedgerEvent{V: ev.V, Outcome: ev.Outcome, LedgerEvent: hubwire.LedgerEvent{
		ID: ev.ID, Type: ev.Type, Time: ev.Time, Team: ev.Team, WorkspaceID: ev.WorkspaceID, Data: ev.Data}})
	if err != nil {
		return nil, fmt.Errorf("append %s: %w: %v", ev.Type, events.ErrMalformed, err)
	}
	return b, nil
}

func (ledgerLayout) DecodeStoredInto(ev *events.Event, b []byte) error {
	var s storedLedgerEvent
	if err := json.Unmarshal(b, &s); err != nil {
		*ev = events.Event{}
		return fmt.Errorf("%w: %v", events.ErrMalformed, err)
	}
	if s.V > events.SchemaVersion {
		*ev = events.Event{}
		return fmt.Errorf("%w: event %s of the hub's ledger has schema version %d, this build reads up to %d; upgrade clumsies",
			events.ErrIncompatible, s.ID, s.V, events.SchemaVersion)
	}
	if s.Outcome == "" {
		s.Outcome = events.OutcomeOK // written by an older hub
	}
	*ev = events.Event{V: s.V, ID: s.ID, Type: s.Type, Time: s.Time, Team: s.Team, WorkspaceID: s.WorkspaceID,
		Outcome: s.Outcome, Data: s.Data, Raw: b}
	return nil
}

func (ledgerLayout) Subject(ev events.Event) string {
	return hubwire.LedgerSubject(ev.Team, ev.WorkspaceID, string(ev.Type))
}

func (ledgerLayout) AggregateSubjects(ev events.Event, exp events.Expectation) (string, error) {
	if exp.Aggregate == "" || events.HubAggregate(ev.Type) != exp.Aggregate {
		return "", fmt.Errorf("append %s on a condition on %q: %w: the type is not part of that aggregate", ev.Type, exp.Aggregate, events.ErrMalformed)
	}
	return hubwire.LedgerTeamSubjects(ev.Team), nil
}

// checkLedgerEvent checks the fields every event of the hub's ledger must
// have.
func checkLedgerEvent(ev events.Event) error {
	_, known := events.NewHubPayload(ev.Type)
	switch {
	case ev.ID == "":
		return fmt.Errorf("%w: empty id", events.ErrMalformed)
	case !known:
		return fmt.Errorf("%w: %q is no type of the hub's ledger", events.ErrMalformed, ev.Type)
	case !validName(ev.Team):
		return fmt.Errorf("%w: team %q", events.ErrMalformed, ev.Team)
	case ev.WorkspaceID != "" && !events.ValidWorkspaceID(ev.WorkspaceID):
		return fmt.Errorf("%w: workspace id %q", events.ErrMalformed, ev.WorkspaceID)
	case ev.Outcome != events.OutcomeOK:
		return fmt.Errorf("%w: outcome %q (the hub records decisions, not failed calls)", events.ErrMalformed, ev.Outcome)
	case ev.V < 1:
		return fmt.Errorf("%w: schema version %d", events.ErrMalformed, ev.V)
	}
	return nil
}
