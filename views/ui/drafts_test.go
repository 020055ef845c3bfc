package ui_test

import (
	"testing"
	"time"

	"github.com/clumsies/clumsies/events"
)

// TestBrowser_DraftsSayWhatToRun opens, in Chromium, the Drafts page of
// a workspace with a draft updated three days ago: it shows the draft's
// id, its age and the command that applies it, pinned to the draft's
// last event.
func TestBrowser_DraftsSayWhatToRun(t *testing.T) {
	b := newBackend(t)
	const id = "p-00000000000000000000000000000051"
	b.publish(t, id, "rules/style.md", "# Style\n\n## Naming\n\n1. Say what it is.\n")
	b.append(t, events.TypeDraftUpdate, events.DraftData{Resource: events.ResourceRule, ID: id, Op: events.DraftOpUpdate,
		Path: "rules/style.md", Body: "# Style\n\n## Naming\n\n1. Say what it is, briefly.\n"}, time.Now().Add(-73*time.Hour))
	p := newPage(t, b.serve(t))
	p.open("/drafts", "drafts")
	got := eval[[]string](p, `["[data-draft-id]", "[data-age]", "[data-apply]"].map((s) => (document.querySelector(s) || {}).textContent || "missing")`)
	want := []string{id, "updated 3 days ago", "clumsies drafts apply " + id + " --seq 2"} // the publish is event 1
	for i := range want {
		if i >= len(got) || got[i] != want[i] {
			t.Errorf("drafts page: %q, want %q", got, want)
			break
		}
	}
}
