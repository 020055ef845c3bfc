package mcp

import (
	"strings"
	"testing"

	"github.com/clumsies/clumsies/events"
)

// TestLimits: every oversized input is refused with invalid_params before
// the ledger, and the call still leaves exactly one event, which fits.
func TestLimits(t *testing.T) {
	e := newEnv(t, envOptions{})
	wf, _, _ := e.seed()
	c := e.connect()
	setup(t, c, "limits")
	ref := func(reason string) map[string]any {
		return map[string]any{"ruleId": wf, "constraintId": "Steps/1", "reason": reason}
	}
	many := func(n int, reason string) []any {
		refs := make([]any, n)
		for i := range refs {
			refs[i] = ref(reason)
		}
		return refs
	}
	for _, tc := range []struct {
		name  string
		tool  string
		args  map[string]any
		field string
		says  string
	}{
		{"TenThousandRefs", "memref", map[string]any{"refs": many(10000, "")}, "refs", "the limit is 256"},
		{"ManyIDs", "memload", map[string]any{"ids": strings.Split(strings.Repeat("p-x,", MaxItems+1), ",")[:MaxItems+1], "knownHashes": map[string]any{}}, "ids", "the limit is 256"},
		{"HugeArguments", "agentreport", map[string]any{"summary": strings.Repeat("x", MaxArgs)}, "", "the limit is 2097152 bytes"},
		// 30 reasons of 64 KiB of '<' fit the arguments (2 MiB) but, each
		// '<' stored as \u003c, not the ledger.
		{"EventTooLarge", "memref", map[string]any{"refs": many(30, strings.Repeat("<", maxText))}, "", "the ledger takes at most"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := len(e.toolEvents())
			res := mustFail(t, c, tc.tool, tc.args, events.CodeInvalidParams)
			if msg, _ := res["error"].(string); !strings.Contains(msg, tc.says) {
				t.Fatalf("got message %q, want one saying %q", msg, tc.says)
			}
			if f, _ := res["field"].(string); f != tc.field {
				t.Fatalf("got field %q, want %q", f, tc.field)
			}
			evs := e.toolEvents()
			if len(evs) != before+1 {
				t.Fatalf("got %d new events, want 1", len(evs)-before)
			}
			last := evs[len(evs)-1]
			b, err := events.Encode(last)
			if err != nil || len(b) > events.MaxEventSize || last.Outcome != events.OutcomeError || last.ErrorCode != string(events.CodeInvalidParams) {
				t.Fatalf("event: %d bytes (%v), outcome %s %s; want an invalid_params failure that fits", len(b), err, last.Outcome, last.ErrorCode)
			}
		})
	}
	t.Run("LargestBodyOfEscapes", func(t *testing.T) {
		body := strings.Repeat("<", MaxBody)
		mustOK(t, c, "artifact", map[string]any{"resource": "context", "op": map[string]any{"create": map[string]any{"path": "lt", "body": body}}})
		evs := e.toolEvents()
		b, err := events.Encode(evs[len(evs)-1])
		if err != nil || len(b) > events.MaxEventSize {
			t.Fatalf("event of a %d-byte body of '<': %d bytes, %v; want it to fit %d", MaxBody, len(b), err, events.MaxEventSize)
		}
	})
}
