package projections

import (
	"testing"

	"github.com/cockroachdb/pebble/v2"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/internal/foldcase"
	"github.com/clumsies/clumsies/projections/engine"
	"github.com/clumsies/clumsies/projections/engine/enginetest"
)

// workspaceStore is how enginetest.CheckDeclared builds the workspace's
// models, derives what they declare as the decoder does (folded), and
// strips its items.
var workspaceStore = enginetest.Declaring[decoded, events.Type]{
	Models: func(*pebble.DB) []engine.Model[decoded] { return newState().models.Models() },
	Declared: func(models []engine.Model[decoded]) map[events.Type]bool {
		return engine.Declared(models, folder.Folds)
	},
	Kind:  func(d decoded) events.Type { return d.ev.Type },
	Strip: func(d decoded) decoded { d.payload = nil; return d },
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
	for _, c := range foldcase.Read(t, "testdata/fold") {
		t.Run(c.Name, func(t *testing.T) {
			enginetest.CheckDeclared(t, workspaceStore, fullyDecoded(t, foldcase.Events(t, "ws-folds", c)))
		})
	}
}
