package main_test

import (
	"context"
	"encoding/json"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// TestHub_MemberPage has two members of team red at a hub, ann (40 days of
// history, 4 refs) and bob (2 refs today). The hub's stats for
// member ann count hers only (`hub stats --member`, the API), and her
// page, reached in Chromium from the team page's member table with the
// range of its address, shows those figures and the rule she applies.
// The header's search for "ann" on the team page keeps her row of the
// members table (the address holds it; the table's CSV too), and going
// back in the browser's history returns to the team page.
func TestHub_MemberPage(t *testing.T) {
	hp := newHub(t)
	ann, ruleID := historyWorkspace(t, rangeHistory)
	bob := newWorkspace(t)
	hp.join(t, ann, "red", "ann")
	hp.join(t, bob, "red", "bob")
	agentSession(t, bob, "bob-1", 2)
	serveHTTP(t, ann, "--http", "127.0.0.1:0") // the owners link the workspaces to the hub
	serveHTTP(t, bob, "--http", "127.0.0.1:0")
	admin := adminToken(t, hp)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	member := func(m, team string) hubwire.Stats {
		st, err := hp.client(admin).Stats(ctx, hubwire.StatsQuery{Days: 60, Member: m, Team: team})
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	deadline := time.Now().Add(2 * time.Minute)
	for (member("ann", "red").Totals.Refs < 4 || member("bob", "red").Totals.Refs < 2) && time.Now().Before(deadline) {
		time.Sleep(200 * time.Millisecond)
	}
	st := member("ann", "red")
	if st.Totals.Refs != 4 || st.Totals.Sessions != 3 || member("bob", "red").Totals.Refs != 2 || member("", "").Totals.Refs != 6 {
		t.Fatalf("hub stats: ann %+v, bob's refs %d, everyone's %d; want ann's 4 refs and 3 sessions, bob's 2, 6 in all",
			st.Totals, member("bob", "red").Totals.Refs, member("", "").Totals.Refs)
	}
	var cli hubwire.Stats
	if err := json.Unmarshal([]byte(mustRun(t, hp.dir, "hub", "stats", "--json", "--days", "60", "--member", "ann", "--team", "red")), &cli); err != nil {
		t.Fatal(err)
	}
	if cli.Totals != st.Totals {
		t.Errorf("hub stats --member ann: %+v; the API: %+v", cli.Totals, st.Totals)
	}

	pg := browse(t, hp.api)
	pg.open("/?token="+admin+"&days=60", "team")
	// The link, followed as a click would.
	pg.open(pg.text(`document.querySelector('[data-member-link="ann"]').getAttribute("href")`), "team")
	pg.wait(`document.querySelector('[data-member-page="ann"]')`)
	addr, err := url.ParseQuery(pg.text(`location.search.slice(1)`))
	if err != nil || addr.Get("member") != "ann" || addr.Get("team") != "red" || addr.Get("days") != "60" {
		t.Errorf("member page: the address has %v, want member ann, team red and the range days=60", addr)
	}
	if back := pg.text(`document.querySelector("a[data-back]").getAttribute("href")`); back != "/?days=60" {
		t.Errorf("member page: the link back to the team leads to %q, want /?days=60 (the range kept)", back)
	}
	for fig, want := range map[string]uint64{"events": st.Totals.Events, "refs": st.Totals.Refs, "sessions": st.Totals.Sessions,
		"sessionsHooksOnly": st.Totals.SessionsHooksOnly, "unsupported": st.Evidence.Unsupported} {
		if got := pg.figure(fig); got != thousands(want) {
			t.Errorf("member page: %s is %s, the API's %d", fig, got, want)
		}
	}
	if got := pg.text(`(document.querySelector('[data-table=member-rules] [data-rule="` + ruleID + `"] [data-field=refs]') || {}).textContent || "missing"`); got != strconv.Itoa(4) {
		t.Errorf("member page: the rule she applies shows %s refs, want 4", got)
	}
	if n := pg.number(`document.querySelectorAll("[data-table=member-rules] tbody tr").length`); n != 1 {
		t.Errorf("member page: %d rules applied, want ann's 1 (not bob's)", n)
	}

	// The hub's search, from the team page.
	pg.open("/?days=60", "team")
	pg.text(`(document.querySelector("form[role=search] input").value = "ann", document.querySelector("form[role=search]").requestSubmit(), "")`)
	pg.wait(`location.search === "?days=60&q=ann" && document.querySelector('tr[data-member="bob"]') && document.querySelector('tr[data-member="bob"]').hidden`)
	if pg.text(`String(document.querySelector('tr[data-member="ann"]').hidden)`) != "false" {
		t.Errorf("hub search for ann: her row of the members table is hidden")
	}
	csv := pg.text(`exportText(document.querySelector('tr[data-member="ann"]').closest("table"), "csv")`)
	if lines := strings.Split(strings.TrimSpace(csv), "\r\n"); len(lines) != 2 || !strings.HasPrefix(lines[1], "ann,red,") {
		t.Errorf("hub search for ann: the members table exports %q, want the header and ann's row", csv)
	}
	pg.text(`(history.back(), "")`)
	pg.wait(`location.search === "?days=60" && document.querySelector('[data-figure="refs"]') && !document.querySelector('tr[data-member="bob"]').hidden`)
	if errs := pg.b.Errors(); len(errs) > 0 {
		t.Errorf("hub page: console errors %q", errs)
	}
}
