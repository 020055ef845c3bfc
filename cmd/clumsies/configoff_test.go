package main_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/agent/adapt"
)

// TestConfigOff_TypoInOptionalTable checks that a mistake in an optional
// table of config.toml does not take the workspace down: serve answers
// initialize and its tools, [otel] off and the gate held, and says so on
// stderr and to the agent, stats and verify work and name them, doctor
// names the [enforce] one and fails, and the pre-tool hook holds an edit
// of config.toml, telling the agent and the user to fix it outside the
// agent.
func TestConfigOff_TypoInOptionalTable(t *testing.T) {
	dir := newWorkspace(t)
	file := filepath.Join(dir, ".clumsies", "config.toml")
	f, err := os.OpenFile(file, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("\n[enforce]\nmode = \"blok\"\n\n[otel]\nendpoint = \"localhost:4318\"\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	wantEnforce := `[enforce] in .clumsies/config.toml is wrong: enforce mode "blok"`
	wantOTel := `[otel] in config.toml is off: otel endpoint "localhost:4318"`

	cmd, cl, stderr := serveStderr(t, dir)
	if in := cl.Instructions(); !strings.Contains(in, wantEnforce) || !strings.Contains(in, wantOTel) || !strings.Contains(in, "Tell the user") {
		t.Fatalf("initialize instructions: got %q, want them to name both tables and ask to tell the user", in)
	}
	setup(t, cl, "config-off")
	cl.Close() // waits for serve to exit
	if !cmd.ProcessState.Success() {
		t.Fatalf("serve: %v; stderr: %s", cmd.ProcessState, stderr.String())
	}
	if s := stderr.String(); !strings.Contains(s, wantEnforce) || !strings.Contains(s, wantOTel) {
		t.Fatalf("serve's stderr: got %q, want both tables named", s)
	}

	var st struct {
		ConfigOff []string `json:"configOff"`
		Events    int      `json:"events"`
	}
	if err := json.Unmarshal([]byte(mustRun(t, dir, "stats", "--json")), &st); err != nil {
		t.Fatal(err)
	}
	if len(st.ConfigOff) != 2 || !strings.Contains(st.ConfigOff[0], wantEnforce) || !strings.Contains(st.ConfigOff[1], wantOTel) || st.Events == 0 {
		t.Fatalf("stats --json: got %+v, want both tables in configOff and the session's events", st)
	}
	if out := mustRun(t, dir, "stats"); !strings.Contains(out, "Settings: "+wantEnforce) {
		t.Fatalf("stats: got %q, want a line naming [enforce]", out)
	}
	mustRun(t, dir, "verify")
	r := run(t, dir, "doctor")
	if r.code != 1 || !strings.Contains(r.stdout, wantEnforce) || !strings.Contains(r.stderr, wantEnforce) {
		t.Fatalf("doctor: got exit %d, stdout %q, stderr %q; want exit 1 naming [enforce]", r.code, r.stdout, r.stderr)
	}
	r = runHook(t, dir, "claude-code", adapt.PreTool, toolInput(t, "claude-code", "0c6f1b2e-0d4a-4c1e-9b7a-3f2e1d0c9b8a", dir, "Write", file))
	var deny struct {
		Out struct{ PermissionDecision, PermissionDecisionReason string } `json:"hookSpecificOutput"`
	}
	_ = json.Unmarshal([]byte(r.stdout), &deny)
	if why := deny.Out.PermissionDecisionReason; r.code != 0 || deny.Out.PermissionDecision != "deny" || !strings.Contains(why, wantEnforce) ||
		!strings.Contains(why, "a person fixes that file outside the agent") || !strings.Contains(r.stderr, wantEnforce) {
		t.Fatalf("pre-tool of config.toml: got exit %d, stdout %q, stderr %q; want a deny naming [enforce] to agent and user", r.code, r.stdout, r.stderr)
	}
}
