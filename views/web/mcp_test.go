package web_test

import (
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
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

// postMCP POSTs one JSON-RPC message to /mcp of ts with the headers a
// client sends, plus extra, and returns the status and the body.
func postMCP(tb testing.TB, url, body string, extra map[string]string) (int, string) {
	tb.Helper()
	req, err := http.NewRequest(http.MethodPost, url+"/mcp", strings.NewReader(body))
	if err != nil {
		tb.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range extra {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

const initializeBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

// TestHandler_MCPOrigin: a request with a foreign Origin (a web page of
// another site, driving the visitor's browser) is refused with 403, and
// its tool calls never run; no Origin, the server's own or a loopback one
// goes through.
func TestHandler_MCPOrigin(t *testing.T) {
	b := newBackend(t)
	ts := b.serve(t, "")
	for _, origin := range []string{"http://evil.example", "https://evil.example:443", "null", "http://127.0.0.1.evil.example"} {
		if code, body := postMCP(t, ts.URL, initializeBody, map[string]string{"Origin": origin}); code != http.StatusForbidden {
			t.Errorf("initialize with Origin %s: %d %.200s, want 403", origin, code, body)
		}
	}
	for _, origin := range []string{"", ts.URL, "http://localhost:3000", "http://[::1]:8080"} {
		extra := map[string]string{}
		if origin != "" {
			extra["Origin"] = origin
		}
		if code, body := postMCP(t, ts.URL, initializeBody, extra); code != http.StatusOK || !strings.Contains(body, `"clumsies"`) {
			t.Errorf("initialize with Origin %q: %d %.200s, want 200 from clumsies", origin, code, body)
		}
	}
}

// TestHandler_MCPBeforeInitialize: a request outside any session is
// answered with the JSON-RPC error Invalid Request (-32600), never with
// code 0, and records nothing.
func TestHandler_MCPBeforeInitialize(t *testing.T) {
	b := newBackend(t)
	ts := b.serve(t, "")
	before := len(b.events(t))
	for _, body := range []string{
		`{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{}}`,
		`{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"agentreport","arguments":{"summary":"not mine"}}}`,
	} {
		code, answer := postMCP(t, ts.URL, body, nil)
		var msg struct {
			ID    json.RawMessage `json:"id"`
			Error *struct {
				Code int `json:"code"`
			} `json:"error"`
		}
		if err := json.Unmarshal([]byte(answer), &msg); err != nil || code != http.StatusBadRequest || msg.Error == nil || msg.Error.Code != -32600 {
			t.Errorf("%s before initialize: %d %s, want 400 with error code -32600", body, code, answer)
		}
		var sent struct{ ID json.RawMessage }
		_ = json.Unmarshal([]byte(body), &sent)
		if string(msg.ID) != string(sent.ID) {
			t.Errorf("%s before initialize: answered id %s, want %s", body, msg.ID, sent.ID)
		}
	}
	if after := len(b.events(t)); after != before {
		t.Errorf("requests before initialize recorded %d events", after-before)
	}
	if code, body := postMCP(t, ts.URL, `{"jsonrpc":"2.0","id":2,"method":"ping"}`, nil); code != http.StatusOK || strings.Contains(body, `"error"`) {
		t.Errorf("ping outside a session: %d %s, want an answer", code, body)
	}
}
