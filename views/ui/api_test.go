package ui_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/views/dash"
)

// TestAPI_Types: GET /api/types lists every type of a workspace's ledger,
// in the events table's order, with its title.
func TestAPI_Types(t *testing.T) {
	b := newBackend(t)
	var got dash.EventTypes
	getJSON(t, b.serve(t)+"/api/types", &got)
	want := events.Types()
	if len(got.Items) != len(want) {
		t.Fatalf("/api/types: %d types, want %d", len(got.Items), len(want))
	}
	for i, typ := range want {
		if got.Items[i].Type != string(typ) || got.Items[i].Title != typ.Title() || got.Items[i].Title == "" {
			t.Errorf("/api/types item %d: %+v, want %s titled %q", i, got.Items[i], typ, typ.Title())
		}
	}
}

// TestHandler_Hardened: every answer of the dashboard, the API and the
// assets included, tells the browser not to sniff content types and to
// send no referrer (an address may carry ?token=).
func TestHandler_Hardened(t *testing.T) {
	base := newBackend(t).serve(t)
	for _, path := range []string{"/", "/rules", "/api/overview", "/api/types", "/api/nothing", "/assets/app.js", "/assets/app.css", "/nothing"} {
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.Header.Get("X-Content-Type-Options") != "nosniff" || resp.Header.Get("Referrer-Policy") != "no-referrer" {
			t.Errorf("%s: X-Content-Type-Options %q, Referrer-Policy %q; want nosniff and no-referrer", path,
				resp.Header.Get("X-Content-Type-Options"), resp.Header.Get("Referrer-Policy"))
		}
	}
}

// TestAPI_MostAndLeastApplied: on a catalog of 13 rules the overview's
// most and least applied lists share no rule and hold all 13, the most
// applied first; on one of 25 each holds TopN.
func TestAPI_MostAndLeastApplied(t *testing.T) {
	b := newBackend(t)
	rulesCatalog(t, b)
	var ov dash.Overview
	getJSON(t, b.serve(t)+"/api/overview", &ov)
	seen := map[string]bool{}
	for _, r := range append(append([]dash.RuleRefs{}, ov.MostApplied...), ov.LeastApplied...) {
		if seen[r.ID] {
			t.Errorf("overview: %s is both most and least applied", r.Path)
		}
		seen[r.ID] = true
	}
	if len(seen) != 13 || len(ov.MostApplied) != 7 || ov.MostApplied[0].Refs != 1 || ov.LeastApplied[0].Refs != 0 {
		t.Errorf("overview of 13 rules: most %v, least %v; want 7 and 6, all 13, the applied ones first", ov.MostApplied, ov.LeastApplied)
	}
	for i := range 12 {
		b.publish(t, fmt.Sprintf("p-%032d", 200+i), fmt.Sprintf("more/R%d.md", i), "# R\n\n## Steps\n\n1. One.\n")
	}
	getJSON(t, b.serve(t)+"/api/overview", &ov)
	if len(ov.MostApplied) != dash.TopN || len(ov.LeastApplied) != dash.TopN {
		t.Errorf("overview of 25 rules: %d most and %d least applied, want %d each", len(ov.MostApplied), len(ov.LeastApplied), dash.TopN)
	}
}
