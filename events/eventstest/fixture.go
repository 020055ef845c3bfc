package eventstest

import (
	"testing"

	"github.com/clumsies/clumsies/events"
)

// Fixture describes a Log under test and its events, for RunFixture: a
// workspace's log (Workspace) or a log of another layout, such as the
// hub's ledger.
type Fixture struct {
	// NewLog returns an empty log that stays usable until the test ends;
	// it is called once per subtest.
	NewLog func(t *testing.T) events.Log
	// Event returns a valid event numbered n that is not part of the
	// aggregate Decision's events are decided in.
	Event func(tb testing.TB, n int) events.Event
	// Decision returns a valid event about path, each of one aggregate of
	// type Aggregate.
	Decision  func(tb testing.TB, path string) events.Event
	Aggregate events.Aggregate
	// Foreign is an aggregate Event's events are not part of.
	Foreign events.Aggregate
	// Failed, when set, returns a failed call about path, part of
	// Decision's aggregate too.
	Failed func(tb testing.TB, path string) events.Event
	// Encode returns the bytes the log stores for an event; Decode reads
	// them back.
	Encode func(events.Event) ([]byte, error)
	Decode func([]byte) (events.Event, error)
}

// Workspace is the fixture of a workspace's log, of WorkspaceID.
func Workspace(newLog func(t *testing.T) events.Log) Fixture {
	return Fixture{NewLog: newLog, Event: Event, Decision: DraftEvent, Aggregate: events.AggregateDrafts,
		Foreign: events.AggregateDrafts, Failed: failedDraft, Encode: events.Encode, Decode: events.Decode}
}

func (f Fixture) expect(seq uint64) events.Expectation {
	return events.Expectation{Aggregate: f.Aggregate, LastSeq: seq}
}
