package main_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// TestHubStats_RangeAgrees joins the workspace of 40 days of history to a
// hub and checks, for the last 7 days and for 25 to 10 days ago, that
// `clumsies hub stats` with --days or --since/--until, the hub's API and
// its page in Chromium (range in the address) count what `clumsies
// stats` counts with the same flags: events, sessions of each kind and
// refs.
func TestHubStats_RangeAgrees(t *testing.T) {
	hp := newHub(t)
	dir, _ := historyWorkspace(t, rangeHistory)
	hp.join(t, dir, "red", "ann")
	serveHTTP(t, dir, "--http", "127.0.0.1:0") // the owner links the workspace to the hub
	admin := adminToken(t, hp)

	var all statsRange
	if err := json.Unmarshal([]byte(mustRun(t, dir, "stats", "--json")), &all); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(2 * time.Minute)
	for {
		var hs hubwire.Stats
		if err := json.Unmarshal([]byte(mustRun(t, hp.dir, "hub", "stats", "--json", "--days", "60")), &hs); err != nil {
			t.Fatal(err)
		}
		if hs.Totals.Events >= all.Events || time.Now().After(deadline) {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}

	pg := browse(t, hp.api)
	pg.open("/?token="+admin, "team")

	for _, c := range []struct {
		name  string
		flags []string
		query hubwire.StatsQuery
		addr  string
	}{
		{"last 7 days", []string{"--days", "7"}, hubwire.StatsQuery{Days: 7}, "days=7"},
		{"25 to 10 days ago", []string{"--since", day(25), "--until", day(10)}, hubwire.StatsQuery{Since: day(25), Until: day(10)},
			"since=" + day(25) + "&until=" + day(10)},
	} {
		var ws statsRange
		if err := json.Unmarshal([]byte(mustRun(t, dir, append([]string{"stats", "--json"}, c.flags...)...)), &ws); err != nil {
			t.Fatal(err)
		}
		var refs uint64
		for _, r := range ws.Rules {
			refs += r.Refs
		}
		var cli hubwire.Stats
		if err := json.Unmarshal([]byte(mustRun(t, hp.dir, append([]string{"hub", "stats", "--json"}, c.flags...)...)), &cli); err != nil {
			t.Fatal(err)
		}
		tt := cli.Totals
		if tt.Events != ws.Events || tt.Sessions != uint64(ws.Sessions) || tt.SessionsHooksOnly != uint64(ws.SessionsHooksOnly) || tt.Refs != refs {
			t.Errorf("%s: hub stats: %d events, %d sessions set up, %d hooks only, %d refs; stats: %d, %d, %d, %d",
				c.name, tt.Events, tt.Sessions, tt.SessionsHooksOnly, tt.Refs, ws.Events, ws.Sessions, ws.SessionsHooksOnly, refs)
		}
		if tt.Refs == 0 {
			t.Errorf("%s: no refs in the range; the test needs some", c.name)
		}
		api, err := hp.client(admin).Stats(context.Background(), c.query)
		if err != nil {
			t.Fatal(err)
		}
		if api.Totals != cli.Totals || api.From != cli.From || api.To != cli.To {
			t.Errorf("%s: the hub's API: %+v from %s to %s; hub stats: %+v from %s to %s", c.name, api.Totals, api.From, api.To, cli.Totals, cli.From, cli.To)
		}
		pg.open("/?"+c.addr, "team")
		for fig, want := range map[string]uint64{"events": tt.Events, "refs": tt.Refs, "sessions": tt.Sessions, "sessionsHooksOnly": tt.SessionsHooksOnly} {
			if got := pg.figure(fig); got != thousands(want) {
				t.Errorf("%s: the hub page's %s is %s, the API's %d", c.name, fig, got, want)
			}
		}
	}
}
