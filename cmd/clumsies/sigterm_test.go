package main_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestServe_SIGTERMAnswersCallsInFlight sends 400 memref calls over real
// stdio and SIGTERM right behind them: serve answers every call it had read
// before it exits, and the ledger holds exactly the calls answered ok (a
// call stored without its answer would be counted again when the agent
// retries it).
func TestServe_SIGTERMAnswersCallsInFlight(t *testing.T) {
	dir := newWorkspace(t)
	mustRun(t, dir, "publish")
	cmd := exec.Command(binary, "serve", "--workspace", dir)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	lines := bufio.NewReader(stdout)
	send := func(s string) {
		if _, err := io.WriteString(stdin, s+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	answer := func() map[string]any {
		line, err := lines.ReadString('\n')
		if err != nil {
			t.Fatalf("read an answer: %v", err)
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("answer %q: %v", line, err)
		}
		return m
	}
	send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	answer()
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":"setup","method":"tools/call","params":{"name":"memsetup","arguments":{"session_id":"sigterm","knownHashes":{"META_PROMPT.md":""}}}}`)
	answer()
	send(`{"jsonrpc":"2.0","id":"disc","method":"tools/call","params":{"name":"memdisc","arguments":{"kind":"workflow"}}}`)
	disc := answer()
	wf := disc["result"].(map[string]any)["structuredContent"].(map[string]any)["items"].([]any)[0].(map[string]any)["id"].(string)

	var batch strings.Builder
	const calls = 400
	for i := range calls {
		fmt.Fprintf(&batch, `{"jsonrpc":"2.0","id":"ref-%d","method":"tools/call","params":{"name":"memref","arguments":{"refs":[{"ruleId":%q,"constraintId":"Steps/1","reason":"r-%d"}]}}}`+"\n", i, wf, i)
	}
	if _, err := io.WriteString(stdin, batch.String()); err != nil {
		t.Fatal(err)
	}
	time.Sleep(5 * time.Millisecond) // some read, most not yet answered
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	okAnswers := map[string]bool{}
	for {
		line, err := lines.ReadString('\n')
		if err != nil {
			break
		}
		var m struct {
			ID     string `json:"id"`
			Result struct {
				IsError bool `json:"isError"`
			} `json:"result"`
		}
		if json.Unmarshal([]byte(line), &m) == nil && strings.HasPrefix(m.ID, "ref-") && !m.Result.IsError {
			okAnswers["r-"+strings.TrimPrefix(m.ID, "ref-")] = true
		}
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve exited with %v after SIGTERM", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not exit 30 s after SIGTERM")
	}
	stored := refReasons(t, dir)
	for r := range stored {
		if !okAnswers[r] {
			t.Errorf("call %s is stored but was not answered", r)
		}
	}
	for r := range okAnswers {
		if stored[r] != 1 {
			t.Errorf("call %s was answered ok but is stored %d times", r, stored[r])
		}
	}
	t.Logf("%d of %d calls answered ok and stored before the exit", len(okAnswers), calls)
}
