package catalog_test

import (
	"testing"

	"github.com/clumsies/clumsies/catalog"
	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
)

func TestDerivedID(t *testing.T) {
	r := catalog.DerivedID(content.KindRule, "go/STYLE.md")
	if r != catalog.DerivedID(content.KindWorkflow, "go/STYLE.md") || len(r) != 34 || r[:2] != "p-" {
		t.Fatalf("rule id %s: want p-<32 hex>, the same for a workflow at the path", r)
	}
	if c := catalog.DerivedID(content.KindContext, "go/STYLE.md"); c[:2] != "c-" || c[2:] == r[2:] {
		t.Fatalf("context id %s: want c- and another hash than the rule's %s", c, r)
	}
	if got := catalog.DerivedID(content.KindMPF, content.MetaPromptPath); got != content.MetaPromptPath {
		t.Fatalf("mpf id %s", got)
	}
}

// A rename recorded in the ids file (pulled from another clone, with an
// edit) keeps the id: the old object is renamed, not removed.
func TestPlan_RecordedRename(t *testing.T) {
	old := file(content.KindRule, "go/A.md", "# A\n")
	id := catalog.DerivedID(content.KindRule, "go/A.md")
	pub := []catalog.Published{{ID: id, Kind: content.KindRule, Path: "go/A.md", Hash: old.Hash}}
	moved := file(content.KindRule, "go/B.md", "# B\n\nedited\n")
	ids := catalog.IDs{"rules/go/B.md": id}
	evs, err := catalog.Plan(ws, []content.File{moved}, pub, ids)
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 1 || evs[0].Type != events.TypeCatalogPublish {
		t.Fatalf("got %d events, want one publish and no remove", len(evs))
	}
	p, _ := evs[0].Payload()
	if d := p.(*events.PublishData); d.ID != id || d.Path != "go/B.md" {
		t.Fatalf("got %s at %s, want %s at go/B.md", d.ID, d.Path, id)
	}
	// Without the record the edited file is a new object.
	if evs, _ := catalog.Plan(ws, []content.File{moved}, pub, nil); len(evs) != 2 {
		t.Fatalf("got %d events without the ids file, want a publish and a remove", len(evs))
	}
	// The ids file lists the object, and parses back.
	after := []catalog.Published{{ID: id, Kind: content.KindRule, Path: "go/B.md", Hash: moved.Hash}}
	back, err := catalog.ParseIDs(catalog.IDsOf(after).Format())
	if err != nil || len(back) != 1 || back["rules/go/B.md"] != id {
		t.Fatalf("ids file round trip: %v, %v", back, err)
	}
}

// A path whose derived id a renamed object keeps gets a fallback id.
func TestPlan_DerivedIDHeld(t *testing.T) {
	b := file(content.KindRule, "go/B.md", "# B\n")
	pub := []catalog.Published{{ID: catalog.DerivedID(content.KindRule, "go/A.md"), Kind: content.KindRule, Path: "go/B.md", Hash: b.Hash}}
	evs := plan(t, []content.File{b, file(content.KindRule, "go/A.md", "# new A\n")}, pub)
	if len(evs) != 1 {
		t.Fatalf("got %d events, want one publish", len(evs))
	}
	p, _ := evs[0].Payload()
	if d := p.(*events.PublishData); d.ID == pub[0].ID || d.ID == "" {
		t.Fatalf("the new file got id %s, held by the renamed object", d.ID)
	}
}

// Migrate gives a random id the derived one: a publish under the new id,
// then the reid; an object with an open draft keeps its id.
func TestMigrate(t *testing.T) {
	f := file(content.KindRule, "go/A.md", "# A\n")
	g := file(content.KindRule, "go/G.md", "# G\n")
	pub := []catalog.Published{
		{ID: "p-00000000000000000000000000000001", Kind: content.KindRule, Path: "go/A.md", Hash: f.Hash},
		{ID: "p-00000000000000000000000000000002", Kind: content.KindRule, Path: "go/G.md", Hash: g.Hash},
	}
	drafted := func(id string) bool { return id == pub[1].ID }
	changes, after := catalog.Migrate([]content.File{f, g}, pub, nil, drafted, nil)
	to := catalog.DerivedID(content.KindRule, "go/A.md")
	if len(changes) != 2 || changes[0].ID != to || changes[0].Reid != nil || changes[1].Reid == nil ||
		changes[1].Reid.From != pub[0].ID || changes[1].Reid.To != to {
		t.Fatalf("got %+v, want a publish of %s and its reid", changes, to)
	}
	if after[0].ID != to || after[1].ID != pub[1].ID {
		t.Fatalf("after the migration: %+v", after)
	}
	if rest := catalog.Diff([]content.File{f, g}, after, nil); len(rest) != 0 {
		t.Fatalf("the migrated manifest still differs from the files: %+v", rest)
	}
}
