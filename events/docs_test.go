package events_test

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/events"
)

// TestDocs_EventTypesTable: the table "Event types" of docs/events.md has
// a row for every type of a workspace's ledger, and no other.
func TestDocs_EventTypesTable(t *testing.T) {
	doc, err := os.ReadFile("../docs/events.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(doc), "\n## Event types\n")
	if !ok {
		t.Fatal(`docs/events.md has no section "## Event types"`)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	var documented []string
	for line := range strings.Lines(section) {
		cells := strings.Split(line, "|")
		if len(cells) < 3 || !strings.HasPrefix(strings.TrimSpace(cells[1]), "`") {
			continue
		}
		documented = append(documented, strings.Trim(strings.TrimSpace(cells[1]), "`"))
	}
	var want []string
	for _, typ := range events.Types() {
		want = append(want, string(typ))
	}
	for _, typ := range want {
		if !slices.Contains(documented, typ) {
			t.Errorf("docs/events.md, Event types: no row for %s", typ)
		}
	}
	for _, typ := range documented {
		if !slices.Contains(want, typ) {
			t.Errorf("docs/events.md, Event types: a row for %s, which is no type of a workspace's ledger", typ)
		}
	}
}
