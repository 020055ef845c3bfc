package hub_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/events/eventstest"
	"github.com/clumsies/clumsies/hub"
	"github.com/clumsies/clumsies/hub/hubwire"
)

// hubEvent returns a valid event of the hub's ledger: a catalog change of
// team, about path.
func hubEvent(tb testing.TB, team, path string) events.Event {
	tb.Helper()
	ev, err := events.New("", events.TypeHubCatalogPublish, events.HubCatalogData{ID: "p-" + path, Kind: "rule", Path: path, By: "suite"})
	if err != nil {
		tb.Fatal(err)
	}
	ev.Team = team
	return ev
}

// TestLedger_Conformance runs the events.Log conformance suite on the
// hub's ledger, each subtest on a new hub: the decisions of team suite
// are appended on the condition of the team's aggregate, and the events
// of another team are not part of it.
func TestLedger_Conformance(t *testing.T) {
	eventstest.RunFixture(t, eventstest.Fixture{
		NewLog:    func(t *testing.T) events.Log { return newTestHub(t).h.Ledger() },
		Event:     func(tb testing.TB, n int) events.Event { return hubEvent(tb, "other", fmt.Sprintf("n%d.md", n)) },
		Decision:  func(tb testing.TB, path string) events.Event { return hubEvent(tb, "suite", path) },
		Aggregate: events.AggregateTeam,
		Foreign:   events.AggregateDrafts,
		Encode:    hub.LedgerLayout.Encode,
		// A node reads what the hub's ledger stores as a LedgerEvent.
		Decode: func(b []byte) (events.Event, error) {
			var ev hubwire.LedgerEvent
			if err := json.Unmarshal(b, &ev); err != nil {
				return events.Event{}, err
			}
			var env struct {
				V       int
				Outcome events.Outcome
			}
			_ = json.Unmarshal(b, &env)
			return events.Event{V: env.V, ID: ev.ID, Type: ev.Type, Time: ev.Time, Team: ev.Team, WorkspaceID: ev.WorkspaceID,
				Outcome: env.Outcome, Data: ev.Data}, nil
		},
	})
}
