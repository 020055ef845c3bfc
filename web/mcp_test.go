package web_test

import (
	"slices"
	"testing"

	"github.com/clumsies/clumsies/events"
)

// TestHandler_MCP drives the MCP server through web over Streamable HTTP
// with two raw JSON-RPC clients: every MCP session binds its own agent
// session.
func TestHandler_MCP(t *testing.T) {
	b := newBackend(t)
	ts := b.serve(t, "")
	a, c := connect(t, ts.URL+"/mcp", ""), connect(t, ts.URL+"/mcp", "")
	if a.session == c.session {
		t.Fatalf("got one Mcp-Session-Id %q for two clients, want two", a.session)
	}

	var list struct {
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	a.call("tools/list", map[string]any{}, &list)
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	want := []string{"agentrejected", "agentreport", "artifact", "memdisc", "memload", "memref", "memsetup"}
	if !slices.Equal(names, want) {
		t.Fatalf("tools/list: got %v, want %v", names, want)
	}

	if res, isErr := a.tool("memref", map[string]any{"refs": []any{map[string]any{"ruleId": ruleID, "constraintId": "Steps/1"}}}); !isErr || res["code"] != "session_required" {
		t.Fatalf("memref before memsetup: got isError=%v %v, want session_required", isErr, res)
	}
	a.mustTool("memsetup", setupArgs("http-a"))
	c.mustTool("memsetup", setupArgs("http-b"))

	load := a.mustTool("memload", map[string]any{"ids": []string{ruleID}, "knownHashes": map[string]any{ruleID: ""}})
	items, _ := load["items"].([]any)
	if len(items) != 1 {
		t.Fatalf("memload: got %v, want one item", load)
	}
	cs, _ := items[0].(map[string]any)["constraints"].([]any)
	if len(cs) != 2 {
		t.Fatalf("memload: got constraints %v, want Steps/1 and Steps/2", cs)
	}
	constraint, _ := cs[1].(map[string]any)["id"].(string)
	if constraint != "Steps/2" {
		t.Fatalf("memload: got second constraint %q, want Steps/2", constraint)
	}
	ref := map[string]any{"refs": []any{map[string]any{"ruleId": ruleID, "constraintId": constraint, "reason": "tested first"}}}
	if got := a.mustTool("memref", ref); got["ok"] != true || got["count"] != 1.0 {
		t.Fatalf("memref on a: got %v, want ok and count 1", got)
	}
	c.mustTool("memref", ref)

	res, isErr := a.tool("memsetup", setupArgs("http-other"))
	if !isErr || res["code"] != "session_conflict" {
		t.Fatalf("second memsetup on a with another id: got isError=%v %v, want session_conflict", isErr, res)
	}
	// The same id again is allowed.
	a.mustTool("memsetup", setupArgs("http-a"))

	var refers []events.Event
	for _, ev := range b.events(t) {
		if ev.Type == events.TypeRefer && ev.Outcome == events.OutcomeOK {
			refers = append(refers, ev)
		}
	}
	if len(refers) != 2 || refers[0].SessionID != "http-a" || refers[1].SessionID != "http-b" {
		var got []string
		for _, ev := range refers {
			got = append(got, ev.SessionID)
		}
		t.Fatalf("got refer events of sessions %v, want [http-a http-b]", got)
	}
	var conflict *events.Event
	for _, ev := range b.events(t) {
		if ev.ErrorCode == "session_conflict" {
			conflict = &ev
		}
	}
	if conflict == nil || conflict.Type != events.TypeSetup || conflict.Outcome != events.OutcomeError {
		t.Fatalf("got conflict event %+v, want a failed attest.setup", conflict)
	}
}
