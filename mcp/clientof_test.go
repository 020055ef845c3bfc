package mcp

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestClientOf_Protocols checks that every event names the client that
// made the call, whether the request's _meta names it (2026-07-28) or
// the session's initialize did (2025-06-18).
func TestClientOf_Protocols(t *testing.T) {
	for _, version := range []string{"", "2025-06-18"} {
		e := newEnv(t, envOptions{})
		cs := stdioClient(t, e, version)
		if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "memsetup", Arguments: map[string]any{"session_id": "who", "knownHashes": map[string]any{"META_PROMPT.md": ""}}}); err != nil {
			t.Fatal(err)
		}
		if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "memdisc", Arguments: map[string]any{}}); err != nil {
			t.Fatal(err)
		}
		evs := e.toolEvents()
		if len(evs) != 2 {
			t.Fatalf("protocol %q: %d tool events, want 2", version, len(evs))
		}
		for _, ev := range evs {
			if ev.Client != "stdio-"+version {
				t.Fatalf("protocol %q: %s recorded client %q, want %q", version, ev.Tool, ev.Client, "stdio-"+version)
			}
		}
	}
}

// TestClientOf_NoGarbage checks that naming the client of a call at
// protocol 2026-07-28 (its _meta as the SDK decoded it from the wire)
// allocates only the answer, not an encoding of the _meta.
func TestClientOf_NoGarbage(t *testing.T) {
	req := &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Meta: mcp.Meta{
		mcp.MetaKeyProtocolVersion: "2026-07-28",
		mcp.MetaKeyClientInfo:      map[string]any{"name": "host", "version": "1.2"},
	}}}
	var got *mcp.Implementation
	allocs := testing.AllocsPerRun(100, func() { got = clientOf(req) })
	if got == nil || got.Name != "host" || got.Version != "1.2" {
		t.Fatalf("clientOf = %+v, want host 1.2", got)
	}
	if allocs > 1 {
		t.Fatalf("clientOf made %.0f allocations, want at most 1", allocs)
	}
}
