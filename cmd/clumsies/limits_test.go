package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPublish_LargestRule: a rule at the content size limit whose every
// byte the ledger stores as six (\u003c) is published, and an agent can
// propose a draft body of the same kind at its own limit: both events fit
// the embedded server's max payload.
func TestPublish_LargestRule(t *testing.T) {
	dir := newWorkspace(t)
	rule := filepath.Join(dir, ".clumsies", "rules", "big", "LT.md")
	if err := os.MkdirAll(filepath.Dir(rule), 0o755); err != nil {
		t.Fatal(err)
	}
	body := "# LT\n\n" + strings.Repeat("<", 1<<20-len("# LT\n\n"))
	if err := os.WriteFile(rule, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	out := mustRun(t, dir, "publish")
	if !strings.Contains(out, "big/LT.md") {
		t.Fatalf("publish: got %q, want big/LT.md published", out)
	}
	_, cl := serve(t, dir)
	setup(t, cl, "limits")
	res := call(t, cl, "artifact", map[string]any{"resource": "context", "op": map[string]any{"create": map[string]any{"path": "lt", "body": strings.Repeat("<", 250_000)}}})
	if res["ok"] != true {
		t.Fatalf("artifact create of 250 KB of '<': got %v", res)
	}
}
