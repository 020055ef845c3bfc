package projections_test

import (
	"context"
	"flag"
	"testing"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/internal/foldcase"
	"github.com/clumsies/clumsies/projections"
)

var update = flag.Bool("update", false, "rewrite the read models of testdata/fold/*.txtar")

// TestFold is the data-driven test of the projector: each file of
// testdata/fold holds an event sequence ("events": one JSON line each,
// # comments allowed) and the read models it must give ("want": every
// model as JSON). The events go through a real log and a real store; a
// second store applies them one batch per event, which must give the same
// models. `go test ./projections -run TestFold -update` rewrites "want".
func TestFold(t *testing.T) {
	for _, c := range foldcase.Read(t, "testdata/fold") {
		t.Run(c.Name, func(t *testing.T) {
			evs := foldcase.Events(t, workspace, c)
			whole, perEvent := openMem(t), openMem(t)
			apply(t, whole, evs...)
			for _, ev := range evs {
				apply(t, perEvent, ev)
			}
			got := renderModels(t, whole)
			if other := renderModels(t, perEvent); other != got {
				t.Fatalf("one batch per event gives other read models:\n%s\nthan one batch:\n%s", other, got)
			}
			c.Want(t, got, *update)
		})
	}
}

// TestFold_EveryType: every type of the events table has a fold case that
// shows what the read models make of it, so a new type comes with one.
func TestFold_EveryType(t *testing.T) {
	folded := map[events.Type]bool{}
	for _, c := range foldcase.Read(t, "testdata/fold") {
		for _, ev := range foldcase.Events(t, workspace, c) {
			folded[ev.Type] = true
		}
	}
	for _, typ := range events.Types() {
		if !folded[typ] {
			t.Errorf("no case of testdata/fold has an event of type %s", typ)
		}
	}
}

// renderModels renders every read model of s as indented JSON.
func renderModels(tb testing.TB, s *projections.Store) string {
	tb.Helper()
	items, err := s.List(context.Background(), projections.Filter{})
	if err != nil {
		tb.Fatal(err)
	}
	models := struct {
		Summary    projections.Summary           `json:"summary"`
		Objects    []projections.Object          `json:"objects"`
		Drafts     any                           `json:"drafts"`
		Closed     any                           `json:"closedDrafts"`
		Items      []projections.Item            `json:"items"`
		Usage      []projections.RuleUsage       `json:"usage"`
		Sessions   []projections.Session         `json:"sessions"`
		Tools      []projections.ToolMetrics     `json:"tools"`
		Compliance []projections.Compliance      `json:"compliance"`
		Evidence   []projections.SessionEvidence `json:"evidence,omitempty"`
	}{s.Summary(), objects(tb, s), allDrafts(tb, s), closedDrafts(tb, s), items, s.Usage(), s.Sessions(), s.Tools(), s.Compliance(), s.Evidence()}
	return foldcase.JSON(tb, models)
}
