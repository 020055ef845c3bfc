package main_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
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

// TestCLI_PublishHoldsBackBadFile checks that a file that cannot be
// published holds back only itself: a good new file and a good edit made
// with it are published, the bad file keeps its last published content,
// publish names it once on stderr and in --json, and exits 3; fixed, it
// is published and publish exits 0 again.
func TestCLI_PublishHoldsBackBadFile(t *testing.T) {
	dir := newWorkspace(t)
	mustRun(t, dir, "publish")
	rules := filepath.Join(dir, ".clumsies", "rules", "style")
	write := func(name, body string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(rules, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("ERRORS.md", "# Errors\n\nbroken \xff\n")
	write("NEW.md", "# New\n\nA new rule.\n\n## Do\n\n- It.\n")

	r := run(t, dir, "publish", "--json")
	if r.code != 3 {
		t.Fatalf("publish with a bad file: got exit %d, want 3 (published, files held back); stderr %q", r.code, r.stderr)
	}
	if n := strings.Count(r.stderr, "rules/style/ERRORS.md"); n != 1 || !strings.Contains(r.stderr, "UTF-8") || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 {
		t.Fatalf("stderr: got %q, want one line naming rules/style/ERRORS.md and UTF-8", r.stderr)
	}
	var published []string
	var held []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var obj map[string]any
		if err := json.Unmarshal([]byte(line), &obj); err != nil {
			t.Fatalf("publish --json printed a line that is not JSON: %q", line)
		}
		if h, ok := obj["held"].(map[string]any); ok {
			held = append(held, h)
			continue
		}
		data, _ := obj["data"].(map[string]any)
		published = append(published, fmt.Sprint(obj["type"], " ", data["path"]))
	}
	if !slices.Equal(published, []string{"catalog.publish style/NEW.md"}) {
		t.Fatalf("published %v, want only the new good file", published)
	}
	if len(held) != 1 || held[0]["path"] != "rules/style/ERRORS.md" || !strings.Contains(fmt.Sprint(held[0]["reason"]), "UTF-8") {
		t.Fatalf("held lines: got %v, want rules/style/ERRORS.md, not UTF-8", held)
	}
	if out := mustRun(t, dir, "stats"); !strings.Contains(out, "4 published objects") {
		t.Fatalf("stats: got %q, want the 3 published before (the bad one kept) and the new one", out)
	}
	if r := run(t, dir, "publish"); r.code != 3 || !strings.Contains(r.stderr, "rules/style/ERRORS.md") {
		t.Fatalf("publish again: got exit %d, stderr %q; want the file held back again, exit 3", r.code, r.stderr)
	}

	write("ERRORS.md", "# Errors\n\nFixed.\n\n## Wrap\n\n- Wrap them.\n")
	if r := run(t, dir, "publish"); r.code != 0 || r.stderr != "" || !strings.Contains(r.stdout, "1 change(s) published") {
		t.Fatalf("publish after the fix: got exit %d, stdout %q, stderr %q; want the fixed file published", r.code, r.stdout, r.stderr)
	}
}
