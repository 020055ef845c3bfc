package demo_test

import (
	"context"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/demo"
	"github.com/clumsies/clumsies/events"
)

// The scripted session runs against a real workspace: every call is in
// the ledger after the published content, the usage read with it counts
// the session and its references, and the narration names each call.
func TestDemo_LedgerHoldsTheSession(t *testing.T) {
	ctx := context.Background()
	d, err := demo.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var out strings.Builder
	calls, err := d.Play(ctx, &out, "test")
	if err != nil {
		t.Fatalf("play: %v\n%s", err, out.String())
	}
	evs, st, err := d.Ledger(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != d.Published+len(calls) {
		t.Fatalf("%d events, want %d published and %d calls", len(evs), d.Published, len(calls))
	}
	for i, c := range calls {
		ev := evs[d.Published+i]
		if want := c.IsError; (ev.Outcome != events.OutcomeOK) != want {
			t.Errorf("call %d (%s): event %s outcome %s, error %v", i, c.Tool, ev.Type, ev.Outcome, c.IsError)
		}
		if !strings.Contains(out.String(), "-> "+c.Tool+" ") {
			t.Errorf("the narration does not name the call %s", c.Tool)
		}
	}
	if st.Events != uint64(len(evs)) || st.Sessions != 1 || st.Drafts != 1 {
		t.Fatalf("stats: %d events, %d sessions, %d drafts; want %d, 1, 1", st.Events, st.Sessions, st.Drafts, len(evs))
	}
	refs := uint64(0)
	for _, r := range st.Rules {
		refs += r.Refs
	}
	if refs != 3 {
		t.Errorf("stats count %d refs, want the session's 3", refs)
	}
}
