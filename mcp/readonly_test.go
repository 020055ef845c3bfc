package mcp

import (
	"strings"
	"testing"

	"github.com/clumsies/clumsies/events"
)

// TestServer_ReadOnly checks a read-only server: every artifact op is
// refused with read_only (and recorded as a failed call), nothing is
// staged, the reads answer as on any server, and the instructions say so.
func TestServer_ReadOnly(t *testing.T) {
	e := newEnv(t, envOptions{readOnly: true})
	workflow, rule, ctxID := e.seed()
	c := e.connect()
	if got := c.Instructions(); !strings.Contains(got, "read-only") || !strings.Contains(got, "artifact answers read_only") {
		t.Fatalf("instructions of a read-only server: got %q, want them to say it is read-only", got)
	}
	l := &callLog{tb: t, c: c}
	l.ok("memsetup", map[string]any{"session_id": "ro-1", "knownHashes": map[string]any{"META_PROMPT.md": ""}})
	before := len(l.ok("memdisc", map[string]any{})["items"].([]any))
	ops := []map[string]any{
		{"resource": "context", "op": map[string]any{"create": map[string]any{"path": "team/NEW", "body": "x"}}},
		{"resource": "rule", "op": map[string]any{"update": map[string]any{"id": workflow, "body": "# W\n"}}},
		{"resource": "rule", "op": map[string]any{"rename": map[string]any{"id": rule, "new_path": "go/OTHER"}}},
		{"resource": "context", "op": map[string]any{"delete": map[string]any{"id": ctxID}}},
		{"resource": "rule", "op": map[string]any{"discard": map[string]any{"id": rule}}},
		{"resource": "mpf", "op": map[string]any{"update": map[string]any{"id": "META_PROMPT.md", "body": "x"}}},
		{"resource": "rule", "op": map[string]any{"bogus": map[string]any{}}},
	}
	for _, args := range ops {
		res := l.fail("artifact", args, events.CodeReadOnly)
		if res["retryable"] != false || !strings.Contains(res["error"].(string), "read-only") {
			t.Errorf("artifact %v: got %v, want a final read_only error saying why", args["op"], res)
		}
	}
	if drafts, err := e.catalog.Drafts(); err != nil || len(drafts) != 0 {
		t.Fatalf("drafts after refused artifact calls: got %d (%v), want 0", len(drafts), err)
	}
	if got := len(l.ok("memdisc", map[string]any{})["items"].([]any)); got != before {
		t.Fatalf("memdisc after refused artifact calls: got %d items, want %d", got, before)
	}
	load := l.ok("memload", map[string]any{"ids": []string{workflow}, "knownHashes": map[string]any{workflow: ""}})
	if it := load["items"].([]any)[0].(map[string]any); it["changed"] != true || it["hasDraft"] == true {
		t.Fatalf("memload on a read-only server: got %v", it)
	}
	l.ok("memref", map[string]any{"refs": []any{map[string]any{"ruleId": workflow, "constraintId": "Steps/1"}}})
	l.ok("agentreport", map[string]any{"summary": "read only"})
	l.checkLedger(e, "ro-1")
}
