package hub

import (
	"testing"
	"time"

	"github.com/clumsies/clumsies/events"
)

// TestProjector_RefusesReidCycle feeds a reid of p-a to p-b, then one
// back from p-b to p-a (a ledger of an older version, or a forged one):
// the second is left out, so every ref of either id counts under p-b,
// the one id both end at, in the usage counts and in the evidence, also
// after the projector opens its rows again.
func TestProjector_RefusesReidCycle(t *testing.T) {
	f := newFeeder(t)
	day := "2026-11-16"
	body := "# A\n\nWhat A asks.\n\n## C\n\n- one\n"
	ws := nodeA.Workspace
	publish := func(id string) events.Event {
		return event(t, ws, events.TypeCatalogPublish, day, events.PublishData{ID: id, Kind: "rule", Path: "style/A.md", Body: body})
	}
	reid := func(from, to string) events.Event {
		return event(t, ws, events.TypeCatalogReid, day, events.ReidData{From: from, To: to, Kind: "rule", Path: "style/A.md"})
	}
	load := func(id string) events.Event {
		return event(t, ws, events.TypeLoad, day, events.LoadData{Items: []events.LoadedItem{{ID: id, Hash: "h", Changed: true}}})
	}
	p := f.open()
	f.feed(p, publish("p-a"), load("p-a"), refer(t, ws, day, [2]string{"p-a", "C/1"}),
		publish("p-b"), reid("p-a", "p-b"), refer(t, ws, day, [2]string{"p-b", "C/1"}),
		publish("p-a"), reid("p-b", "p-a"))
	p.close()
	p = f.open()
	t.Cleanup(func() { p.close() })
	f.feed(p, refer(t, ws, day, [2]string{"p-a", "C/1"}), refer(t, ws, day, [2]string{"p-b", "C/1"}))

	now, _ := time.Parse(time.DateOnly, "2026-11-20")
	st, err := p.stats(Query{Days: 30, Now: now, Period: "daily"})
	if err != nil {
		t.Fatal(err)
	}
	refs := map[string]uint64{}
	for _, r := range st.Rules {
		if r.Refs > 0 {
			refs[r.ID] += r.Refs
		}
	}
	if len(refs) != 1 || refs["p-b"] != 4 {
		t.Errorf("refs per rule: got %v, want the 4 refs under p-b alone", refs)
	}
	evidenceRefs := map[string]uint64{}
	for _, s := range st.Evidence.Sessions {
		for _, r := range s.Rules {
			evidenceRefs[r.ID] += r.Refs
		}
	}
	if len(evidenceRefs) != 1 || evidenceRefs["p-b"] != 4 {
		t.Errorf("the session's refs per rule: got %v, want the 4 refs under p-b alone", evidenceRefs)
	}
}
