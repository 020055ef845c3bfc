package evidence_test

import (
	"reflect"
	"testing"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/evidence"
)

// load folds a memload that delivered one version of id into r.
func load(r *evidence.Row, id string) {
	r.Load(&events.LoadData{Items: []events.LoadedItem{{ID: id, Hash: "h", Changed: true}}}, nil)
}

// A row's loads keep the versions each delivered item gave the session,
// under the id it has now: an answer that sent nothing, or a draft's,
// adds nothing; a reid moves the versions with the rest of the row, so
// that whether the session loaded a rule (Received) and whether the
// version in force counts (Counts) are asked of the one record.
func TestRow_Loads(t *testing.T) {
	v1 := evidence.Version{Hash: "sha256:b1", Constraints: "sha256:c1"}
	prose := evidence.Version{Hash: "sha256:b2", Constraints: "sha256:c1"} // v1's constraints, other words
	v3 := evidence.Version{Hash: "sha256:b3", Constraints: "sha256:c3"}
	item := func(id string, v evidence.Version, changed, draft bool) events.LoadedItem {
		return events.LoadedItem{ID: id, Hash: v.Hash, ConstraintsHash: v.Constraints, Changed: changed, Draft: draft}
	}
	var r evidence.Row
	r.Load(&events.LoadData{Items: []events.LoadedItem{
		item("old", v1, true, false),
		item("old", v1, true, false), // again: kept once
		item("hit", v1, false, false),
		item("tmp-draft", v3, true, true),
		item("ctx", evidence.Version{Hash: "sha256:ctx"}, true, false),
	}}, nil)
	if got, want := r.Loads.IDs(), []string{"ctx", "old"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("ids: got %q, want %q", got, want)
	}
	if !r.Loads.Counts("old", prose) || r.Loads.Counts("old", v3) || r.Loads.Counts("ctx", evidence.Version{Hash: "sha256:other"}) {
		t.Errorf("counts: got %+v, want v1 to count for a version with its constraints only", r.Loads)
	}
	if !r.Reid("old", "new") {
		t.Fatal("reid of a loaded rule: got no change")
	}
	load(&r, "new")
	if r.Loads.Received("old") || !r.Loads.Received("new") || !r.Loads.Counts("new", v1) || len(r.Loads["new"]) != 2 {
		t.Errorf("after the reid: got %+v, want v1 and h under new", r.Loads)
	}
	rules := r.Session("s", facts{}, nil).Rules
	if len(rules) != 2 || rules[0].ID != "ctx" || !rules[0].Loaded || rules[1].ID != "new" || !rules[1].Loaded {
		t.Errorf("session rules: got %+v, want ctx and new loaded", rules)
	}
	c := r.Loads.Clone()
	c["new"][0].Hash = "changed"
	if r.Loads["new"][0].Hash == "changed" {
		t.Error("Clone shares its versions with the row")
	}
}

// The hub folds a load under the id of's alias gives it, as the
// workspace moved it at the reid.
func TestRow_LoadFollowsAlias(t *testing.T) {
	var r evidence.Row
	of := func(id string) string {
		if id == "old" {
			return "new"
		}
		return id
	}
	r.Load(&events.LoadData{Items: []events.LoadedItem{{ID: "old", Hash: "h", Changed: true}}}, of)
	if got := r.Loads.IDs(); !reflect.DeepEqual(got, []string{"new"}) {
		t.Errorf("got %q, want the load under new", got)
	}
}
