package main_test

import (
	"context"
	"fmt"
	"strconv"
	"testing"
	"time"

	embeddednats "github.com/clumsies/clumsies/embedded-nats"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/hub/hubwire"
	"github.com/clumsies/clumsies/node"
	"github.com/clumsies/clumsies/workspace"
)

// TestHub_DashboardPages has a workspace whose ledger holds 60 sessions
// that loaded its workflow, linked to a hub. The team page of the hub's
// dashboard, in Chromium, shows the first 50 sessions and says so;
// "Show more" adds the other 10 from the next page, once each. A change
// the hub tells of redraws the page with the rows it showed, refreshed:
// a new session makes it 60 of 61 shown, not the first 50 again.
func TestHub_DashboardPages(t *testing.T) {
	hp := newHub(t)
	a := newWorkspace(t)
	hp.join(t, a, "red", "ann")
	mustRun(t, a, "publish")
	wf := localRules(t, a)["workflow/CODING.md"].ID
	if wf == "" {
		t.Fatal("the workspace published no workflow/CODING.md")
	}
	func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		ws, err := workspace.Open(a)
		if err != nil {
			t.Fatal(err)
		}
		n, err := node.Open(ctx, ws, node.Options{Sync: embeddednats.SyncInterval})
		if err != nil {
			t.Fatal(err)
		}
		defer n.Close()
		for i := range 60 {
			ev, err := events.New(ws.ID(), events.TypeLoad, events.LoadData{Items: []events.LoadedItem{{ID: wf, Hash: "h", Changed: true}}})
			if err != nil {
				t.Fatal(err)
			}
			ev.SessionID, ev.Tool = fmt.Sprintf("sess-%02d", i), "memload"
			if _, err := n.Log.Append(ctx, ev); err != nil {
				t.Fatal(err)
			}
		}
	}()
	_, acl := serve(t, a) // the owner links the workspace to the hub
	admin := adminToken(t, hp)
	sessions := func() int {
		st, err := hp.client(admin).Stats(context.Background(), hubwire.StatsQuery{Days: 90})
		if err != nil {
			t.Fatal(err)
		}
		return len(st.Evidence.Sessions)
	}
	deadline := time.Now().Add(2 * time.Minute)
	for sessions() < 60 && time.Now().Before(deadline) {
		time.Sleep(200 * time.Millisecond)
	}
	if n := sessions(); n != 60 {
		t.Fatalf("the hub shows %d sessions, want 60", n)
	}

	pg := browse(t, hp.api)
	pg.open("/?token="+admin, "team")
	const rows = `document.querySelectorAll("tr[data-hub-session]").length`
	const shown = `document.querySelector('p[data-list="sessions"]').dataset.shown`
	if n := pg.number(rows); n != 50 {
		t.Errorf("the team page shows %d sessions, want the first page of 50", n)
	}
	if got := pg.text(`document.querySelector('p[data-list="sessions"]').textContent`); got != "50 of 60 shown" {
		t.Errorf("the sessions' note says %q, want 50 of 60 shown", got)
	}
	pg.text(`(document.querySelector('button[data-more="sessions"]').click(), "")`)
	pg.wait(rows + ` === 60 && ` + shown + ` === "60"`)
	distinct := `new Set([...document.querySelectorAll("tr[data-hub-session]")].map((tr) => tr.dataset.hubSession)).size`
	if n := pg.number(distinct); n != 60 {
		t.Errorf("after Show more the page shows %d distinct sessions, want 60", n)
	}
	if pg.text(`String(document.querySelector('button[data-more="sessions"]').hidden)`) != "true" {
		t.Errorf("Show more is still offered with every session shown")
	}

	// A new session at the workspace: the page redraws with 60 rows of 61.
	pg.wait(`document.body.dataset.stream === "on"`)
	loaded := pg.text(`document.getElementById("app").dataset.loaded`)
	setup(t, acl, "sess-live")
	call(t, acl, "memref", map[string]any{"refs": []any{map[string]any{"ruleId": wf, "constraintId": "Steps/1"}}})
	pg.wait(`document.getElementById("app").dataset.loaded !== ` + strconv.Quote(loaded) +
		` && document.querySelector('p[data-list="sessions"]').textContent === "60 of 61 shown"`)
	if n := pg.number(rows); n != 60 {
		t.Errorf("after the change the page shows %d sessions, want the 60 it showed", n)
	}
	if errs := pg.b.Errors(); len(errs) > 0 {
		t.Errorf("hub page: console errors %q", errs)
	}
}
