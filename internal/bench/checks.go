package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/rulecheck"
)

// checkPatterns are the 50 pattern checks of the bench's rule: literal
// words and regular expressions with classes and alternations, as teams
// write them.
func checkPatterns() []string {
	var out []string
	for i := range 25 {
		out = append(out, fmt.Sprintf("StatusInternalServerError%d", i))
		out = append(out, fmt.Sprintf(`(?i)fmt\.Print(ln|f)?\(.*secret%d\b`, i))
	}
	return out
}

// benchChecks times the post-tool hook with 50 pattern checks in scope of
// a 2,000-line change, beside the same hook on the same change of a file
// whose rule declares no checks, with `serve` owning the workspace, in one
// run. Then, in process, the cost per byte of two patterns that
// backtracking engines take exponential time on, on 1 KiB and on 64 KiB
// of adversarial text: RE2's is linear, so the two are about the same.
func benchChecks(ctx context.Context, b *bench) error {
	setup, err := newHookSetup(ctx, b, "checks")
	if err != nil {
		return err
	}
	runs, ws := setup.runs*2, setup.ws
	var fm strings.Builder
	fm.WriteString("---\npaths: [\"api/**\"]\nchecks:\n")
	for _, p := range checkPatterns() {
		fmt.Fprintf(&fm, "  - constraint: \"Errors/1\"\n    forbid: '%s'\n    message: \"no\"\n", p)
	}
	fm.WriteString("---\n# Handlers\n\n## Errors\n\n- Map errors once.\n")
	rules := map[string]string{
		"api/HANDLERS.md": fm.String(),
		"web/UI.md":       "---\npaths: [\"web/**\"]\n---\n# UI\n\n## Do\n\n- Keep components small.\n",
	}
	for name, body := range rules {
		p := filepath.Join(ws.ContentRoot(), "rules", filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			return err
		}
	}
	owner, err := blockingOwner(ctx, b.bin, ws)
	if err != nil {
		return err
	}
	defer owner.stop()
	in := func(event, file string) []byte {
		raw, _ := json.Marshal(map[string]any{"session_id": "bench-session", "cwd": ws.Root, "hook_event_name": event,
			"tool_name": "Write", "tool_input": map[string]any{"file_path": file, "content": "x"}})
		return raw
	}
	hook := func(ev string) []string { return []string{b.bin, "hook", ev, "--host", "claude-code"} }
	if _, err := timedRuns(ws.Root, in("UserPromptSubmit", ""), 1, nil, hook("user-prompt")...); err != nil { // the tree's baseline
		return err
	}
	change := func(file string, finding bool) func() error { // a 2,000-line change, made before each run
		n := 0
		return func() error {
			n++
			var body strings.Builder
			body.WriteString("package x\n\n")
			for i := range 2000 {
				fmt.Fprintf(&body, "\tv%d := compute(%d, \"edit %d\") // keeps the handler small\n", i, i, n)
			}
			if finding {
				fmt.Fprintf(&body, "\tw.WriteHeader(http.StatusInternalServerError7) // edit %d\n", n)
			}
			if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
				return err
			}
			return os.WriteFile(file, []byte(body.String()), 0o644)
		}
	}
	checked, found, plain := filepath.Join(ws.Root, "api", "h.go"), filepath.Join(ws.Root, "api", "f.go"), filepath.Join(ws.Root, "web", "h.go")
	cases := []struct {
		name   string
		stdin  []byte
		before func() error
	}{
		{"post-tool, 2,000-line change, rule in scope without checks", in("PostToolUse", plain), change(plain, false)},
		{"post-tool, 2,000-line change, 50 pattern checks in scope, no finding", in("PostToolUse", checked), change(checked, false)},
		{"post-tool, 2,000-line change, 50 pattern checks in scope, one finding (told, attest.check appended)", in("PostToolUse", found), change(found, true)},
	}
	b.printf("## The rules' checks after a tool (issue: rules that check the work)\n\n"+
		"`clumsies hook post-tool --host claude-code` after a Write that changed 2,000 lines, spawn to exit, `serve` owning the "+
		"workspace, `[enforce] mode = \"block\"`, %d runs each, the cases taking turns run by run: one file in scope of a rule without checks, "+
		"one in scope of a rule with 50 pattern checks (25 literal words, 25 expressions with classes and alternations).\n\n", runs)
	b.printf("| command | p50 ms | p99 ms |\n|---|---|---|\n")
	// The cases take turns, run by run, so that a machine whose load
	// changes during the bench weighs on each alike.
	ds := make([][]time.Duration, len(cases))
	for range runs {
		for i, c := range cases {
			d, err := timedRuns(ws.Root, c.stdin, 1, c.before, hook("post-tool")...)
			if err != nil {
				return fmt.Errorf("%s: %w", c.name, err)
			}
			ds[i] = append(ds[i], d...)
		}
	}
	var p50s []time.Duration
	for i, c := range cases {
		p50s = append(p50s, percentile(ds[i], 50))
		b.printf("| %s | %.1f | %.1f |\n", c.name, ms(p50s[i]), ms(percentile(ds[i], 99)))
	}
	added := p50s[1] - p50s[0]
	b.printf("\nAdded by the checks at p50, no finding: %.1f ms (%.2fx the hook without checks), target under 5 ms: %s; "+
		"with a finding (the event's durable append included): %.1f ms (%.2fx).\n\n", ms(added),
		float64(p50s[1])/float64(p50s[0]), map[bool]string{true: "meets target", false: "misses target"}[added < 5*time.Millisecond],
		ms(p50s[2]-p50s[0]), float64(p50s[2])/float64(p50s[0]))
	return benchCheckLinear(b)
}

// benchCheckLinear measures the matching cost per byte of adversarial
// patterns on a short and a long text.
func benchCheckLinear(b *bench) error {
	rule := rulecheck.Rule{ID: "p", Paths: []string{"**"}, Checks: []content.Check{
		{Constraint: "C", Forbid: `^(a+)+$b`}, {Constraint: "C", Forbid: `(x|x|x)*y`}, {Constraint: "C", Require: `(a|aa)*c`}}}
	set, err := rulecheck.Compile([]rulecheck.Rule{rule})
	if err != nil {
		return err
	}
	perByte := func(n int) float64 {
		text := strings.Repeat("a", n) + "\n" + strings.Repeat("x", n) + "\n"
		added := rulecheck.Added("", text)
		best := time.Duration(1 << 62)
		for range 5 {
			start := time.Now()
			set.File("a", added)
			best = min(best, time.Since(start))
		}
		return float64(best) / float64(2*n)
	}
	short, long := perByte(1<<10), perByte(1<<16)
	b.printf("Patterns a backtracking engine takes exponential time on (`^(a+)+$b`, `(x|x|x)*y`, `(a|aa)*c`), matched in process "+
		"on added lines of `a`s and `x`s: %.1f ns per byte on 1 KiB, %.1f ns per byte on 64 KiB (%.2fx): linear.\n\n",
		short, long, long/short)
	return nil
}
