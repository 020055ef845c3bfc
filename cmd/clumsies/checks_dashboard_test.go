package main_test

import (
	"encoding/json"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/internal/testbin"
	"github.com/clumsies/clumsies/stats"
	"github.com/clumsies/clumsies/views/dash"
)

// checkChecksPage checks the rule's page of the dashboard against
// `clumsies stats --json` after TestChecks_EndToEnd's three sessions broke
// rule id's check: for all time, the last 7 days and a range before any
// session, /api/rules/{id}'s checks are stats' entry for the rule (none
// in the empty range: no sessions, no constraints, no versions), and in
// Chromium the rule's Checks panel shows the sentence with the counts it
// rests on (2 of 2 loaded, 1 of 1 not, too few to tell), the constraint's
// found, fixed, rejected and open, and the version.
func checkChecksPage(t *testing.T, dir, id string) {
	t.Helper()
	base := serveHTTP(t, dir, "--http", "127.0.0.1:0")
	tok := testbin.HTTPToken(t, dir)
	cases := []struct {
		name     string
		flags    []string
		query    string
		sessions int
	}{
		{"all time", nil, "", 3},
		{"last 7 days", []string{"--days", "7"}, "days=7", 3},
		{"30 to 20 days ago", []string{"--since", day(30), "--until", day(20)}, "since=" + day(30) + "&until=" + day(20), 0},
	}
	for _, c := range cases {
		var st stats.Report
		if err := json.Unmarshal([]byte(mustRun(t, dir, append([]string{"stats", "--json"}, c.flags...)...)), &st); err != nil {
			t.Fatal(err)
		}
		var want stats.RuleChecks
		for _, r := range st.Checks {
			if r.ID == id {
				want = r
			}
		}
		var ru dash.Rule
		getJSON(t, base, "/api/rules/"+url.PathEscape(id)+"?"+c.query, tok, &ru)
		if ru.Checks.Sessions != c.sessions {
			t.Errorf("%s: the rule page's checks ran in %d sessions, want %d", c.name, ru.Checks.Sessions, c.sessions)
		}
		if c.sessions == 0 {
			if len(ru.Checks.Constraints) != 0 || len(ru.Checks.Versions) != 0 || want.ID != "" {
				t.Errorf("%s: checks with no session: page %+v, stats %+v", c.name, ru.Checks, want)
			}
			continue
		}
		if !reflect.DeepEqual(ru.Checks, want) {
			t.Errorf("%s: /api/rules/{id} checks\n%+v\nstats --json\n%+v", c.name, ru.Checks, want)
		}
	}

	p := browse(t, base)
	p.open("/rules/"+url.PathEscape(id)+"?days=7&token="+tok, "rule")
	p.wait(`document.querySelector("[data-checks]")`)
	if got := p.text(`document.querySelector("[data-checks]").textContent`); !strings.Contains(got,
		"Sessions that loaded it broke a checked constraint in 2 of 2 (too few sessions to tell); those that did not, in 1 of 1 (too few sessions to tell).") {
		t.Errorf("the Checks panel says %q", got)
	}
	row := p.text(`[...document.querySelectorAll('[data-check-constraint="Errors/2"] td')].map((td) => td.textContent).join(" ")`)
	if row != "Errors/2 3 1 1 1" {
		t.Errorf("the Checks panel's constraint row reads %q, want Errors/2 found 3, fixed 1, rejected 1, open 1", row)
	}
	if n := p.number(`document.querySelectorAll("[data-check-version]").length`); n != 1 {
		t.Errorf("the Checks panel lists %d versions, want 1", n)
	}
	if got := p.text(`document.querySelector('[data-version-constraint="Errors/2"]').textContent`); got !=
		"With this version, sessions that loaded it broke Errors/2 in 2 of 2 (too few sessions to tell); those that did not, in 1 of 1 (too few sessions to tell)." {
		t.Errorf("the Checks panel's version says %q", got)
	}
	if got := p.figure("checksSessions"); got != "3" {
		t.Errorf("the Checks panel counts %s sessions, want 3", got)
	}
	p.open("/rules/"+url.PathEscape(id)+"?since="+day(30)+"&until="+day(20), "rule")
	p.wait(`document.querySelector('[data-checks="none"]')`)
}
