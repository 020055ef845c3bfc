package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPublish_OneDefinitionOfARule: the rules init writes are rules as a
// team's catalog defines them (content.CheckRule), so publish says
// nothing of them; a rule without a description is published with a
// warning naming it and saying why a team's catalog refuses it.
func TestPublish_OneDefinitionOfARule(t *testing.T) {
	dir := t.TempDir()
	mustRun(t, dir, "init")
	r := run(t, dir, "publish")
	if r.code != 0 || strings.Contains(r.stderr, "warning") {
		t.Fatalf("publish of the starter: exit %d, stderr %q; want 0 and no warning", r.code, r.stderr)
	}
	bare := filepath.Join(dir, ".clumsies", "rules", "style", "NAMES.md")
	if err := os.WriteFile(bare, []byte("# Names\n\n## Short\n\n- Keep names short.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r = run(t, dir, "publish")
	want := "clumsies: warning: rules/style/NAMES.md: it has no description"
	if r.code != 0 || !strings.Contains(r.stderr, want) || !strings.Contains(r.stderr, "hub catalog push") || !strings.Contains(r.stdout, "style/NAMES.md") {
		t.Fatalf("publish of a rule without a description: exit %d, stdout %q, stderr %q; want it published with a warning %q", r.code, r.stdout, r.stderr, want)
	}
}
