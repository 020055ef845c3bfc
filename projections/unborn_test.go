package projections_test

import (
	"testing"

	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/clumsies/clumsies/catalog"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections"
)

// TestStore_DeclinedCreate checks that a create draft whose review ended
// without the file (declined or conflicted) stays in List and View under
// its tmp- id, with no open draft, its status, reason and body, also after
// the store is opened again; an applied one does not, and a new open draft
// under the id takes its place.
func TestStore_DeclinedCreate(t *testing.T) {
	const declined, conflicted, applied = "tmp-rule-0123456789ab", "tmp-rule-0123456789ac", "tmp-rule-0123456789ad"
	create := func(id, path string) events.DraftData {
		return events.DraftData{Resource: "rule", ID: id, Path: path, Body: "# " + path + "\n"}
	}
	l, fs := newLedger(t), vfs.NewMem()
	s := openAt(t, fs, "/db", projections.Options{})
	apply(t, s,
		l.add(events.TypeDraftCreate, create(declined, "go/NO.md")),
		l.add(events.TypeDraftDecline, events.ReviewData{DraftID: declined, Reviewer: "ann", Reason: "say why"}),
		l.add(events.TypeDraftCreate, create(conflicted, "go/CLASH.md")),
		l.add(events.TypeDraftConflict, events.ReviewData{DraftID: conflicted, Reason: "the file exists"}),
		l.add(events.TypeDraftCreate, create(applied, "go/YES.md")),
		l.add(events.TypeDraftApply, events.ReviewData{DraftID: applied, Reviewer: "ann"}),
	)
	check := func(what string, s *projections.Store) {
		t.Helper()
		var got []string
		for _, it := range mustList(t, s, projections.Filter{}) {
			got = append(got, it.ID+" "+string(it.DraftStatus)+" "+it.DraftReason)
			if it.HasDraft || it.Published {
				t.Errorf("%s: %s has hasDraft %v, published %v; want neither", what, it.ID, it.HasDraft, it.Published)
			}
		}
		if want := []string{conflicted + " conflicted the file exists", declined + " declined say why"}; jsonOf(got) != jsonOf(want) {
			t.Fatalf("%s: List got %v, want %v", what, got, want)
		}
		it := mustView(t, s, declined)
		if it.Body != "# go/NO.md\n" || it.DraftStatus != catalog.StatusDeclined || it.DraftReason != "say why" || it.Path != "go/NO.md" {
			t.Fatalf("%s: View got %s, want the declined draft with its body and reason", what, jsonOf(it))
		}
	}
	check("applied", s)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = openAt(t, fs, "/db", projections.Options{})
	check("reopened", s)

	apply(t, s, l.add(events.TypeDraftCreate, create(declined, "go/NO.md")))
	if it := mustView(t, s, declined); !it.HasDraft || it.DraftStatus != catalog.StatusDraft {
		t.Fatalf("staged again: got %s, want the open draft", jsonOf(it))
	}
	if n := len(mustList(t, s, projections.Filter{})); n != 2 {
		t.Fatalf("staged again: List got %d items, want 2 (the id once)", n)
	}
}
