package projections_test

import (
	"context"
	"testing"

	"github.com/clumsies/clumsies/catalog"
	"github.com/clumsies/clumsies/events"
)

func TestStore_DraftStateAndList(t *testing.T) {
	l, s := newLedger(t), openMem(t)
	apply(t, s, sampleCatalog(l)...)
	apply(t, s,
		l.add(events.TypeDraftUpdate, events.DraftData{Resource: "rule", ID: ruleB, Op: events.DraftOpUpdate, Path: "py/B.md", Body: "b1", BaseHash: "sha256:b"}),
		l.add(events.TypeDraftConflict, events.ReviewData{DraftID: ruleB, Reason: "changed", Diff: "-x\n+y\n"}),
		l.add(events.TypeDraftUpdate, events.DraftData{Resource: "rule", ID: ruleA, Op: events.DraftOpUpdate, Path: "go/A.md", Body: "a1", BaseHash: "sha256:a"}),
		l.add(events.TypeDraftUpdate, events.DraftData{Resource: "rule", ID: ruleB, Op: events.DraftOpUpdate, Path: "py/B.md", Body: "b2", BaseHash: "sha256:b"}),
	)
	st, err := s.DraftState(context.Background(), ruleB)
	if err != nil {
		t.Fatal(err)
	}
	if st.Open == nil || st.Open.Body != "b2" || st.Facts.Draft == nil || st.Facts.Draft.Body != "" || st.Facts.Draft.Seq != st.Open.Seq ||
		len(st.History) != 1 || st.History[0].Body != "b1" || st.History[0].Diff != "-x\n+y\n" || st.Object == nil || st.Object.Body == "" {
		t.Fatalf("state of %s: %s", ruleB, jsonOf(st))
	}
	if st.Facts.Seq < st.Open.Seq {
		t.Fatalf("facts at seq %d, before the open draft's %d", st.Facts.Seq, st.Open.Seq)
	}
	if latest, ok := st.Latest(); !ok || latest.Body != "b2" {
		t.Fatalf("latest draft of %s: %s, %v; want the open one", ruleB, jsonOf(latest), ok)
	}
	open, err := s.DraftList(false)
	if err != nil || len(open) != 2 || open[0].ID != ruleA || open[1].ID != ruleB || open[0].Body != "" {
		t.Fatalf("open drafts: %s, %v; want %s and %s without bodies", jsonOf(open), err, ruleA, ruleB)
	}
	all, err := s.DraftList(true)
	if err != nil || len(all) != 3 || all[2].Status != catalog.StatusConflicted || all[2].Diff != "" || all[2].Body != "" {
		t.Fatalf("all drafts: %s, %v; want the open ones, then the conflicted one without body or diff", jsonOf(all), err)
	}
	none, err := s.DraftState(context.Background(), "tmp-rule-none")
	if err != nil || none.Open != nil || none.History != nil || none.Object != nil {
		t.Fatalf("state of an unknown id: %s, %v", jsonOf(none), err)
	}
	if _, ok := none.Latest(); ok {
		t.Fatal("an unknown id has a latest draft")
	}
	apply(t, s, l.add(events.TypeDraftDecline, events.ReviewData{DraftID: ruleB, Reason: "no"}))
	st, err = s.DraftState(context.Background(), ruleB)
	if err != nil {
		t.Fatal(err)
	}
	if latest, ok := st.Latest(); !ok || st.Open != nil || latest.Body != "b2" || latest.Status != catalog.StatusDeclined {
		t.Fatalf("latest draft of %s once declined: %s, %v; want the last closed one", ruleB, jsonOf(latest), ok)
	}
}
