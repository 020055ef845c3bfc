package main_test

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/agent/adapt"
)

// capturedID is the session id in each host's captured hook inputs.
var capturedID = map[string]string{
	"gemini-cli": "779f388a-b4e5-401b-911e-a99560533502",
	"copilot":    "8f38e517-8a94-492f-9e2c-ed509d6e5eb6",
}

// captured reads a hook input exactly as a real host sent it
// (agent/adapt/testdata/captured/<host>/<name>.json), moved to workspace dir and
// to session id.
func captured(tb testing.TB, host, name, dir, id string) []byte {
	tb.Helper()
	b := mustRead(tb, filepath.Join("..", "..", "agent", "adapt", "testdata", "captured", host, name+".json"))
	b = bytes.ReplaceAll(b, []byte("/home/dev/project"), []byte(dir))
	return bytes.ReplaceAll(b, []byte(capturedID[host]), []byte(id))
}

// blocked reports whether a stop hook's answer refuses the stop (Gemini
// CLI's deny, the others' block) with the request to report.
func blocked(tb testing.TB, r result) bool {
	tb.Helper()
	if r.code != 0 {
		tb.Fatalf("stop hook: exit %d, stderr %q", r.code, r.stderr)
	}
	var out struct{ Decision, Reason string }
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil && r.stdout != "" {
		tb.Fatalf("stop hook answered %q: %v", r.stdout, err)
	}
	return (out.Decision == "deny" || out.Decision == "block") && strings.Contains(out.Reason, "agentreport")
}

// echoHost is how a host that sends the stop reason back as a prompt
// names its captured inputs.
type echoHost struct {
	name                          string
	start, prompt, stop, reasonIn string
}

// TestHook_StopReasonSentBack plays the captured turns of the hosts that
// answer a refused stop by sending its reason back as a new prompt (Gemini
// CLI's BeforeAgent, Copilot CLI's userPromptSubmitted), against the built
// binary with an owner running: that prompt is not the user's, so the
// session has one prompt, and the stop hook's bound still lets an agent
// that never reports go after two blocks. Gemini's first prompt carries
// the session-start context in front of the user's; the ledger records
// the user's prompt alone.
func TestHook_StopReasonSentBack(t *testing.T) {
	dir := newWorkspace(t)
	hosts := []echoHost{
		{name: "gemini-cli", start: "01-SessionStart", prompt: "02-BeforeAgent", stop: "03-AfterAgent", reasonIn: "04-BeforeAgent"},
		{name: "copilot", start: "01-sessionStart", prompt: "03-userPromptSubmitted", stop: "05-agentStop", reasonIn: "07-userPromptSubmitted"},
	}
	for _, h := range hosts {
		t.Run(h.name, func(t *testing.T) {
			hook := func(ev adapt.Event, name, id string) result {
				return runHook(t, dir, h.name, ev, captured(t, h.name, name, dir, id))
			}
			t.Run("NeverReports", func(t *testing.T) {
				_, cl := serve(t, dir)
				id := h.name + "-never"
				r := hook(adapt.SessionStart, h.start, id)
				if r.code != 0 || !strings.Contains(r.stdout, id) {
					t.Fatalf("session-start hook: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
				}
				setupWith(t, cl, id, secretRE.FindString(r.stdout))
				hook(adapt.UserPrompt, h.prompt, id)
				for i := 1; i <= 2; i++ {
					if !blocked(t, hook(adapt.Stop, h.stop, id)) {
						t.Fatalf("stop %d was not blocked", i)
					}
					hook(adapt.UserPrompt, h.reasonIn, id) // the host sends the reason back
				}
				if blocked(t, hook(adapt.Stop, h.stop, id)) {
					t.Fatal("the third stop in a row was blocked; the reason sent back reset the bound")
				}
				c := complianceOf(t, dir, id, 5) // start, setup, prompt, 2 blocks
				if c["prompts"] != 1.0 || c["answered"] != 0.0 || c["stopsBlocked"] != 2.0 || c["host"] != h.name {
					t.Fatalf("compliance: got %v, want 1 prompt, unanswered, 2 stops blocked", c)
				}
				var counts []any
				for _, ev := range eventLines(t, dir, "--type", "attest.stop_blocked") {
					if ev["sessionId"] == id {
						counts = append(counts, ev["data"].(map[string]any)["blocks"])
					}
				}
				if len(counts) != 2 || counts[0] != 1.0 || counts[1] != 2.0 {
					t.Fatalf("stop_blocked blocks: got %v, want [1 2]", counts)
				}
			})
			t.Run("Reports", func(t *testing.T) {
				_, cl := serve(t, dir)
				id := h.name + "-reports"
				r := hook(adapt.SessionStart, h.start, id)
				setupWith(t, cl, id, secretRE.FindString(r.stdout))
				hook(adapt.UserPrompt, h.prompt, id)
				if !blocked(t, hook(adapt.Stop, h.stop, id)) {
					t.Fatal("stop with an unreported prompt was allowed")
				}
				hook(adapt.UserPrompt, h.reasonIn, id)
				call(t, cl, "agentreport", map[string]any{"summary": "said hi"})
				if blocked(t, hook(adapt.Stop, h.stop, id)) {
					t.Fatal("stop after the report was blocked")
				}
				c := complianceOf(t, dir, id, 5) // start, setup, prompt, block, report
				if c["compliant"] != true || c["prompts"] != 1.0 || c["answered"] != 1.0 || c["stopsBlocked"] != 1.0 {
					t.Fatalf("compliance: got %v, want a compliant session with its one prompt answered", c)
				}
				for _, ev := range eventLines(t, dir, "--type", "attest.user_prompt") {
					if ev["sessionId"] != id {
						continue
					}
					if d := ev["data"].(map[string]any); d["length"] != float64(len("say hi")) {
						t.Errorf("user prompt %v: want the user's %q alone, %d bytes", d, "say hi", len("say hi"))
					}
				}
			})
		})
	}
}
