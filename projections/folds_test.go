package projections

import (
	"testing"

	"github.com/cockroachdb/pebble/v2"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections/engine"
	"github.com/clumsies/clumsies/projections/engine/foldtest"
)

// workspaceStore is how foldtest builds and strips the workspace's
// models and items.
var workspaceStore = foldtest.Store[decoded]{
	Models: func(*pebble.DB) []engine.Model[decoded] { return newState().models.Models() },
	Type:   func(d decoded) events.Type { return d.ev.Type },
	Strip:  func(d decoded) decoded { d.payload = nil; return d },
}

// fullyDecoded returns evs with the payload of every successful event
// decoded, whatever its type.
func fullyDecoded(tb testing.TB, evs []events.Event) []decoded {
	tb.Helper()
	out := make([]decoded, len(evs))
	for i := range evs {
		out[i].ev = &evs[i]
		if evs[i].Outcome != events.OutcomeOK {
			continue
		}
		p, err := decodePayload(&evs[i])
		if err != nil {
			tb.Fatal(err)
		}
		out[i].payload = p
	}
	return out
}

// TestFolds_Declared: every model names in Folds each type whose payload
// it reads, so that the decoder, which decodes only those, hands it every
// payload it needs. The events are those of the fold cases.
func TestFolds_Declared(t *testing.T) {
	for _, c := range foldtest.Cases(t, "testdata/fold") {
		t.Run(c.Name, func(t *testing.T) {
			foldtest.Check(t, workspaceStore, fullyDecoded(t, c.Events))
		})
	}
}
