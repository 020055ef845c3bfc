package main_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/hub/hubwire"
	"github.com/clumsies/clumsies/internal/hubtest"
)

// TestHubCatalog_KilledBetweenLedgerAndCatalog kills `clumsies hub serve`
// (SIGKILL) during a push, after the change is in the hub's ledger and
// before the team's catalog holds it. Started again, the hub's catalog
// holds the change once (one new revision), and its ledger records it
// once: the push is one write, of the ledger, from which the catalog is
// derived.
func TestHubCatalog_KilledBetweenLedgerAndCatalog(t *testing.T) {
	hp := newHub(t)
	tree := writeTree(t, map[string]string{"rules/team/STYLE.md": teamRule})
	first := pushTree(t, hp, tree, "red")
	if len(first.Published) != 1 {
		t.Fatalf("push: got %+v, want one object", first)
	}
	id := first.Published[0].ID

	hp.stop()
	hp.env = []string{hubtest.HoldCatalogEnv + "=1"}
	hp.start(t)
	changed := teamRule + "- never panic\n"
	if err := os.WriteFile(filepath.Join(tree, "rules", "team", "STYLE.md"), []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	push := exec.Command(binary, "hub", "catalog", "push", tree, "--team", "red")
	push.Dir = hp.dir
	if err := push.Start(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the hub holding the catalog's entry back", func() bool {
		return strings.Contains(hp.said.String(), "holding the catalog's entry back")
	})
	hp.kill()
	if err := push.Wait(); err == nil {
		t.Fatal("the push succeeded though its hub was killed before the catalog held it")
	}

	hp.env = nil
	hp.start(t)
	var obj hubwire.CatalogObject
	if err := json.Unmarshal([]byte(mustRun(t, hp.dir, "hub", "catalog", "show", id, "--team", "red", "--json")), &obj); err != nil {
		t.Fatal(err)
	}
	if obj.Body != changed {
		t.Fatalf("after the restart the catalog holds %q, want the pushed change", obj.Body)
	}
	var hist []hubwire.CatalogObject
	if err := json.Unmarshal([]byte(mustRun(t, hp.dir, "hub", "catalog", "history", id, "--team", "red", "--json")), &hist); err != nil {
		t.Fatal(err)
	}
	if len(hist) != 2 {
		t.Fatalf("history: got %d revisions (%+v), want 2: the first push and the change, once", len(hist), hist)
	}
	if again := run(t, hp.dir, "hub", "catalog", "push", tree, "--team", "red"); !strings.Contains(again.stdout, "Nothing to push") {
		t.Fatalf("the same tree pushed again: %+v, want nothing to push", again)
	}
	hp.stop()

	if got := ledgerChanges(t, hp.dir, id); got != 2 {
		t.Fatalf("the hub's ledger records %d changes of %s, want 2", got, id)
	}
}

// ledgerChanges counts the catalog changes of object id the ledger of
// the stopped hub in hubDir records.
func ledgerChanges(tb testing.TB, hubDir, id string) int {
	tb.Helper()
	n := 0
	for _, ev := range hubtest.Ledger(tb, hubDir) {
		var d events.HubCatalogData
		if ev.Type == events.TypeHubCatalogPublish || ev.Type == events.TypeHubCatalogRemove {
			if err := json.Unmarshal(ev.Data, &d); err != nil {
				tb.Fatal(err)
			}
		}
		if d.ID == id {
			n++
		}
	}
	return n
}
