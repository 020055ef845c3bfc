package main_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestServe_WorkflowsArePrompts checks over stdio that the starter
// workflow is a prompt, that getting it in a set-up session is recorded
// as a load of it (tool prompts/get), and that a workflow saved while
// serve runs becomes a prompt the client hears of.
func TestServe_WorkflowsArePrompts(t *testing.T) {
	dir := newWorkspace(t)
	_, cl := serve(t, dir)
	setup(t, cl, "prompts-1")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	names, err := cl.Prompts(ctx)
	if err != nil || !slices.Equal(names, []string{"CODING"}) {
		t.Fatalf("prompts/list: %v, %v; want the starter workflow CODING", names, err)
	}
	text, err := cl.Prompt(ctx, "CODING")
	if err != nil || !strings.Contains(text, "ruleId: p-") {
		t.Fatalf("prompts/get CODING: %q, %v; want the workflow with its memref footer", text, err)
	}
	var loads []map[string]any
	for _, ev := range eventLines(t, dir, "--type", "attest.load") {
		if ev["tool"] == "prompts/get" && ev["sessionId"] == "prompts-1" {
			loads = append(loads, ev)
		}
	}
	if len(loads) != 1 {
		t.Fatalf("got %d loads by prompts/get in the ledger, want 1", len(loads))
	}

	before := cl.PromptsChanged()
	release := filepath.Join(dir, ".clumsies", "rules", "workflow", "RELEASE.md")
	if err := os.WriteFile(release, []byte("# Release\n\n## Tag\n\nTag it.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The watch publishes the file within a moment: the list follows the
	// catalog, and the client hears of the change (a notification of the
	// first listing may still be on its way when before is read, so the
	// list is what shows the new workflow).
	waitFor(t, "the new workflow among the prompts", func() bool {
		names, err := cl.Prompts(ctx)
		return err == nil && slices.Equal(names, []string{"CODING", "RELEASE"})
	})
	waitFor(t, "the client told of the new workflow", func() bool { return cl.PromptsChanged() > before })
}
