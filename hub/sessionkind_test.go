package hub

import (
	"testing"
	"time"

	"github.com/clumsies/clumsies/events"
)

// TestProjector_SessionKinds counts sessions by their kind, as the
// workspace does: one announced by a hook and never set up is seen by
// hooks only; one announced on a day and set up the next is set up, on
// its first day; one set up and announced later is set up.
func TestProjector_SessionKinds(t *testing.T) {
	p := testProjector(t)
	d1, d2 := "2026-11-16", "2026-11-17"
	in := func(session string, typ events.Type, day string, payload any) events.Event {
		ev := event(t, "ws-a", typ, day, payload)
		ev.SessionID = session
		return ev
	}
	start, setup := events.SessionStartData{Host: "codex"}, events.SetupData{}
	es := []events.Event{
		in("hooks-only", events.TypeSessionStart, d1, start),
		in("hooked", events.TypeSessionStart, d1, start),
		in("hooked", events.TypeSetup, d2, setup),
		in("set-up", events.TypeSetup, d1, setup),
		in("set-up", events.TypeSessionStart, d2, start),
		in("hooks-only", events.TypeSessionStart, d2, start),
	}
	for i, ev := range es {
		applyAll(t, p, sourced(nodeA, ev, uint64(i+1)))
	}
	now, _ := time.Parse(time.DateOnly, "2026-11-20")
	st, err := p.stats(Query{Days: 30, Now: now, Period: "daily"})
	if err != nil {
		t.Fatal(err)
	}
	if st.Totals.Sessions != 2 || st.Totals.SessionsHooksOnly != 1 {
		t.Fatalf("got %d sessions set up and %d seen by hooks only, want 2 and 1", st.Totals.Sessions, st.Totals.SessionsHooksOnly)
	}
	for _, tp := range st.Trend {
		want := [2]uint64{}
		if tp.Period == d1 {
			want = [2]uint64{2, 1}
		}
		if got := [2]uint64{tp.Sessions, tp.SessionsHooksOnly}; got != want {
			t.Errorf("%s: got %v sessions set up and seen by hooks only, want %v", tp.Period, got, want)
		}
	}
}
