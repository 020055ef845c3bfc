package hub

import (
	"testing"

	"github.com/cockroachdb/pebble/v2"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/hub/hubwire"
	"github.com/clumsies/clumsies/internal/foldcase"
	"github.com/clumsies/clumsies/projections/engine"
	"github.com/clumsies/clumsies/projections/engine/enginetest"
)

// TestFolds_Declared: every hub model names in Folds each type whose
// payload it reads, so that the projector, which decodes only those,
// hands it every payload it needs. The events are those of the
// workspace's fold cases, as one node's messages of the aggregate.
func TestFolds_Declared(t *testing.T) {
	node := hubwire.Node{ID: "n1", Team: "team", Workspace: "ws-folds", Member: "ann"}
	nodes := func(id string) (hubwire.Node, bool) { return node, id == node.ID }
	s := enginetest.Declaring[*hubItem, events.Type]{
		Models: func(db *pebble.DB) []engine.Model[*hubItem] {
			st, err := loadHubState(db, nodes, newReviewQueue())
			if err != nil {
				t.Fatal(err)
			}
			return st.reg.Models()
		},
		Declared: func(models []engine.Model[*hubItem]) map[events.Type]bool {
			return engine.Declared(models, folder.Folds)
		},
		Kind:  func(it *hubItem) events.Type { return it.ev.Type },
		Strip: func(it *hubItem) *hubItem { c := *it; c.payload = nil; return &c },
	}
	for _, c := range foldcase.Read(t, "../projections/testdata/fold") {
		t.Run(c.Name, func(t *testing.T) {
			evs := foldcase.Events(t, node.Workspace, c)
			items := make([]*hubItem, len(evs))
			for i := range evs {
				ev := &evs[i]
				items[i] = &hubItem{node: node, origin: ev.Seq, data: ev.Raw, ev: ev}
				if ev.Outcome != events.OutcomeOK {
					continue
				}
				p, err := ev.Payload()
				if err != nil {
					t.Fatal(err)
				}
				items[i].payload = p
			}
			enginetest.CheckDeclared(t, s, items)
		})
	}
}
