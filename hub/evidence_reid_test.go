package hub

import (
	"reflect"
	"testing"
	"time"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/evidence"
)

// TestProjector_EvidenceFollowsReid has a workspace reid a rule between a
// session's events: what the sessions did under the old id and the new
// one is one rule, under the new id, as the workspace says (a ref made
// before the old id's load stays unsupported, a ref of the new id after a
// load of the old one is not), across a restart of the projector between
// the reid and the events after it, and for a session not folded since
// the reid.
func TestProjector_EvidenceFollowsReid(t *testing.T) {
	f := newFeeder(t)
	day := "2026-11-16"
	in := func(session string, typ events.Type, payload any) events.Event {
		ev := event(t, nodeA.Workspace, typ, day, payload)
		ev.SessionID = session
		return ev
	}
	load := func(session, id string) events.Event {
		return in(session, events.TypeLoad, events.LoadData{Items: []events.LoadedItem{{ID: id, Hash: "h", Changed: true}}})
	}
	ref := func(session, id string) events.Event {
		return in(session, events.TypeRefer, events.ReferData{Refs: []events.Ref{{RuleID: id, ConstraintID: "C/1"}}})
	}
	edit := func(session, path, id string) events.Event {
		return in(session, events.TypeFileEdit, events.FileEditData{Paths: []string{path}, Rules: []string{id}})
	}
	body := "# A\n\nWhat A asks.\n\n## C\n\n- one\n"
	p := f.open()
	f.feed(p,
		event(t, nodeA.Workspace, events.TypeCatalogPublish, day, events.PublishData{ID: "p-old", Kind: "rule", Path: "style/A.md", Body: body}),
		edit("s1", "a.go", "p-old"),
		ref("s1", "p-old"),
		load("s1", "p-old"),
		load("s2", "p-old"),
		load("s3", "p-old"),
		ref("s3", "p-old"),
		event(t, nodeA.Workspace, events.TypeCatalogPublish, day, events.PublishData{ID: "p-new", Kind: "rule", Path: "style/A.md", Body: body}),
		event(t, nodeA.Workspace, events.TypeCatalogReid, day, events.ReidData{From: "p-old", To: "p-new", Kind: "rule", Path: "style/A.md"}),
	)
	p.close()
	p = f.open()
	t.Cleanup(func() { p.close() })
	f.feed(p,
		edit("s1", "b.go", "p-new"),
		ref("s1", "p-new"),
		ref("s2", "p-new"),
	)

	now, _ := time.Parse(time.DateOnly, "2026-11-20")
	st, err := p.stats(Query{Days: 30, Now: now, Period: "daily"})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]evidence.Rule{}
	for _, s := range st.Evidence.Sessions {
		got[s.ID] = s.Rules
	}
	want := map[string][]evidence.Rule{
		"s1": {{ID: "p-new", InScope: 2, UnloadedEdits: 1, Loaded: true, Refs: 2, Unsupported: 1, Why: evidence.WhyNotLoaded}},
		"s2": {{ID: "p-new", Loaded: true, Refs: 1}},
		"s3": {{ID: "p-new", Loaded: true, Refs: 1}}, // not folded since the reid
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("sessions: got %+v\nwant %+v", got, want)
	}
	var ids []string
	for _, r := range st.Evidence.Rules {
		ids = append(ids, r.ID)
		if r.ID == "p-new" && (r.InScope != 1 || r.Loaded != 3 || r.Referenced != 3 || r.Unsupported != 1 || r.Path != "style/A.md") {
			t.Errorf("p-new over the sessions: got %+v, want in scope in 1, loaded and referenced in 3, 1 unsupported, at style/A.md", r)
		}
	}
	if !reflect.DeepEqual(ids, []string{"p-new"}) {
		t.Errorf("rules: got %v, want p-new only", ids)
	}
	if st.Evidence.Unsupported != 1 {
		t.Errorf("claims without evidence: got %d, want 1", st.Evidence.Unsupported)
	}
}
