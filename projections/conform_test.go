package projections_test

import (
	"testing"

	"github.com/clumsies/clumsies/internal/foldcase"
	"github.com/clumsies/clumsies/projections"
	"github.com/clumsies/clumsies/projections/engine/enginetest"
)

// TestConform runs the engine's conformance suite on every read model of
// the workspace's store, with the event sequences of the fold cases
// (testdata/fold), and as answers every read model (renderModels) with
// the ledger's chain head, the days and the latencies.
func TestConform(t *testing.T) {
	var cases []projections.ConformCase
	for _, c := range foldcase.Read(t, "testdata/fold") {
		cases = append(cases, projections.ConformCase{Name: c.Name, Events: foldcase.Events(t, workspace, c)})
	}
	enginetest.Run(t, projections.ConformanceFixture(cases, renderAnswers))
}

// renderAnswers renders what s answers its readers.
func renderAnswers(tb testing.TB, s *projections.Store) string {
	tb.Helper()
	return renderModels(tb, s) + foldcase.JSON(tb, map[string]any{"chain": s.Chain(), "days": s.Days(), "latencies": s.Latencies()})
}
