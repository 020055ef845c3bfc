package main_test

import (
	"os"
	"path/filepath"
	"testing"
)

// publishLines parses `clumsies publish --json`.
func publishLines(tb testing.TB, dir string) []map[string]any {
	tb.Helper()
	return jsonLines(tb, dir, "publish", "--json")
}

// TestCLI_PublishJSON checks that publish --json prints every event it
// appended, in order, as the ledger holds it save the bodies and seq, and
// nothing else.
func TestCLI_PublishJSON(t *testing.T) {
	dir := newWorkspace(t)
	check := func(what string, got []map[string]any, want map[string]string) {
		t.Helper()
		ledger := map[string]map[string]any{}
		for _, ev := range eventLines(t, dir, "--type", "catalog") {
			ledger[ev["id"].(string)] = ev
		}
		if len(got) != len(want) {
			t.Fatalf("%s: got %d lines, want %d: %v", what, len(got), len(want), got)
		}
		for _, ev := range got {
			data, _ := ev["data"].(map[string]any)
			path, _ := data["path"].(string)
			if ev["type"] != want[path] {
				t.Fatalf("%s: got %v %s, want %q", what, ev["type"], path, want[path])
			}
			if _, ok := ev["seq"]; ok {
				t.Fatalf("%s: a line with seq: %v", what, ev)
			}
			if body, ok := data["body"]; ev["type"] == "catalog.publish" && body != "" || ev["type"] == "catalog.remove" && ok {
				t.Fatalf("%s: got body %q in %v, want it left out", what, body, ev)
			}
			stored := ledger[ev["id"].(string)]
			if stored == nil || stored["time"] != ev["time"] || stored["type"] != ev["type"] {
				t.Fatalf("%s: printed %v, the ledger holds %v", what, ev, stored)
			}
		}
	}
	check("first publish", publishLines(t, dir), map[string]string{
		"META_PROMPT.md": "catalog.publish", "style/ERRORS.md": "catalog.publish", "workflow/CODING.md": "catalog.publish",
	})
	if got := publishLines(t, dir); len(got) != 0 {
		t.Fatalf("unchanged tree: got %d lines, want none: %v", len(got), got)
	}

	content := filepath.Join(dir, ".clumsies")
	if err := os.WriteFile(filepath.Join(content, "rules", "style", "ERRORS.md"), []byte("# Errors\n\nEdited.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(content, "rules", "workflow", "CODING.md")); err != nil {
		t.Fatal(err)
	}
	check("an edit and a removal", publishLines(t, dir), map[string]string{
		"style/ERRORS.md": "catalog.publish", "workflow/CODING.md": "catalog.remove",
	})
}
