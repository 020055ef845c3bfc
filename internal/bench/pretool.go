package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// benchPreTool times `clumsies hook pre-tool` (the gate, [enforce] mode =
// "block") from spawn to exit with `clumsies serve` owning the workspace,
// as Claude Code runs it before every edit: an edit of a file no rule
// applies to (one read of the owner, no append), and an edit of a file a
// rule the session has not loaded applies to (a read, then one durable
// attest.tool_gated append, and the deny). The baselines, in the same run:
// /bin/true and a bare Go binary that reads its stdin and exits.
func benchPreTool(ctx context.Context, b *bench) error {
	setup, err := newHookSetup(ctx, b, "pretool")
	if err != nil {
		return err
	}
	runs, events, bare, ws := setup.runs, setup.events, setup.bare, setup.ws
	rule := filepath.Join(ws.ContentRoot(), "rules", "api", "HANDLERS.md")
	if err := os.MkdirAll(filepath.Dir(rule), 0o755); err != nil {
		return err
	}
	body := "---\npaths:\n  - \"api/**/*.go\"\n---\n# Handlers\n\nHow handlers answer.\n\n## Errors\n\n- Map errors once.\n"
	if err := os.WriteFile(rule, []byte(body), 0o644); err != nil {
		return err
	}
	if err := appendConfig(ws, "\n[enforce]\nmode = \"block\"\n"); err != nil {
		return err
	}
	input := func(file string) ([]byte, error) {
		return json.Marshal(map[string]any{"session_id": "bench-session", "cwd": ws.Root, "hook_event_name": "PreToolUse",
			"tool_name": "Edit", "tool_input": map[string]any{"file_path": filepath.Join(ws.Root, file), "old_string": "a", "new_string": "b"}})
	}
	outside, err := input("README.md")
	if err != nil {
		return err
	}
	inScope, err := input("api/v1/handler.go")
	if err != nil {
		return err
	}
	owner, err := startOwner(ctx, b.bin, ws)
	if err != nil {
		return err
	}
	defer owner.stop()
	hook := []string{b.bin, "hook", "pre-tool", "--host", "claude-code"}
	cases := []struct {
		name  string
		stdin []byte
		argv  []string
	}{
		{"/bin/true", outside, []string{"/bin/true"}},
		{"bare Go binary reading stdin", outside, []string{bare}},
		{"clumsies hook pre-tool, edit out of scope (allowed)", outside, hook},
		{"clumsies hook pre-tool, edit in scope, rule not loaded (denied, one append)", inScope, hook},
	}
	b.printf("## Pre-tool gate, spawn to exit (issue 24: rules that know where they apply)\n\n`clumsies hook pre-tool --host claude-code` with Claude Code's PreToolUse input for an Edit on stdin, `[enforce] mode = \"block\"`, `serve` owning a workspace of %d events, %d runs each. The baselines ran in the same run.\n\n", events, runs)
	b.printf("| command | p50 ms | p90 ms | p50 / bare Go | target |\n|---|---|---|---|---|\n")
	times := make([][]time.Duration, len(cases))
	for i, c := range cases {
		if times[i], err = spawnTimes(ws.Root, c.stdin, runs, c.argv...); err != nil { // stderr: it failed open
			return fmt.Errorf("%s: %w", c.name, err)
		}
	}
	base := percentile(times[1], 50)
	for i, c := range cases {
		ds := times[i]
		p50 := percentile(ds, 50)
		target := ""
		if i >= 2 {
			target = "p50 < 15 ms: " + map[bool]string{true: "meets target", false: "misses target"}[p50 < 15*time.Millisecond]
		}
		b.printf("| %s | %.1f | %.1f | %.1f | %s |\n", c.name, ms(p50), ms(percentile(ds, 90)), float64(p50)/float64(base), target)
	}
	b.printf("\n")
	return nil
}
