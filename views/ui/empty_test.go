package ui_test

import (
	"strings"
	"testing"
	"time"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
)

// TestBrowser_EmptyStatesSayWhatToRun opens an empty workspace's
// overview, an unknown rule's page and a removed rule's page in
// Chromium: each says what to run next, not only that there is nothing
// (the removed rule's page is its history, and says how to bring it
// back).
func TestBrowser_EmptyStatesSayWhatToRun(t *testing.T) {
	b := newBackend(t)
	p := newPage(t, b.serve(t))
	p.open("/", "overview")
	next := eval[string](p, `[...document.querySelectorAll("[data-next]")].map((e) => e.textContent).join("\n")`)
	if !strings.Contains(next, "clumsies publish") || !strings.Contains(next, "clumsies adapt") {
		t.Errorf("empty overview says %q, want the commands to run next (clumsies publish, clumsies adapt)", next)
	}

	p.open("/rules/p-00000000000000000000000000000099", "rule")
	msg := eval[string](p, `(document.querySelector("#app .err") || {}).textContent || ""`)
	if !strings.Contains(msg, "not published") || !strings.Contains(msg, "clumsies publish") || strings.Contains(msg, "projections:") {
		t.Errorf("an unknown rule's page says %q, want that it is not published and what to run", msg)
	}

	const id = "p-00000000000000000000000000000003"
	b.publish(t, id, "rules/gone.md", "# Gone\n")
	b.append(t, events.TypeCatalogRemove, events.RemoveData{ID: id, Kind: string(content.KindRule), Path: "rules/gone.md"}, time.Now())
	p.open("/rules/"+id, "rule")
	msg = eval[string](p, `(document.querySelector("[data-removed]") || {}).textContent || ""`)
	if !strings.Contains(msg, "Removed") || !strings.Contains(msg, "clumsies publish") {
		t.Errorf("a removed rule's page says %q, want that it was removed and how to bring it back", msg)
	}
}
