package projections

import (
	"testing"

	"github.com/cockroachdb/pebble/v2"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections/engine"
	"github.com/clumsies/clumsies/projections/engine/enginetest"
)

// ConformCase is an event sequence of a log, for ConformanceFixture.
type ConformCase struct {
	Name   string
	Events []events.Event
}

// ConformanceFixture returns the workspace's read models for the engine's
// conformance suite (enginetest.Run): the models of the registry,
// opened as Open loads them (loadState); as items, the events of each
// case decoded as the projector decodes them; as answers, what answer
// renders of a store that holds the models.
func ConformanceFixture(cases []ConformCase, answer func(testing.TB, *Store) string) enginetest.Fixture[decoded] {
	states := map[model]*state{} // the state each set of models came from
	f := enginetest.Fixture[decoded]{
		Meta: []string{prefixMeta},
		Open: func(tb testing.TB, db *pebble.DB) []engine.Model[decoded] {
			tb.Helper()
			st, err := loadState(db)
			if err != nil {
				tb.Fatalf("load the models: %v", err)
			}
			models := st.models.Models()
			states[models[0]] = st
			return models
		},
		Answer: func(tb testing.TB, db *pebble.DB, models []engine.Model[decoded]) string {
			tb.Helper()
			s := &Store{db: db}
			s.adopt(states[models[0]])
			return answer(tb, s)
		},
	}
	for _, c := range cases {
		f.Cases = append(f.Cases, enginetest.Case[decoded]{Name: c.Name, Items: func(tb testing.TB) []decoded {
			tb.Helper()
			out := make([]decoded, len(c.Events))
			for i := range c.Events {
				ev := c.Events[i]
				p, err := payloadOf(&ev)
				if err != nil {
					tb.Fatalf("case %s, seq %d: %v", c.Name, ev.Seq, err)
				}
				out[i] = decoded{&ev, p}
			}
			return out
		}})
	}
	return f
}
