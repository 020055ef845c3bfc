package main_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/content"
)

// scopedRule is a rule whose front matter gives it paths and a check.
const scopedRule = "---\npaths:\n  - \"api/**/*.go\"\nchecks:\n  - constraint: No panics\n    forbid: \"panic\\\\(\"\n---\n# API\n\n## No panics\n\nReturn errors.\n"

// TestDrafts_UpdateFromMemloadKeepsTheScope: memload serves a scoped
// rule without its front matter, with paths and checks as fields; an
// update whose body is memload's content, edited, keeps the rule's front
// matter in the draft and in the file drafts apply writes, so the rule
// keeps its scope; a body with a front matter of its own replaces it.
func TestDrafts_UpdateFromMemloadKeepsTheScope(t *testing.T) {
	dir := newWorkspace(t)
	p := filepath.Join(dir, ".clumsies", "rules", "go", "API.md")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(scopedRule), 0o644); err != nil {
		t.Fatal(err)
	}
	mustRun(t, dir, "publish")
	_, cl := serve(t, dir)
	setup(t, cl, "agent-1")
	id := itemsByPath(t, cl)["go/API.md"]["id"].(string)

	res := call(t, cl, "memload", map[string]any{"ids": []string{id}, "knownHashes": map[string]any{id: ""}})
	it := res["items"].([]any)[0].(map[string]any)
	served, _ := it["content"].(string)
	if strings.Contains(served, "paths:") || strings.HasPrefix(served, "---") || !strings.Contains(served, "Return errors.") {
		t.Fatalf("memload content %q: want the body without its front matter", served)
	}
	if it["hash"] != content.Hash([]byte(scopedRule)) {
		t.Fatalf("memload hash %v: want the published file's", it["hash"])
	}
	if paths, _ := it["paths"].([]any); len(paths) != 1 || paths[0] != "api/**/*.go" {
		t.Fatalf("memload paths %v: want [api/**/*.go]", it["paths"])
	}
	if checks, _ := it["checks"].([]any); len(checks) != 1 || checks[0].(map[string]any)["constraint"] != "No panics" {
		t.Fatalf("memload checks %v: want the one check", it["checks"])
	}

	edited := strings.Replace(served, "Return errors.", "Return errors, wrapped.", 1)
	artifact(t, cl, "rule", "update", map[string]any{"id": id, "body": edited})
	want := strings.Replace(scopedRule, "Return errors.", "Return errors, wrapped.", 1)
	if got := shownBody(t, dir, id); got != want {
		t.Fatalf("draft body %q: want %q, the front matter kept", got, want)
	}
	mustRun(t, dir, "drafts", "apply", id)
	if b, err := os.ReadFile(p); err != nil || string(b) != want {
		t.Fatalf("applied file %q (%v): want %q", b, err, want)
	}
	waitUntil(t, "serve to publish the applied rule", func() bool {
		got := itemsByPath(t, cl)["go/API.md"]
		paths, _ := got["paths"].([]any)
		return got["hash"] == content.Hash([]byte(want)) && slices.Equal(paths, []any{"api/**/*.go"})
	})

	// A front matter in the body replaces the published one.
	own := "---\npaths: [\"web/**\"]\n---\n# API\n\n## No panics\n\nReturn errors.\n"
	artifact(t, cl, "rule", "update", map[string]any{"id": id, "body": own})
	if got := shownBody(t, dir, id); got != own {
		t.Fatalf("draft body %q: want the body's own front matter, %q", got, own)
	}
}

// shownBody is the body drafts show gives of id's draft.
func shownBody(tb testing.TB, dir, id string) string {
	tb.Helper()
	var shown struct{ Draft draftJSON }
	if err := json.Unmarshal([]byte(mustRun(tb, dir, "drafts", "show", id, "--json")), &shown); err != nil {
		tb.Fatal(err)
	}
	return shown.Draft.Body
}
