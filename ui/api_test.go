package ui_test

import (
	"net/http"
	"testing"

	"github.com/clumsies/clumsies/dash"
	"github.com/clumsies/clumsies/events"
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
