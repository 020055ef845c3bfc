package hooks_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/agent/adapt"
	"github.com/clumsies/clumsies/agent/hooks"
	"github.com/clumsies/clumsies/node"
	"github.com/clumsies/clumsies/workspace"
)

// claudeInput is Claude Code's input for hook ev, as adapt's tests keep
// it (all in one session, sessionID).
func claudeInput(tb testing.TB, ev adapt.Event) []byte {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join("..", "adapt", "testdata", "claude-code", string(ev)+".json"))
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// sessionID is the session of the inputs of claudeInput.
const sessionID = "8a1f3c2e-5b7d-4e21-9c0a-2f6b1d3e4a5c"

// handle runs hook ev of Claude Code in the workspace at dir, each run
// opening the workspace as the binary's hook does.
func handle(tb testing.TB, dir string, ev adapt.Event) hooks.Outcome {
	tb.Helper()
	h, err := adapt.Lookup("claude-code")
	if err != nil {
		tb.Fatal(err)
	}
	out, err := hooks.Handle(context.Background(), hooks.Request{Host: h, Event: ev, Dir: dir, Input: claudeInput(tb, ev)})
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
	const id = sessionID
	if out := handle(t, ws.Root, adapt.SessionStart); !strings.Contains(out.Answer.Context, id) {
		t.Fatalf("session start's context %q does not name the session", out.Answer.Context)
	}
	if out := handle(t, ws.Root, adapt.Stop); out.Answer.Block {
		t.Fatal("a stop with no prompt yet was held")
	}
	handle(t, ws.Root, adapt.UserPrompt)
	for i := range hooks.StopBlockLimit {
		out := handle(t, ws.Root, adapt.Stop)
		if !out.Answer.Block || !strings.Contains(out.Answer.Reason, id) || out.Note != "" {
			t.Fatalf("stop %d: got %+v, want a hold whose reason names %s", i+1, out, id)
		}
	}
	out := handle(t, ws.Root, adapt.Stop)
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
