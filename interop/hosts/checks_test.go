package hosts

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/events"
)

// sessionStats is one session of `clumsies stats --json`'s compliance.
type sessionStats struct {
	ID           string `json:"id"`
	Host         string `json:"host"`
	HookStarts   int    `json:"hookStarts"`
	Setups       int    `json:"setups"`
	InventedID   bool   `json:"inventedId"`
	Prompts      int    `json:"prompts"`
	Answered     int    `json:"answered"`
	StopsBlocked int    `json:"stopsBlocked"`
	Compliant    bool   `json:"compliant"`
}

// prompt is the user's prompt of every run.
const prompt = "Add an API handler file."

// promptHash is what attest.user_prompt records of prompt.
var promptHash = fmt.Sprintf("sha256:%x", sha256.Sum256([]byte(prompt)))

// event is one line of `clumsies events --json`.
type event struct {
	Type      events.Type     `json:"type"`
	SessionID string          `json:"sessionId"`
	Data      json.RawMessage `json:"data"`
}

// ledger returns the workspace's events.
func (p *project) ledger(t *testing.T) []event {
	t.Helper()
	var evs []event
	for _, line := range strings.Split(strings.TrimSpace(p.clumsies(t, "events", "--json")), "\n") {
		var e event
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("read an event of clumsies events --json: %v: %s", err, line)
		}
		evs = append(evs, e)
	}
	return evs
}

// count returns how many events of type typ session has.
func count(evs []event, session string, typ events.Type) int {
	n := 0
	for _, e := range evs {
		if e.SessionID == session && e.Type == typ {
			n++
		}
	}
	return n
}

// checkTurn checks what every host's scripted turn must leave: the
// session-start hook announced the session's id and memsetup got it, the
// prompt hook recorded one prompt, the stop hook blocked once, the agent
// reported, and `clumsies stats --json` shows the session compliant under
// host.
func (p *project) checkTurn(t *testing.T, m *modelServer, host string) {
	t.Helper()
	p.checkTurnReported(t, m, host, true)
}

// checkTurnReported is checkTurn for a host that may lose the stop hook's
// request to report: reported says whether the report came.
func (p *project) checkTurnReported(t *testing.T, m *modelServer, host string, reported bool) {
	t.Helper()
	p.checkTurnCompliant(t, m, host, reported, reported)
}

// checkTurnCompliant is checkTurnReported for a session whose compliance
// in stats is compliant: a session that made an ungated change (in scope
// of rules it had not loaded, with the gate on) is not, though it reported.
func (p *project) checkTurnCompliant(t *testing.T, m *modelServer, host string, reported, compliant bool) {
	t.Helper()
	reports := 0
	if reported {
		reports = 1
	}
	id, calls, stopSeen := m.seen()
	if id == "" {
		t.Fatalf("no request to the model carried the session-start context (the session id); the model's calls: %v", calls)
	}
	t.Logf("announced session id %q; the model's calls: %v; requests carrying the stop reason: %d", id, calls, stopSeen)
	evs := p.ledger(t)
	for _, c := range []struct {
		typ  events.Type
		want int
		what string
	}{
		{events.TypeSessionStart, 1, "the session-start hook fired"},
		{events.TypeUserPrompt, 1, "the prompt hook recorded the one user prompt"},
		{events.TypeSetup, 1, "memsetup got the announced id"},
		{events.TypeDiscover, 1, "memdisc ran in the session"},
		{events.TypeStopBlocked, 1, "the stop hook blocked once"},
		{events.TypeAgentReport, reports, "the agent reported after the stop hook's reason"},
	} {
		if got := count(evs, id, c.typ); got != c.want {
			t.Errorf("%s: %d %s events of session %q, want %d", c.what, got, c.typ, id, c.want)
		}
	}
	for _, e := range evs {
		var d struct {
			SHA256 string `json:"sha256"`
			Text   string `json:"text"`
		}
		if e.SessionID == id && e.Type == events.TypeUserPrompt && json.Unmarshal(e.Data, &d) == nil && d.SHA256 != promptHash {
			t.Errorf("the prompt hook recorded %q, not the user's prompt %q: a host's own text around it, or the stop reason taken for a prompt", d.Text, prompt)
		}
	}
	var stats struct {
		Compliance struct {
			Sessions []sessionStats `json:"sessions"`
		} `json:"compliance"`
	}
	if err := json.Unmarshal([]byte(p.clumsies(t, "stats", "--json")), &stats); err != nil {
		t.Fatalf("read clumsies stats --json: %v", err)
	}
	want := sessionStats{ID: id, Host: host, HookStarts: 1, Setups: 1, Prompts: 1, Answered: reports, StopsBlocked: 1, Compliant: compliant}
	found := false
	for _, s := range stats.Compliance.Sessions {
		if s.ID != id {
			t.Errorf("stats --json shows a session %q besides the announced %q: %+v", s.ID, id, s)
			continue
		}
		found = true
		if s != want {
			t.Errorf("stats --json shows the session as %+v, want %+v", s, want)
		}
	}
	if !found {
		t.Errorf("stats --json has no session %q: %+v", id, stats.Compliance.Sessions)
	}
	if t.Failed() {
		t.Logf("the ledger:\n%s", p.clumsies(t, "events"))
	}
}

// hasHookEvent says whether the built binary has the hook event name
// (`clumsies hook -h` lists them).
func hasHookEvent(t *testing.T, name string) bool {
	t.Helper()
	return helpNames(t, "hook", name)
}

// hasAdaptHost says whether `clumsies adapt` knows the host name.
func hasAdaptHost(t *testing.T, name string) bool {
	t.Helper()
	return helpNames(t, "adapt", name)
}

// helpNames says whether `clumsies command -h` names name.
func helpNames(t *testing.T, command, name string) bool {
	t.Helper()
	out, _ := exec.Command(filepath.Join(binDir, "clumsies"), command, "-h").CombinedOutput()
	return regexp.MustCompile(`\b` + regexp.QuoteMeta(name) + `\b`).Match(out)
}
