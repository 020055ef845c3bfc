package node_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// The owner matches the published rules' paths against the files and
// answers the ids, to itself and through the socket alike.
func TestHandle_RulesInScope(t *testing.T) {
	ws, owner, remote := ownerAndRemote(t)
	ctx := context.Background()
	p := filepath.Join(ws.ContentRoot(), "rules", "api", "HANDLERS.md")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	body := "---\npaths:\n  - \"api/**/*.go\"\n---\n# Handlers\n\nHow handlers answer.\n\n## Errors\n\n- Map errors once.\n"
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := owner.Publish(ctx); err != nil {
		t.Fatal(err)
	}
	for name, h := range map[string]interface {
		RulesInScope(context.Context, []string) ([]string, error)
	}{"owner": owner, "remote": remote} {
		in, err := h.RulesInScope(ctx, []string{"api/v1/handler.go", "README.md"})
		if err != nil || len(in) != 1 {
			t.Fatalf("%s: got %q, %v; want the api rule", name, in, err)
		}
		out, err := h.RulesInScope(ctx, []string{"web/app.ts"})
		if err != nil || out == nil || len(out) != 0 {
			t.Errorf("%s: a file no rule's paths match: got %q, %v; want an empty list", name, out, err)
		}
		if all, _ := h.RulesInScope(ctx, []string{"api/x.go", "api/y.go"}); !slices.Equal(all, in) {
			t.Errorf("%s: got %q for two files in scope, want the rule once (%q)", name, all, in)
		}
	}
}
