package hooks_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/agent/adapt"
	"github.com/clumsies/clumsies/agent/hooks"
	"github.com/clumsies/clumsies/node"
	"github.com/clumsies/clumsies/workspace"
)

// A host's session id outside the one rule for an id is refused by every
// hook: the agent is not told to call memsetup with it, and nothing is
// recorded under it.
func TestHandle_RefusesBadSessionIDs(t *testing.T) {
	ws, _, err := workspace.Init(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	h, err := adapt.Lookup("claude-code")
	if err != nil {
		t.Fatal(err)
	}
	bad := []string{"<script>", "../../api/overview", strings.Repeat("a", 300), "a b"}
	for _, id := range bad {
		for _, ev := range []adapt.Event{adapt.SessionStart, adapt.UserPrompt, adapt.Stop} {
			raw := claudeInput(t, ev)
			var in map[string]any
			if err := json.Unmarshal(raw, &in); err != nil {
				t.Fatal(err)
			}
			in["session_id"], in["cwd"] = id, ws.Root
			raw, _ = json.Marshal(in)
			out, err := hooks.Handle(context.Background(), hooks.Request{Host: h, Event: ev, Dir: ws.Root, Input: raw})
			if err == nil || !strings.Contains(err.Error(), "not a session id") {
				t.Errorf("%s with session id %.20q: got error %v, want it refused as not a session id", ev, id, err)
			}
			if out.Answer.Context != "" || out.Answer.Block {
				t.Errorf("%s with session id %.20q: answered %+v, want the neutral answer", ev, id, out.Answer)
			}
		}
	}
	hd, err := node.Attach(context.Background(), ws, node.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer hd.Close()
	st, err := hd.Stats(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range st.Sessions {
		t.Errorf("session %.20q was recorded", s.ID)
	}
}
