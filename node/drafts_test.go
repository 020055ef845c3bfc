package node_test

import (
	"context"
	"testing"

	"github.com/clumsies/clumsies/catalog"
	"github.com/clumsies/clumsies/events"
)

// TestHandle_DraftStateThroughTheOwner reads a draft's state and the draft
// listing through a remote handle: the same as the owner's, bodies and
// history included.
func TestHandle_DraftStateThroughTheOwner(t *testing.T) {
	ws, a, b := ownerAndRemote(t)
	ctx := context.Background()
	const tmp = "tmp-rule-00000000000b"
	rec := func(typ events.Type, payload any) {
		t.Helper()
		ev, _ := events.New(ws.ID(), typ, payload)
		if err := b.Record(ctx, ev); err != nil {
			t.Fatal(err)
		}
	}
	rec(events.TypeDraftCreate, events.DraftData{Resource: "rule", ID: tmp, Op: events.DraftOpCreate, Path: "go/NEW.md", Body: "# One\n"})
	rec(events.TypeDraftDecline, events.ReviewData{DraftID: tmp, Reviewer: "ann", Reason: "no"})
	rec(events.TypeDraftCreate, events.DraftData{Resource: "rule", ID: tmp, Op: events.DraftOpCreate, Path: "go/NEW.md", Body: "# Two\n"})

	os, err := a.DraftState(ctx, tmp)
	if err != nil {
		t.Fatal(err)
	}
	rs, err := b.DraftState(ctx, tmp)
	if err != nil || jsonOf(t, rs) != jsonOf(t, os) {
		t.Fatalf("DraftState: remote got %v %s, owner %s", err, jsonOf(t, rs), jsonOf(t, os))
	}
	if rs.Open == nil || rs.Open.Body != "# Two\n" || len(rs.History) != 1 || rs.History[0].Body != "# One\n" ||
		rs.History[0].Status != catalog.StatusDeclined || rs.Facts.Seq == 0 {
		t.Fatalf("DraftState: got %s, want the open second draft and the declined first", jsonOf(t, rs))
	}
	for _, all := range []bool{false, true} {
		ol, oerr := a.DraftList(ctx, all)
		rl, rerr := b.DraftList(ctx, all)
		if oerr != nil || rerr != nil || jsonOf(t, rl) != jsonOf(t, ol) {
			t.Fatalf("DraftList(%t): remote got %v %s, owner %v %s", all, rerr, jsonOf(t, rl), oerr, jsonOf(t, ol))
		}
		if want := map[bool]int{false: 1, true: 2}[all]; len(rl) != want {
			t.Fatalf("DraftList(%t): got %d drafts, want %d", all, len(rl), want)
		}
	}
}
