package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A rule whose front matter has a bad glob is held back, as other bad
// files are: publish names the file and the glob, publishes the rest and
// exits 3; fixed, the rule is published with its paths.
func TestCLI_PublishBadPaths(t *testing.T) {
	dir := newWorkspace(t)
	rule := filepath.Join(dir, ".clumsies/rules/api/HANDLERS.md")
	if err := os.MkdirAll(filepath.Dir(rule), 0o755); err != nil {
		t.Fatal(err)
	}
	const body = "# Handlers\n\nHow handlers answer.\n\n## Errors\n\n- Map errors once.\n"
	if err := os.WriteFile(rule, []byte("---\npaths:\n  - \"api/**/*.{go,ts}\"\n---\n"+body), 0o644); err != nil {
		t.Fatal(err)
	}
	r := run(t, dir, "publish")
	if r.code != 3 || !strings.Contains(r.stderr, "rules/api/HANDLERS.md") || !strings.Contains(r.stderr, `"api/**/*.{go,ts}"`) {
		t.Fatalf("got exit %d, stderr %q; want an error naming the file and the glob", r.code, r.stderr)
	}
	published := func() bool {
		for _, ev := range eventLines(t, dir) {
			if d, _ := ev["data"].(map[string]any); d != nil && d["path"] == "api/HANDLERS.md" {
				return true
			}
		}
		return false
	}
	if published() {
		t.Fatal("the held-back file was published")
	}
	if err := os.WriteFile(rule, []byte("---\npaths:\n  - \"api/**/*.go\"\n---\n"+body), 0o644); err != nil {
		t.Fatal(err)
	}
	mustRun(t, dir, "publish")
	if !published() {
		t.Fatal("the fixed file was not published")
	}
	mustRun(t, dir, "verify")
}

// A rule whose check does not compile is held back like a bad glob:
// publish names the file and the check and exits 3; fixed, it publishes.
func TestCLI_PublishBadCheck(t *testing.T) {
	dir := newWorkspace(t)
	rule := filepath.Join(dir, ".clumsies/rules/api/HANDLERS.md")
	const body = "# Handlers\n\nHow handlers answer.\n\n## Errors\n\n- Map errors once.\n"
	writeFile(t, rule, "---\npaths: [\"api/**\"]\nchecks:\n  - constraint: \"Errors/1\"\n    forbid: 'a(b'\n---\n"+body)
	r := run(t, dir, "publish")
	if r.code != 3 || !strings.Contains(r.stderr, "rules/api/HANDLERS.md") || !strings.Contains(r.stderr, `check 1 (constraint "Errors/1"): its pattern "a(b" does not compile`) {
		t.Fatalf("got exit %d, stderr %q; want an error naming the file and the check", r.code, r.stderr)
	}
	writeFile(t, rule, "---\npaths: [\"api/**\"]\nchecks:\n  - constraint: \"Errors/1\"\n    forbid: 'a\\(b'\n---\n"+body)
	mustRun(t, dir, "publish")
}
