package hooks_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/adapt"
	"github.com/clumsies/clumsies/hooks"
	"github.com/clumsies/clumsies/node"
	"github.com/clumsies/clumsies/workspace"
)

// claudeInput is Claude Code's hook input for ev in session id, working in dir.
func claudeInput(tb testing.TB, ev adapt.Event, id, dir string) []byte {
	tb.Helper()
	in := map[string]any{"session_id": id, "cwd": dir}
	switch ev {
	case adapt.SessionStart:
		in["hook_event_name"], in["source"] = "SessionStart", "startup"
	case adapt.UserPrompt:
		in["hook_event_name"], in["prompt"] = "UserPromptSubmit", "Add a retry to the payment client"
	case adapt.Stop:
		in["hook_event_name"], in["stop_hook_active"] = "Stop", false
	}
	b, err := json.Marshal(in)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// handle runs hook ev of Claude Code in the workspace at dir, each run
// opening the workspace as the binary's hook does.
func handle(tb testing.TB, dir string, ev adapt.Event, id string) hooks.Outcome {
	tb.Helper()
	h, err := adapt.Lookup("claude-code")
	if err != nil {
		tb.Fatal(err)
	}
	out, err := hooks.Handle(context.Background(), hooks.Request{Host: h, Event: ev, Dir: dir, Input: claudeInput(tb, ev, id, dir)})
	if err != nil {
		tb.Fatalf("hook %s: %v", ev, err)
	}
	return out
}

// The stop hook holds an agent whose last prompt has no report, names
// the session in its reason, records each hold, and lets the agent go
// with a note for the user after StopBlockLimit holds in a row.
func TestHandle_StopDecision(t *testing.T) {
	ws, _, err := workspace.Init(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	const id = "sess-stop-1"
	if out := handle(t, ws.Root, adapt.SessionStart, id); !strings.Contains(out.Answer.Context, id) {
		t.Fatalf("session start's context %q does not name the session", out.Answer.Context)
	}
	if out := handle(t, ws.Root, adapt.Stop, id); out.Answer.Block {
		t.Fatal("a stop with no prompt yet was held")
	}
	handle(t, ws.Root, adapt.UserPrompt, id)
	for i := range hooks.StopBlockLimit {
		out := handle(t, ws.Root, adapt.Stop, id)
		if !out.Answer.Block || !strings.Contains(out.Answer.Reason, id) || out.Note != "" {
			t.Fatalf("stop %d: got %+v, want a hold whose reason names %s", i+1, out, id)
		}
	}
	out := handle(t, ws.Root, adapt.Stop, id)
	if out.Answer.Block || !strings.Contains(out.Note, "after 2 blocked stops") {
		t.Fatalf("stop after the limit: got %+v, want the agent let go with a note", out)
	}
	hd, err := node.Attach(context.Background(), ws, node.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer hd.Close()
	facts, err := hd.SessionCompliance(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if facts.StopsBlocked != hooks.StopBlockLimit || !facts.Pending {
		t.Fatalf("the ledger holds %d blocked stops (pending %v), want %d, pending", facts.StopsBlocked, facts.Pending, hooks.StopBlockLimit)
	}
}
