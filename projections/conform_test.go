package projections_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/clumsies/clumsies/projections"
	"github.com/clumsies/clumsies/projections/engine/enginetest"
)

// TestConform runs the engine's conformance suite on every read model of
// the workspace's store, with the event sequences of the fold cases
// (testdata/fold), and as answers every read model (renderModels) with
// the ledger's chain head, the days and the latencies.
func TestConform(t *testing.T) {
	files, err := filepath.Glob("testdata/fold/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no fold cases: %v", err)
	}
	var cases []projections.ConformCase
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, projections.ConformCase{
			Name:   strings.TrimSuffix(filepath.Base(file), ".txtar"),
			Events: foldEvents(t, section(t, ar, "events")),
		})
	}
	enginetest.Run(t, projections.ConformanceFixture(cases, renderAnswers))
}

// renderAnswers renders what s answers its readers.
func renderAnswers(tb testing.TB, s *projections.Store) string {
	tb.Helper()
	more, err := json.MarshalIndent(map[string]any{"chain": s.Chain(), "days": s.Days(), "latencies": s.Latencies()}, "", "  ")
	if err != nil {
		tb.Fatal(err)
	}
	return renderModels(tb, s) + string(more)
}
