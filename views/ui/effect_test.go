package ui_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/views/dash"
)

// TestBrowser_RuleEffectiveness has a rule loaded and claimed twice by a
// session 2 days ago and claimed without loading by one 40 days ago, and
// a second rule claimed only 40 days ago. For the last 7 days, the Rules
// page in Chromium shows what /api/rules gives: 2 refs, 1 session that
// loaded it, 1 that claimed it, 2.0 refs per load, the day it was last
// applied and a sparkline of its 2 refs; the second rule is never applied
// in the range and is what the "never applied" filter keeps. The rule's
// page shows the same figures and each constraint's text beside its id.
func TestBrowser_RuleEffectiveness(t *testing.T) {
	b := newBackend(t)
	const used, old = "p-00000000000000000000000000000021", "p-00000000000000000000000000000022"
	b.publish(t, used, "rules/used.md", "# Used\n\n## Steps\n\n1. Keep the change small.\n2. Say why.\n")
	b.publish(t, old, "rules/old.md", "# Old\n\n## Steps\n\n1. Be old.\n")
	now := time.Now().UTC()
	refer := func(id string, n int) events.ReferData {
		var d events.ReferData
		for i := range n {
			d.Refs = append(d.Refs, events.Ref{RuleID: id, ConstraintID: fmt.Sprintf("Steps/%d", i+1)})
		}
		return d
	}
	b.appendAs(t, "s-recent", events.TypeSetup, events.SetupData{}, now.AddDate(0, 0, -2))
	b.appendAs(t, "s-recent", events.TypeLoad, events.LoadData{Items: []events.LoadedItem{{ID: used, Changed: true}}}, now.AddDate(0, 0, -2))
	b.appendAs(t, "s-recent", events.TypeRefer, refer(used, 2), now.AddDate(0, 0, -2))
	b.appendAs(t, "s-old", events.TypeSetup, events.SetupData{}, now.AddDate(0, 0, -40))
	b.appendAs(t, "s-old", events.TypeRefer, refer(used, 1), now.AddDate(0, 0, -40))
	b.appendAs(t, "s-old", events.TypeRefer, refer(old, 1), now.AddDate(0, 0, -40))
	base := b.serve(t)

	var rules dash.Rules
	getJSON(t, base+"/api/rules?days=7", &rules)
	var u dash.RuleRow
	for _, r := range rules.Items {
		if r.ID == used {
			u = r
		}
	}
	applied := now.AddDate(0, 0, -2).Format("2006-01-02")
	if u.Refs != 2 || u.Loaded != 1 || u.Referenced != 1 || u.RefsPerLoad != 2 || u.LastApplied != applied || len(rules.Days) != 7 {
		t.Fatalf("/api/rules?days=7: %+v over %d days; want 2 refs, 1 loaded, 1 referenced, 2 refs per load, last applied %s, 7 days", u, len(rules.Days), applied)
	}

	p := newPage(t, base)
	p.open("/rules?days=7", "rules")
	row := func(id, sel string) string {
		return eval[string](p, `document.querySelector('[data-rule="`+id+`"] `+sel+`').textContent`)
	}
	cells := eval[[]string](p, `[...document.querySelectorAll('[data-rule="`+used+`"] td')].map((td) => td.textContent)`)
	want := []string{"rules/used.md", "rule", "2", applied + ": 2 refs", "0", "0", "1", "1", "0", "0", "0", "2.0", applied, "2", "0"}
	if fmt.Sprint(cells) != fmt.Sprint(want) {
		t.Errorf("rules page, the used rule's cells: %q, want %q", cells, want)
	}
	if n := eval[int](p, `Number(document.querySelector('[data-rule="`+used+`"] svg.spark').dataset.spark)`); n != 2 {
		t.Errorf("rules page: the sparkline sums %d refs, want 2", n)
	}
	if got := row(old, "td"); got != "rules/old.md never applied" {
		t.Errorf("rules page: the old rule's first cell reads %q, want it never applied in the range", got)
	}
	p.wait(`document.querySelector("[data-filter=never]")`)
	eval[bool](p, `(document.querySelector("[data-filter=never]").click(), true)`)
	p.wait(`document.querySelectorAll("[data-table=rules] tbody tr").length === 1 && document.querySelector("[data-table=rules] tbody tr").dataset.rule === "` + old + `"`)
	if q := eval[string](p, `location.search`); q != "?days=7&never=1" {
		t.Errorf("rules page: the address is %q after the filter, want ?days=7&never=1", q)
	}

	p.open("/rules/"+used+"?days=7", "rule")
	for fig, want := range map[string]string{"rangeRefs": "2", "effectLoaded": "1", "effectReferenced": "1", "refsPerLoad": "2.0", "lastApplied": applied} {
		if got := eval[string](p, `document.querySelector('[data-figure="`+fig+`"]').textContent`); got != want {
			t.Errorf("rule page: %s is %q, want %q", fig, got, want)
		}
	}
	if got := eval[string](p, `document.querySelector('[data-constraint="Steps/2"] td:nth-child(2)').textContent`); got != "Steps Say why." {
		t.Errorf("rule page: constraint Steps/2 reads %q, want its name and text", got)
	}
}

// TestBrowser_InScopeNeverLoaded has three sessions edit a file in a
// rule's scope, one of which loaded it, and a fourth load it without an
// edit in its scope. The Rules page shows 3 in scope, 2 of them never
// loaded it and 2 loaded (in scope or not); the rule's page lists the two
// sessions that never loaded it with their host and model.
func TestBrowser_InScopeNeverLoaded(t *testing.T) {
	b := newBackend(t)
	const id = "p-00000000000000000000000000000023"
	b.publish(t, id, "rules/api.md", "---\npaths: [\"api/**\"]\n---\n# API\n\n## Errors\n\n1. Map them once.\n")
	now := time.Now().UTC()
	for i, s := range []struct {
		id, host, model string
		load, edit      bool
	}{
		{"s-loaded", "claude-code", "opus", true, true},
		{"s-codex", "codex", "gpt-5", false, true},
		{"s-gemini", "gemini-cli", "gemini-2.5-pro", false, true},
		{"s-elsewhere", "claude-code", "sonnet", true, false},
	} {
		at := now.Add(time.Duration(i) * time.Minute)
		b.appendAs(t, s.id, events.TypeSessionStart, events.SessionStartData{Host: s.host, Model: s.model, Source: "startup"}, at)
		if s.load {
			b.appendAs(t, s.id, events.TypeLoad, events.LoadData{Items: []events.LoadedItem{{ID: id, Changed: true}}}, at)
		}
		edit := events.FileEditData{Host: s.host, Tool: "Edit", Paths: []string{"web/x.go"}}
		if s.edit {
			edit.Paths, edit.Rules = []string{"api/x.go"}, []string{id}
			if !s.load {
				edit.Unloaded = []string{id}
			}
		}
		b.appendAs(t, s.id, events.TypeFileEdit, edit, at)
	}
	base := b.serve(t)
	p := newPage(t, base)
	p.open("/rules", "rules")
	for field, want := range map[string]string{"inScopeNotLoaded": "2"} {
		if got := eval[string](p, `document.querySelector('[data-rule="`+id+`"] [data-field=`+field+`]').textContent`); got != want {
			t.Errorf("rules page: %s is %q, want %q", field, got, want)
		}
	}
	cells := eval[[]string](p, `[...document.querySelectorAll('[data-rule="`+id+`"] td')].slice(4, 7).map((td) => td.textContent)`)
	if fmt.Sprint(cells) != fmt.Sprint([]string{"3", "2", "2"}) {
		t.Errorf("rules page: in scope, never loaded, loaded read %q, want [3 2 2]", cells)
	}

	p.open("/rules/"+id, "rule")
	if got := eval[string](p, `document.querySelector('[data-figure="effectInScopeNotLoaded"]').textContent`); got != "2" {
		t.Errorf("rule page: %q sessions in scope that never loaded it, want 2", got)
	}
	rows := eval[[]string](p, `[...document.querySelectorAll("tr[data-not-loaded]")].map((tr) => [...tr.children].map((td) => td.textContent).filter((_, i) => i !== 1).join(" "))`)
	want := []string{"s-gemini gemini-cli gemini-2.5-pro 1", "s-codex codex gpt-5 1"}
	if fmt.Sprint(rows) != fmt.Sprint(want) {
		t.Errorf("rule page: sessions in scope that never loaded it %q, want %q", rows, want)
	}
}
