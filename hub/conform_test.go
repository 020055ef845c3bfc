package hub

import (
	"errors"
	"log/slog"
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/clumsies/clumsies/events/natsjs"
	"github.com/clumsies/clumsies/hub/hubwire"
	"github.com/clumsies/clumsies/projections/engine"
	"github.com/clumsies/clumsies/projections/engine/enginetest"
)

// TestConform runs the engine's conformance suite on every read model of
// the hub (loadHubState), with the messages of the fold cases
// (testdata/fold) decoded as the projector decodes them, and as answers
// what the fold cases render (renderHub).
func TestConform(t *testing.T) {
	nodes := func(id string) (hubwire.Node, bool) {
		for _, n := range foldNodes {
			if n.ID == id {
				return n, true
			}
		}
		return hubwire.Node{}, false
	}
	states := map[engine.Model[*hubItem]]*hubState{} // the state each set of models came from
	f := enginetest.Fixture[*hubItem]{
		// The ledger's read side keeps its rows beside the models
		// (Registry.Foreign): none of theirs may lie under its prefix.
		Meta: []string{string(keyCheckpoint), string(keyBad), string(keyLayout), prefixLedger},
		Open: func(tb testing.TB, db *pebble.DB) []engine.Model[*hubItem] {
			tb.Helper()
			st, err := loadHubState(db, nodes, newReviewQueue())
			if err != nil {
				tb.Fatal(err)
			}
			models := st.reg.Models()
			states[models[0]] = st
			return models
		},
		Answer: func(tb testing.TB, db *pebble.DB, models []engine.Model[*hubItem]) string {
			tb.Helper()
			st := states[models[0]]
			return renderHub(tb, &projector{db: db, nodes: nodes, logger: slog.New(slog.DiscardHandler), st: st, reviews: st.reviews.q})
		},
	}
	for _, c := range hubFoldCases(t) {
		f.Cases = append(f.Cases, enginetest.Case[*hubItem]{Name: c.Name, Items: func(tb testing.TB) []*hubItem {
			return hubItems(tb, nodes, c.msgs)
		}})
	}
	enginetest.Run(t, f)
}

// hubItems decodes msgs as the projector does, de-duplication included,
// into new items.
func hubItems(tb testing.TB, nodes func(string) (hubwire.Node, bool), msgs []natsjs.Message) []*hubItem {
	tb.Helper()
	db, err := pebble.Open("", &pebble.Options{FS: vfs.NewMem(), Logger: quietPebble{}})
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	st, err := loadHubState(db, nodes, newReviewQueue())
	if err != nil {
		tb.Fatal(err)
	}
	p := &projector{db: db, nodes: nodes, st: st, folded: st.folded()}
	var out []*hubItem
	for _, m := range msgs {
		it, err := p.decode(m)
		if errors.Is(err, errNodeNotYetKnown) {
			tb.Fatal(err)
		}
		if it != nil {
			st.seen.Apply(it)
			out = append(out, it)
		}
	}
	return out
}
