package hublink_test

import (
	"context"
	"testing"
	"time"

	"github.com/clumsies/clumsies/catalog"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/hub/hubwire"
	"github.com/clumsies/clumsies/internal/hubtest"
)

// TestTeam_PendingDraftSubmitted checks that a draft of a team object
// whose submission never happened (its owner stopped right after the
// draft) is submitted when the workspace is opened again.
func TestTeam_PendingDraftSubmitted(t *testing.T) {
	th := hubtest.NewHub(t)
	body := "# Style\n\nHow.\n\n## Errors\n\n- wrap\n"
	res, err := th.H.PushCatalog(context.Background(), "red", []hubwire.CatalogFile{{Source: "rules/go/STYLE.md", Body: body}})
	if err != nil {
		t.Fatal(err)
	}
	id := res.Published[0].ID
	tn := hubtest.Join(t, th, "red")
	tn.Close()
	tn.Team = "red"
	tn.Open(t)
	ctx, cancel := context.WithTimeout(context.Background(), hubtest.Wait)
	defer cancel()
	if err := tn.Link.WaitRevision(ctx, res.Revision); err != nil {
		t.Fatal(err)
	}
	if err := tn.N.StartProjections(ctx); err != nil {
		t.Fatal(err)
	}
	// A draft recorded straight into the ledger: no submission follows.
	ev, err := events.New(tn.WS.ID(), events.TypeDraftUpdate, events.DraftData{Resource: events.ResourceRule, ID: id,
		Op: events.DraftOpUpdate, Path: "go/STYLE.md", Body: body + "- log\n"})
	if err != nil {
		t.Fatal(err)
	}
	ev.SessionID = "s-1"
	if _, err := tn.N.Log.Append(ctx, ev); err != nil {
		t.Fatal(err)
	}
	tn.Close()
	tn.Open(t)
	if err := tn.N.StartProjections(ctx); err != nil {
		t.Fatal(err)
	}
	for {
		d, status, _, err := tn.N.Store.DraftStatusOf(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if status == catalog.StatusInReview && d != nil {
			return
		}
		if ctx.Err() != nil {
			t.Fatalf("the draft is %q after %s, want in_review", status, hubtest.Wait)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
