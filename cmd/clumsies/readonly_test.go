package main_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestServe_ReadOnly drives `serve --read-only`, and serve on a workspace
// whose config.toml says read_only = true, over real stdio: every artifact
// op is refused with read_only, the reads answer, the instructions say
// so, and serve publishes nothing.
func TestServe_ReadOnly(t *testing.T) {
	for _, how := range []string{"flag", "config"} {
		t.Run(how, func(t *testing.T) {
			dir := newWorkspace(t)
			mustRun(t, dir, "publish")
			// A content change that a writable serve would publish on start.
			if err := os.WriteFile(filepath.Join(dir, ".clumsies", "rules", "NEW.md"), []byte("# New\n\nA rule.\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			var args []string
			if how == "flag" {
				args = append(args, "--read-only")
			} else {
				cfg := filepath.Join(dir, ".clumsies", "config.toml")
				b := mustRead(t, cfg)
				if !bytes.Contains(b, []byte("read_only = false")) {
					t.Fatalf("init's config.toml has no read_only setting:\n%s", b)
				}
				if err := os.WriteFile(cfg, bytes.Replace(b, []byte("read_only = false"), []byte("read_only = true"), 1), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			published := len(eventLines(t, dir))
			_, cl := serve(t, dir, args...)
			if got := cl.Instructions(); !strings.Contains(got, "read-only") {
				t.Fatalf("instructions: got %q, want them to say the server is read-only", got)
			}
			setup(t, cl, "ro-e2e")
			wf := workflowID(t, cl)
			items := call(t, cl, "memdisc", map[string]any{})["items"].([]any)
			if len(items) != 2 {
				t.Fatalf("memdisc: got %d items, want the 2 published before (serve must not publish NEW.md)", len(items))
			}
			call(t, cl, "memload", map[string]any{"ids": []string{wf}, "knownHashes": map[string]any{wf: ""}})
			call(t, cl, "memref", map[string]any{"refs": []any{map[string]any{"ruleId": wf, "constraintId": "Steps/1"}}})
			ops := []map[string]any{
				{"create": map[string]any{"path": "x", "body": "y"}},
				{"update": map[string]any{"id": wf, "body": "y"}},
				{"rename": map[string]any{"id": wf, "new_path": "workflow/OTHER"}},
				{"delete": map[string]any{"id": wf}},
				{"discard": map[string]any{"id": wf}},
			}
			for _, op := range ops {
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				res, isErr, err := cl.Call(ctx, "artifact", map[string]any{"resource": "rule", "op": op})
				cancel()
				if err != nil || !isErr || res["code"] != "read_only" {
					t.Fatalf("artifact %v: got %v (error %v), want read_only", op, res, err)
				}
			}
			cl.Close()
			evs := eventLines(t, dir)
			catalog := 0
			for _, ev := range evs {
				if strings.HasPrefix(ev["type"].(string), "catalog.") {
					catalog++
				}
			}
			if catalog != published {
				t.Fatalf("catalog events after a read-only serve: got %d, want the %d published before", catalog, published)
			}
			drafts := 0
			for _, ev := range eventLines(t, dir, "--type", "attest.draft") {
				if ev["outcome"] == "ok" {
					drafts++
				}
			}
			if drafts != 0 {
				t.Fatalf("got %d staged drafts, want none", drafts)
			}
		})
	}
}
