package ui_test

import (
	"testing"
	"time"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/views/dash"
)

// TestBrowser_RemovedRuleRows publishes two rules, refers to both and
// removes one: the Rules rows add up to the overview's refs, the removed
// rule listed under its last path and marked removed, out of "never
// applied"; its page, in Chromium, is its read-only history with its refs
// and the session that applied it, where it used to be a 404.
func TestBrowser_RemovedRuleRows(t *testing.T) {
	b := newBackend(t)
	const kept, gone = "p-00000000000000000000000000000071", "p-00000000000000000000000000000072"
	b.publish(t, kept, "rules/kept.md", "# Kept\n\n## Steps\n\n1. One.\n")
	b.publish(t, gone, "rules/gone.md", "# Gone\n\n## Steps\n\n1. One.\n2. Two.\n")
	now := time.Now()
	b.append(t, events.TypeRefer, events.ReferData{Refs: []events.Ref{{RuleID: kept, ConstraintID: "Steps/1"},
		{RuleID: gone, ConstraintID: "Steps/1"}, {RuleID: gone, ConstraintID: "Steps/2"}}}, now)
	b.append(t, events.TypeCatalogRemove, events.RemoveData{ID: gone, Kind: "rule", Path: "rules/gone.md"}, now)
	base := b.serve(t)

	var ov dash.Overview
	getJSON(t, base+"/api/overview", &ov)
	var rules dash.Rules
	getJSON(t, base+"/api/rules", &rules)
	var sum uint64
	var row dash.RuleRow
	for _, r := range rules.Items {
		sum += r.Refs
		if r.ID == gone {
			row = r
		}
	}
	if sum != ov.Refs || ov.Refs != 3 {
		t.Errorf("the Rules rows sum %d refs, the overview counts %d; want 3 both", sum, ov.Refs)
	}
	if row.Source != dash.SourceRemoved || row.Path != "rules/gone.md" || row.Refs != 2 {
		t.Errorf("/api/rules: the removed rule's row is %+v, want rules/gone.md, removed, 2 refs", row)
	}

	p := newPage(t, base)
	p.open("/rules", "rules")
	if got := eval[string](p, `document.querySelector('[data-rule="`+gone+`"] td').textContent`); got != "rules/gone.md removed" {
		t.Errorf("rules page: the removed rule reads %q, want its path marked removed", got)
	}
	p.open("/rules/"+gone, "rule")
	if msg := eval[string](p, `(document.querySelector("#app .err") || {}).textContent || ""`); msg != "" {
		t.Fatalf("the removed rule's page shows an error: %s", msg)
	}
	if got := eval[[]string](p, `[document.querySelector("h1").textContent, String(!!document.querySelector("[data-removed]")), document.querySelector('[data-figure="refs"]').textContent, String(document.querySelectorAll("a[href^='/sessions/s-ui-test']").length > 0)]`); got[0] != "rules/gone.md rule removed" || got[1] != "true" || got[2] != "2" || got[3] != "true" {
		t.Errorf("removed rule's page: %q, want its path marked removed, the note, 2 refs and the session that applied it", got)
	}
}
