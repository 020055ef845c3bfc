package ui_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/views/dash"
)

// TestBrowser_LiveTypes opens the Live page, with the ledger's live
// stream, in Chromium: its type filter offers the types /api/types
// lists (the hook events and catalog.reid among them), the page opened
// with ?type=attest.file_edit shows the file edits, a catalog.reid and
// a gate's decision reach the open page, and "N events so far" follows
// the ledger.
func TestBrowser_LiveTypes(t *testing.T) {
	b := newBackend(t)
	const id = "p-00000000000000000000000000000041"
	b.publish(t, id, "rules/api.md", "---\npaths: [\"api/**\"]\n---\n# API\n\n## Errors\n\n1. Map them once.\n")
	now := time.Now()
	b.append(t, events.TypeFileEdit, events.FileEditData{Host: "claude-code", Tool: "Edit", Paths: []string{"api/h.go"}, Rules: []string{id}}, now)
	base := b.serveLive(t)
	var types dash.EventTypes
	getJSON(t, base+"/api/types", &types)
	p := newPage(t, base)

	p.open("/live?type=attest.file_edit", "live")
	options := eval[[]string](p, `[...document.querySelectorAll("select[aria-label=type] option")].map((o) => o.value).filter(Boolean)`)
	var want []string
	for _, x := range types.Items {
		want = append(want, x.Type)
	}
	if fmt.Sprint(options) != fmt.Sprint(want) {
		t.Errorf("live: the type filter offers %q, want /api/types' %q", options, want)
	}
	for _, typ := range []string{"attest.file_edit", "attest.tool_gated", "catalog.reid"} {
		if !strings.Contains(fmt.Sprint(options), typ) {
			t.Errorf("live: the type filter has no %s", typ)
		}
	}
	p.wait(`document.querySelector('[data-table=live] tr[data-type="attest.file_edit"]')`)

	eval[bool](p, `(() => { const s = document.querySelector("select[aria-label=type]"); s.value = ""; s.dispatchEvent(new Event("change")); return true; })()`)
	b.append(t, events.TypeCatalogReid, events.ReidData{From: "p-old", To: id, Kind: "rule", Path: "rules/api.md"}, now)
	b.append(t, events.TypeToolGated, events.ToolGatedData{Host: "claude-code", Tool: "Edit", Paths: []string{"api/g.go"},
		Decision: events.GateDeny, Missing: []string{id}}, now)
	p.wait(`document.querySelector('[data-table=live] tr[data-type="catalog.reid"]') && document.querySelector('[data-table=live] tr[data-type="attest.tool_gated"]')`)
	if got, want := eval[string](p, `document.querySelector('[data-figure="so-far"]').textContent`), strconv.Itoa(4); got != want {
		t.Errorf("live: %q events so far, want %s", got, want)
	}
}
