package hooks_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/agent/adapt"
	"github.com/clumsies/clumsies/agent/hooks"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/evidence"
)

// checkedRule is a rule over src/api/** whose check forbids a bare 500
// (constraint Errors/2).
const checkedRule = "---\npaths: [\"src/api/**\"]\nchecks:\n  - constraint: \"Errors/2\"\n    forbid: 'StatusInternalServerError'\n" +
	"    message: \"never return a bare 500\"\n---\n# Handlers\n\n## Errors\n\n- Wrap them.\n- Never a bare 500.\n"

// newChecked is an enforced workspace whose rule has checks, with the
// rule loaded and a prompt waiting for its report.
func newChecked(t *testing.T, mode string) *enforced {
	t.Helper()
	e := newEnforced(t, mode)
	e.write(".clumsies/rules/api/HANDLERS.md", checkedRule)
	e.load()
	e.run(adapt.UserPrompt, map[string]any{"prompt": "add the handler"})
	return e
}

// record appends an event of the session, as the MCP server does for a
// tool call.
func (e *enforced) record(typ events.Type, payload any) {
	e.t.Helper()
	hd := e.attach()
	defer hd.Close()
	ev, err := events.New(e.ws.ID(), typ, payload)
	if err != nil {
		e.t.Fatal(err)
	}
	ev.SessionID = sessionID
	if err := hd.Record(context.Background(), ev); err != nil {
		e.t.Fatal(err)
	}
}

// edit writes body to rel and runs the post-tool hook of a Write of it.
func (e *enforced) edit(rel, body string) hooks.Outcome {
	e.t.Helper()
	e.write(rel, body)
	return e.run(adapt.PostTool, write(filepath.Join(e.root, rel)))
}

// findingState is the state of the session's findings of the rule, as
// the evidence keeps them.
func (e *enforced) findingStates() map[string]int {
	e.t.Helper()
	hd := e.attach()
	defer hd.Close()
	st, err := hd.Stats(context.Background())
	if err != nil {
		e.t.Fatal(err)
	}
	out := map[string]int{}
	for _, s := range st.Evidence {
		for _, rc := range s.Checks {
			for _, f := range rc.Findings {
				out[evidence.FindingFixed] += f.Fixed
				out[evidence.FindingRejected] += f.Rejected
				out[evidence.FindingOpen] += f.Open
			}
		}
	}
	return out
}

const violation = "package api\n\nfunc h(w http.ResponseWriter) { w.WriteHeader(http.StatusInternalServerError) }\n"

// A change that adds a forbidden pattern is told after the tool (warn or
// block), recorded as attest.check with the match's hash and never its
// text; in block mode the stop is refused naming file, line, constraint
// and message until the agent fixes it.
func TestChecks_ToldBlockedFixed(t *testing.T) {
	e := newChecked(t, "block")
	out := e.edit("src/api/x.go", violation)
	if want := "src/api/x.go:3 Errors/2 (api/HANDLERS.md): never return a bare 500"; !strings.Contains(out.Answer.Context, want) {
		t.Fatalf("post-tool context %q does not say %q", out.Answer.Context, want)
	}
	checks := e.events(events.TypeCheck)
	if len(checks) != 1 {
		t.Fatalf("got %d attest.check, want 1", len(checks))
	}
	res := checks[0]["results"].([]any)[0].(map[string]any)
	if res["pass"] != false || res["line"] != float64(3) || res["constraint"] != "Errors/2" || !strings.HasPrefix(res["match"].(string), "sha256:") {
		t.Fatalf("the finding recorded is %v", res)
	}
	e.record(events.TypeAgentReport, events.AgentReportData{Summary: "done"})
	stop := e.run(adapt.Stop, nil)
	if !stop.Answer.Block || !strings.Contains(stop.Answer.Reason, "src/api/x.go:3 Errors/2 (api/HANDLERS.md): never return a bare 500") ||
		!strings.Contains(stop.Answer.Reason, "agentrejected") {
		t.Fatalf("stop: got %+v, want a refusal naming the finding", stop.Answer)
	}
	if out := e.edit("src/api/x.go", "package api\n\nfunc h(w http.ResponseWriter) { writeError(w, errInternal) }\n"); out.Answer.Context != "" {
		t.Fatalf("the fix was told %q", out.Answer.Context)
	}
	if stop := e.run(adapt.Stop, nil); stop.Answer.Block {
		t.Fatalf("stop after the fix: refused (%s)", stop.Answer.Reason)
	}
	for _, ev := range e.events(events.TypeCheck) {
		if raw := ev["results"]; raw != nil && strings.Contains(strings.ToLower(toJSON(t, raw)), "statusinternalservererror") {
			t.Fatalf("attest.check holds the matched text: %v", raw)
		}
	}
	if got := e.findingStates(); got[evidence.FindingFixed] != 1 || got[evidence.FindingOpen] != 0 {
		t.Fatalf("findings %v, want one fixed", got)
	}
}

// A finding that stands when the agent closes the turn with agentrejected
// and a reason lets the stop go; the finding stays on record against the
// rejection. A rejection without a reason does not.
func TestChecks_RejectedWithReason(t *testing.T) {
	e := newChecked(t, "block")
	e.edit("src/api/x.go", violation)
	e.record(events.TypeReject, events.RejectData{})
	if stop := e.run(adapt.Stop, nil); !stop.Answer.Block {
		t.Fatal("a rejection without a reason let the finding go")
	}
	e.record(events.TypeReject, events.RejectData{Reason: "the user wants the 500 on this health check"})
	if stop := e.run(adapt.Stop, nil); stop.Answer.Block {
		t.Fatalf("stop after a rejection with a reason: refused (%s)", stop.Answer.Reason)
	}
	checks := e.events(events.TypeCheck)
	last := checks[len(checks)-1]
	if last["via"] != "stop" || last["rejected"] != true {
		t.Fatalf("the stop's attest.check is %v, want rejected", last)
	}
	if got := e.findingStates(); got[evidence.FindingRejected] != 1 {
		t.Fatalf("findings %v, want one rejected", got)
	}
}

// A finding in a file the session then deletes is fixed: the stop lets
// the agent go.
func TestChecks_DeletedFileFixes(t *testing.T) {
	e := newChecked(t, "block")
	e.edit("src/api/gen.go", violation)
	e.record(events.TypeAgentReport, events.AgentReportData{Summary: "done"})
	if err := os.Remove(filepath.Join(e.root, "src", "api", "gen.go")); err != nil {
		t.Fatal(err)
	}
	if stop := e.run(adapt.Stop, nil); stop.Answer.Block {
		t.Fatalf("stop after the file was deleted: refused (%s)", stop.Answer.Reason)
	}
	if got := e.findingStates(); got[evidence.FindingFixed] != 1 || got[evidence.FindingOpen] != 0 {
		t.Fatalf("findings %v, want one fixed", got)
	}
}

// In warn mode the stop lets the agent go and tells it the findings; in
// off mode the findings are recorded and nobody is told.
func TestChecks_WarnAndOff(t *testing.T) {
	e := newChecked(t, "warn")
	if out := e.edit("src/api/x.go", violation); !strings.Contains(out.Answer.Context, "Errors/2") {
		t.Fatalf("warn: post-tool context %q", out.Answer.Context)
	}
	e.record(events.TypeAgentReport, events.AgentReportData{Summary: "done"})
	stop := e.run(adapt.Stop, nil)
	if stop.Answer.Block || !strings.Contains(stop.Answer.Context, "src/api/x.go:3 Errors/2") {
		t.Fatalf("warn: stop %+v, want it let go with the findings as context", stop.Answer)
	}
	off := newChecked(t, "off")
	if out := off.edit("src/api/x.go", violation); out.Answer.Context != "" {
		t.Fatalf("off: told %q", out.Answer.Context)
	}
	if got := len(off.events(events.TypeCheck)); got != 1 {
		t.Fatalf("off: %d attest.check, want 1", got)
	}
}

// Lines a change did not add are not its findings: a violation committed
// before the session stays out of a change that adds another line (the
// content before is read from git).
func TestChecks_OnlyAddedLines(t *testing.T) {
	e := newEnforced(t, "block")
	e.write(".clumsies/rules/api/HANDLERS.md", checkedRule)
	e.write("src/api/x.go", violation)
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "base"}} {
		if out, err := exec.Command("git", append([]string{"-C", e.root}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v: %s", args, err, out)
		}
	}
	e.run(adapt.SessionStart, map[string]any{"source": "startup"})
	e.load()
	out := e.edit("src/api/x.go", violation+"\nfunc ok() {}\n")
	if out.Answer.Context != "" {
		t.Fatalf("an edit that added no violation was told %q", out.Answer.Context)
	}
	if checks := e.events(events.TypeCheck); len(checks) != 0 {
		t.Fatalf("a clean change recorded %v after the tool, want nothing until the stop", checks)
	}
	e.record(events.TypeAgentReport, events.AgentReportData{Summary: "done"})
	if stop := e.run(adapt.Stop, nil); stop.Answer.Block {
		t.Fatalf("stop: refused (%s)", stop.Answer.Reason)
	}
	checks := e.events(events.TypeCheck)
	if len(checks) != 1 || checks[0]["via"] != "stop" || strings.Contains(toJSON(t, checks[0]["results"]), `"pass":false`) {
		t.Fatalf("attest.check %v, want the stop's with passes only", checks)
	}
}

func toJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
