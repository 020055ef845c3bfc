package main_test

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/internal/testbin"
	"github.com/clumsies/clumsies/views/dash"
)

// rangeHistory is three sessions that set up 40, 20 and 3 days ago, with
// 2, 1 and 1 refs of the rule, and one seen by hooks only 3 days ago.
func rangeHistory(id string) []historyEvent {
	ref := func(n int) events.ReferData {
		var d events.ReferData
		for i := range n {
			d.Refs = append(d.Refs, events.Ref{RuleID: id, ConstraintID: fmt.Sprintf("Steps/%d", i+1), Name: "Steps"})
		}
		return d
	}
	load := events.LoadData{Items: []events.LoadedItem{{ID: id, Changed: true}}}
	return []historyEvent{
		{40, "h-old", "memsetup", events.TypeSetup, events.SetupData{}},
		{40, "h-old", "memload", events.TypeLoad, load},
		{40, "h-old", "memref", events.TypeRefer, ref(2)},
		{20, "h-mid", "memsetup", events.TypeSetup, events.SetupData{}},
		{20, "h-mid", "memref", events.TypeRefer, ref(1)},
		{3, "h-new", "memsetup", events.TypeSetup, events.SetupData{}},
		{3, "h-new", "memload", events.TypeLoad, load},
		{3, "h-new", "memref", events.TypeRefer, ref(1)},
		{3, "h-hooks", "", events.TypeSessionStart, events.SessionStartData{Host: "claude-code"}},
	}
}

// statsRange is what the test reads of `clumsies stats --json`.
type statsRange struct {
	Events                      uint64
	Sessions, SessionsHooksOnly int
	Rules                       []struct {
		ID   string
		Refs uint64
	}
	SessionList []struct{ ID string }
}

func (s statsRange) refs(id string) uint64 {
	for _, r := range s.Rules {
		if r.ID == id {
			return r.Refs
		}
	}
	return 0
}

// day is the date back days ago (UTC), as the ranges' flags and
// parameters write it.
func day(back int) string { return time.Now().UTC().AddDate(0, 0, -back).Format("2006-01-02") }

// TestDashboard_RangeAgrees seeds a workspace with 40 days of history and
// checks, for the last 7 days, a range 25 to 10 days ago and all time,
// that `clumsies stats --json` with --days or --since/--until, the API
// with the same range, and the pages in Chromium (range in the address,
// kept across a reload and a click to another page) give the same
// events, sessions of each kind and refs of the rule, and that these
// are the range's own: 1 set up, 1 hooks only and 1 ref in the last 7
// days; 1, 0 and 1 from 25 to 10 days ago.
func TestDashboard_RangeAgrees(t *testing.T) {
	dir, id := historyWorkspace(t, rangeHistory)
	base := serveHTTP(t, dir, "--http", "127.0.0.1:0")
	tok := testbin.HTTPToken(t, dir)

	cases := []struct {
		name    string
		flags   []string
		query   string
		setUp   int
		hooks   int
		refs    uint64
		session []string
	}{
		{"last 7 days", []string{"--days", "7"}, "days=7", 1, 1, 1, []string{"h-hooks", "h-new"}},
		{"25 to 10 days ago", []string{"--since", day(25), "--until", day(10)}, "since=" + day(25) + "&until=" + day(10), 1, 0, 1, []string{"h-mid"}},
		{"all time", nil, "", 3, 1, 4, []string{"h-hooks", "h-new", "h-mid", "h-old"}},
	}
	p := browse(t, base)
	p.open("/?token="+tok, "overview")

	for _, c := range cases {
		var st statsRange
		if err := json.Unmarshal([]byte(mustRun(t, dir, append([]string{"stats", "--json"}, c.flags...)...)), &st); err != nil {
			t.Fatal(err)
		}
		if st.Sessions != c.setUp || st.SessionsHooksOnly != c.hooks || st.refs(id) != c.refs || len(st.SessionList) != len(c.session) {
			t.Errorf("%s: stats --json: %d sessions set up, %d hooks only, %d refs of the rule, %d sessions listed; want %d, %d, %d, %d",
				c.name, st.Sessions, st.SessionsHooksOnly, st.refs(id), len(st.SessionList), c.setUp, c.hooks, c.refs, len(c.session))
		}
		var ov dash.Overview
		getJSON(t, base, "/api/overview?"+c.query, tok, &ov)
		if ov.Events != st.Events || ov.Sessions != st.Sessions || ov.SessionsHooksOnly != st.SessionsHooksOnly {
			t.Errorf("%s: /api/overview: %d events, %d sessions set up, %d hooks only; stats --json: %d, %d, %d",
				c.name, ov.Events, ov.Sessions, ov.SessionsHooksOnly, st.Events, st.Sessions, st.SessionsHooksOnly)
		}
		var rules dash.Rules
		getJSON(t, base, "/api/rules?"+c.query, tok, &rules)
		var apiRefs uint64
		for _, r := range rules.Items {
			if r.ID == id {
				apiRefs = r.Refs
			}
		}
		if apiRefs != st.refs(id) {
			t.Errorf("%s: /api/rules: %d refs of the rule, stats --json %d", c.name, apiRefs, st.refs(id))
		}
		var ss dash.Sessions
		getJSON(t, base, "/api/sessions?"+c.query, tok, &ss)
		var got []string
		for _, s := range ss.Items {
			got = append(got, s.ID)
		}
		if fmt.Sprint(got) != fmt.Sprint(c.session) {
			t.Errorf("%s: /api/sessions lists %v, want %v", c.name, got, c.session)
		}

		// The pages, with the range in the address.
		p.open("/?"+c.query, "overview")
		for fig, want := range map[string]uint64{"events": st.Events, "sessions": uint64(st.Sessions), "sessionsHooksOnly": uint64(st.SessionsHooksOnly)} {
			if got := p.figure(fig); got != thousands(want) {
				t.Errorf("%s: the overview's %s is %s, stats --json says %d", c.name, fig, got, want)
			}
		}
		p.wait(`document.querySelector("[data-range]")`)
		// A reload keeps the range; the Rules link carries it.
		if err := chromedp.Do(p.ctx, chromedp.Reload()); err != nil {
			t.Fatal(err)
		}
		p.waitPage("overview")
		if got := p.figure("sessions"); got != strconv.Itoa(st.Sessions) {
			t.Errorf("%s: after a reload the overview shows %s sessions, want %d", c.name, got, st.Sessions)
		}
		p.text(`document.querySelector('nav a[data-nav=rules]').click(), ""`)
		p.wait(`document.getElementById("app").dataset.page === "rules" && document.querySelector('[data-rule="` + id + `"]')`)
		if q := p.text(`location.search.slice(1)`); q != c.query {
			t.Errorf("%s: the Rules page's address has %q, want the range %q", c.name, q, c.query)
		}
		if got := p.text(`document.querySelector('[data-rule="` + id + `"] [data-field=refs]').textContent`); got != thousands(st.refs(id)) {
			t.Errorf("%s: the Rules page shows %s refs of the rule, stats --json %d", c.name, got, st.refs(id))
		}
		var rule dash.Rule
		getJSON(t, base, "/api/rules/"+url.PathEscape(id)+"?"+c.query, tok, &rule)
		if rule.Refs != st.refs(id) {
			t.Errorf("%s: /api/rules/{id}: %d refs, stats --json %d", c.name, rule.Refs, st.refs(id))
		}
	}
}
