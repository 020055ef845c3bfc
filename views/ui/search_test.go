package ui_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/views/dash"
)

// TestBrowser_SearchAndExport searches "api" from the header's box of the
// overview of the last 7 days, in Chromium: the search page keeps the
// range in its address and lists the rule and the session that match
// (the session by its host), as /api/search does; the CSV and JSON
// exports of its rules table hold those rows, with plain numbers.
func TestBrowser_SearchAndExport(t *testing.T) {
	const api = "p-00000000000000000000000000000031"
	b := newBackend(t)
	for id, path := range map[string]string{api: "rules/api-style.md", "p-00000000000000000000000000000032": "rules/db.md"} {
		b.publish(t, id, path, "# "+path+"\n\n## Steps\n\n1. Do it.\n")
	}
	now := time.Now().UTC()
	b.appendAs(t, "s-one", events.TypeSessionStart, events.SessionStartData{Host: "api-host"}, now)
	b.appendAs(t, "s-one", events.TypeSetup, events.SetupData{}, now)
	for range 1200 {
		b.appendAs(t, "s-one", events.TypeRefer, events.ReferData{Refs: []events.Ref{{RuleID: api, ConstraintID: "Steps/1"}}}, now)
	}
	b.appendAs(t, "s-two", events.TypeSetup, events.SetupData{}, now)
	base := b.serve(t)

	var found dash.Search
	getJSON(t, base+"/api/search?q=api&days=7", &found)
	if len(found.Rules) != 1 || found.Rules[0].ID != api || found.Rules[0].Refs != 1200 || len(found.Sessions) != 1 || found.Sessions[0].ID != "s-one" {
		t.Fatalf("/api/search?q=api: %+v; want the rule %s with 1200 refs and session s-one", found, api)
	}

	p := newPage(t, base)
	p.open("/?days=7", "overview")
	eval[bool](p, `(document.querySelector("form[role=search] input").value = "api", document.querySelector("form[role=search]").requestSubmit(), true)`)
	p.wait(`document.getElementById("app").dataset.page === "search" && document.querySelector("[data-table=found-rules]")`)
	if q := eval[string](p, `location.pathname + location.search`); q != "/search?days=7&q=api" {
		t.Errorf("search: the address is %q, want /search?days=7&q=api", q)
	}
	rules := eval[[]string](p, `[...document.querySelectorAll("[data-table=found-rules] tbody tr")].map((tr) => tr.dataset.rule)`)
	sessions := eval[[]string](p, `[...document.querySelectorAll("[data-session]")].map((tr) => tr.dataset.session)`)
	if len(rules) != 1 || rules[0] != api || len(sessions) != 1 || sessions[0] != "s-one" {
		t.Errorf("search page: rules %q and sessions %q, want [%s] and [s-one]", rules, sessions, api)
	}
	if got := eval[string](p, `document.querySelector("[data-table=found-rules] [data-field=refs]").textContent`); got != "1,200" {
		t.Errorf("search page: the rule's refs read %q, want 1,200", got)
	}

	csv := eval[string](p, `exportText(document.querySelector("[data-table=found-rules]"), "csv")`)
	if want := "rule,kind,refs,range\r\nrules/api-style.md,rule,1200," + now.AddDate(0, 0, -6).Format("2006-01-02") + " to " + now.Format("2006-01-02") + "\r\n"; csv != want {
		t.Errorf("CSV export: %q, want %q", csv, want)
	}
	var rows []map[string]any
	if err := json.Unmarshal([]byte(eval[string](p, `exportText(document.querySelector("[data-table=found-rules]"), "json")`)), &rows); err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 || rows[0]["refs"] != float64(1200) || rows[0]["kind"] != "rule" {
		t.Errorf("JSON export: %v, want one row with refs 1200 and kind rule", rows)
	}
	if n := eval[int](p, `document.querySelectorAll("[data-export] button").length`); n != 4 {
		t.Errorf("search page: %d export buttons, want CSV and JSON for each of its 2 tables", n)
	}
	eval[bool](p, `(document.querySelector('[data-export] button[data-format=csv]').click(), true)`)
	if errs := p.b.Errors(); len(errs) > 0 {
		t.Errorf("export: console errors: %q", errs)
	}
}
