package mcp

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// promptClient connects a client that counts the prompt list changes it
// hears of.
func promptClient(tb testing.TB, e *env, heard *atomic.Int32) *mcp.ClientSession {
	tb.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := e.srv.mcp.Connect(ctx, st, nil)
	if err != nil {
		tb.Fatal(err)
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "prompt-client", Version: "1"}, &mcp.ClientOptions{
		PromptListChangedHandler: func(context.Context, *mcp.PromptListChangedRequest) { heard.Add(1) },
	})
	cs, err := c.Connect(ctx, ct, nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = cs.Close(); _ = ss.Close() })
	return cs
}

// TestPrompts_ListChanged checks that the prompts follow the catalog: a
// connection that listed prompts hears of each workflow published (and
// then lists it), one that never asked for prompts hears nothing.
func TestPrompts_ListChanged(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.publish("rules/workflow/CODING.md", "# Coding\n\n## Steps\n\n1. Test first.\n")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go e.srv.WatchPrompts(ctx, 20*time.Millisecond)

	var asked, never atomic.Int32
	user := promptClient(t, e, &asked)
	old := promptClient(t, e, &never)
	if res, err := user.ListPrompts(ctx, nil); err != nil || len(res.Prompts) != 1 {
		t.Fatalf("prompts/list: %v, %v; want the one workflow", res, err)
	}
	heard := func(what string, n int32) {
		t.Helper()
		for deadline := time.Now().Add(30 * time.Second); asked.Load() < n; time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%s: the client that listed prompts heard of %d changes, want %d", what, asked.Load(), n)
			}
		}
	}
	e.publish("rules/workflow/RELEASE.md", "# Release\n\n## Tag\n\nTag it.\n")
	heard("a workflow published", 1)
	if res, err := user.ListPrompts(ctx, nil); err != nil || len(res.Prompts) != 2 {
		t.Fatalf("prompts/list after the publish: %v, %v; want both workflows", res, err)
	}
	e.publish("rules/workflow/DEPLOY.md", "# Deploy\n\n## Ship\n\nShip it.\n")
	heard("another workflow published", 2)
	if err := old.Ping(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if n := never.Load(); n != 0 {
		t.Fatalf("the client that never asked for prompts heard of %d prompt changes, want none", n)
	}
}
