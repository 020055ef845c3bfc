package main_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/clumsies/clumsies/mcp"
)

// serve starts `clumsies serve` on dir and connects a real MCP client to
// it over the process's stdin and stdout.
func serve(tb testing.TB, dir string, args ...string) (*exec.Cmd, *mcp.Client) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.Command(binary, append([]string{"serve", "--workspace", dir}, args...)...)
	cl, err := mcp.ConnectCommand(ctx, cmd)
	if err != nil {
		tb.Fatalf("connect to clumsies serve: %v", err)
	}
	tb.Cleanup(func() {
		cl.Close()
		if cmd.Process != nil {
			cmd.Process.Kill()
		}
	})
	return cmd, cl
}

// call calls a tool and fails tb on a transport error or a tool error.
func call(tb testing.TB, cl *mcp.Client, tool string, args any) map[string]any {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, isErr, err := cl.Call(ctx, tool, args)
	if err != nil || isErr {
		tb.Fatalf("%s: got error %v / %v", tool, err, res)
	}
	return res
}

func setup(tb testing.TB, cl *mcp.Client, session string) {
	tb.Helper()
	setupWith(tb, cl, session, "")
}

// setupWith sets session up on cl presenting secret, the one its
// session-start hook handed ("" for none), and returns the answer.
func setupWith(tb testing.TB, cl *mcp.Client, session, secret string) map[string]any {
	tb.Helper()
	args := map[string]any{"session_id": session, "knownHashes": map[string]any{"META_PROMPT.md": ""}}
	if secret != "" {
		args["session_secret"] = secret
	}
	return call(tb, cl, "memsetup", args)
}

// workflowID finds the starter workflow's id through memdisc.
func workflowID(tb testing.TB, cl *mcp.Client) string {
	tb.Helper()
	res := call(tb, cl, "memdisc", map[string]any{"kind": "workflow"})
	items, _ := res["items"].([]any)
	if len(items) == 0 {
		tb.Fatalf("memdisc found no workflow: %v", res)
	}
	return items[0].(map[string]any)["id"].(string)
}

// TestServe_CrashSafety kills the server with SIGKILL in the middle of a
// burst of calls from four concurrent callers, restarts it, and checks that
// every acknowledged call's event is there exactly once and that the read
// models equal a fresh replay.
func TestServe_CrashSafety(t *testing.T) {
	dir := newWorkspace(t)
	cmd, cl := serve(t, dir)
	setup(t, cl, "crash-session")
	wf := workflowID(t, cl)

	var (
		mu    sync.Mutex
		acked = map[string]bool{}
		refs  int
	)
	const killAfter = 300
	killed := make(chan struct{})
	var once sync.Once
	kill := func() { once.Do(func() { cmd.Process.Kill(); close(killed) }) }

	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				var (
					isErr bool
					err   error
					key   string
				)
				if i%2 == 0 {
					key = fmt.Sprintf("burst-%d-%d", w, i)
					_, isErr, err = cl.Call(ctx, "agentreport", map[string]any{"summary": key})
				} else {
					_, isErr, err = cl.Call(ctx, "memref", map[string]any{"refs": []any{map[string]any{"ruleId": wf, "constraintId": "Steps/1"}}})
				}
				cancel()
				if err != nil {
					return // the server is gone
				}
				if isErr {
					t.Errorf("call %d of worker %d failed before the kill", i, w)
					return
				}
				mu.Lock()
				if key != "" {
					acked[key] = true
				} else {
					refs++
				}
				n := len(acked) + refs
				mu.Unlock()
				if n >= killAfter {
					kill()
				}
			}
		}()
	}
	select {
	case <-killed:
	case <-time.After(2 * time.Minute):
		t.Fatal("the burst did not reach the kill point")
	}
	wg.Wait()
	cl.Close() // also reaps the killed process

	// Restart: the server comes back and serves a new session.
	_, cl2 := serve(t, dir)
	setup(t, cl2, "after-crash")
	call(t, cl2, "agentreport", map[string]any{"summary": "after the crash"})
	cl2.Close()

	seen := map[string]int{}
	for _, ev := range eventLines(t, dir, "--type", "attest.agent_report") {
		var data struct{ Summary string }
		b, _ := json.Marshal(ev["data"])
		json.Unmarshal(b, &data)
		seen[data.Summary]++
	}
	for key := range acked {
		if seen[key] != 1 {
			t.Errorf("acknowledged call %s: stored %d times, want exactly once", key, seen[key])
		}
	}
	for key, n := range seen {
		if n > 1 {
			t.Errorf("event %s stored %d times", key, n)
		}
	}
	referEvents := 0
	for _, ev := range eventLines(t, dir, "--type", "attest.refer") {
		if ev["outcome"] == "ok" {
			referEvents++
		}
	}
	if referEvents < refs {
		t.Errorf("got %d refer events, want at least the %d acknowledged", referEvents, refs)
	}
	if seen["after the crash"] != 1 {
		t.Errorf("the restarted server did not record its session")
	}

	// The read models equal a fresh replay, and the usage counts match the ledger.
	if out := mustRun(t, dir, "verify"); !strings.Contains(out, "ok:") {
		t.Fatalf("verify after the crash: %s", out)
	}
	var st struct {
		Rules []struct {
			ID   string
			Refs int
		}
	}
	json.Unmarshal([]byte(mustRun(t, dir, "stats", "--json")), &st)
	for _, r := range st.Rules {
		if r.ID == wf && r.Refs != referEvents {
			t.Fatalf("usage of %s: got %d refs, want %d (one per stored refer event)", wf, r.Refs, referEvents)
		}
	}
	t.Logf("acknowledged %d reports and %d refs before SIGKILL; ledger holds %d reports and %d refers", len(acked), refs, len(seen)-1, referEvents)
}
