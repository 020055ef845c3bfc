package node_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/mcp"
	"github.com/clumsies/clumsies/node"
	"github.com/clumsies/clumsies/projections"
)

// What counts as loaded, end to end: an agent's memload through a real
// MCP client, and the gate the owner answers, to itself and through the
// socket. A known hash that sent nothing does not count; another
// session's draft is not served, and the load of the rule in force
// counts for both sessions; a new version with other constraints asks
// for a new load.
func TestGate_CountsWhatTheSessionReceived(t *testing.T) {
	ws, owner, remote := ownerAndRemote(t)
	ctx := context.Background()
	p := filepath.Join(ws.ContentRoot(), "rules", "api", "HANDLERS.md")
	write := func(body string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := owner.Publish(ctx); err != nil {
			t.Fatal(err)
		}
	}
	const v1 = "---\npaths: [\"api/**/*.go\"]\n---\n# Handlers\n\nHow handlers answer.\n\n## Errors\n\n- Map errors once.\n"
	write(v1)
	items, err := remote.List(ctx, projections.Filter{Query: "HANDLERS"})
	if err != nil || len(items) != 1 || items[0].Path != "api/HANDLERS.md" {
		t.Fatalf("list: %v, %v; want the api rule", items, err)
	}
	id := items[0].ID

	srv := mcp.NewServer(mcp.Config{WorkspaceID: ws.ID(), Catalog: remote, Ledger: remote, Version: "test"})
	session := func(name string) *mcp.Client {
		t.Helper()
		c, err := mcp.Connect(ctx, srv)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = c.Close() })
		call(t, c, "memsetup", map[string]any{"session_id": name, "knownHashes": map[string]any{content.MetaPromptPath: ""}})
		return c
	}
	load := func(c *mcp.Client, known string) map[string]any {
		t.Helper()
		res := call(t, c, "memload", map[string]any{"ids": []string{id}, "knownHashes": map[string]any{id: known}})
		return res["items"].([]any)[0].(map[string]any)
	}
	missing := func(session string) []string {
		t.Helper()
		var got []string
		for name, h := range map[string]*node.Handle{"owner": owner, "remote": remote} {
			g, err := h.Gate(ctx, node.GateQuery{Session: session, Paths: []string{"api/v1/users.go"}})
			if err != nil {
				t.Fatalf("gate (%s): %v", name, err)
			}
			var ids []string
			for _, m := range g.Missing {
				ids = append(ids, m.Item.ID)
			}
			if got != nil && !slices.Equal(ids, got) {
				t.Fatalf("gate of %s: the owner and the remote disagree: %q and %q", session, got, ids)
			}
			got = ids
			if got == nil {
				got = []string{}
			}
		}
		return got
	}
	want := []string{id}
	other, author := session("other"), session("author")
	if got := missing("other"); !slices.Equal(got, want) {
		t.Fatalf("before any load: missing %q, want %q", got, want)
	}

	// A known hash the session never received: nothing is sent, and the
	// gate still asks.
	if it := load(other, content.Hash([]byte(v1))); it["changed"] != false {
		t.Fatalf("memload of a known hash: got %v, want no content", it)
	}
	if got := missing("other"); !slices.Equal(got, want) {
		t.Errorf("after a memload that sent nothing: missing %q, want %q", got, want)
	}

	// The author stages a draft; every session is served the rule in
	// force, and that load counts.
	call(t, author, "artifact", map[string]any{"resource": "rule", "op": map[string]any{"update": map[string]any{"id": id,
		"body": "---\npaths: [\"api/**/*.go\"]\n---\n# Handlers\n\n## Errors\n\n- Panic.\n"}}})
	for name, c := range map[string]*mcp.Client{"other": other, "author": author} {
		if it := load(c, ""); it["hash"] != content.Hash([]byte(v1)) || it["hasDraft"] != false {
			t.Errorf("%s: memload with a draft open: got %v, want the published rule", name, it)
		}
		if got := missing(name); len(got) != 0 {
			t.Errorf("%s: after loading the rule in force: missing %q, want none", name, got)
		}
	}

	// A version with the same constraints still counts; one with other
	// constraints does not, until it is loaded.
	write("---\npaths: [\"api/**/*.go\"]\n---\n# API handlers\n\nHow handlers answer.\n\n## Errors\n\n- Map errors once.\n")
	if got := missing("other"); len(got) != 0 {
		t.Errorf("after a new title: missing %q, want none", got)
	}
	write("---\npaths: [\"api/**/*.go\"]\n---\n# API handlers\n\n## Errors\n\n- Map errors once, in errors.go.\n")
	if got := missing("other"); !slices.Equal(got, want) {
		t.Errorf("after a new constraint: missing %q, want %q", got, want)
	}
	load(other, "")
	if got := missing("other"); len(got) != 0 {
		t.Errorf("after loading the new version: missing %q, want none", got)
	}
}

// call calls a tool that must succeed.
func call(tb testing.TB, c *mcp.Client, tool string, args any) map[string]any {
	tb.Helper()
	res, isErr, err := c.Call(context.Background(), tool, args)
	if err != nil || isErr {
		tb.Fatalf("%s: %v, %v", tool, res, err)
	}
	return res
}
