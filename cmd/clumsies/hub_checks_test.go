package main_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clumsies/clumsies/hub/hubwire"
	"github.com/clumsies/clumsies/stats"
)

// TestHub_Checks joins two workspaces of team red to a hub, each with
// the rule of TestChecks_EndToEnd; in each one session writes a bare 500
// without loading the rule. The hub's checks per rule, by stream
// sourcing, are the sums of the workspaces' own `stats --json` checks:
// sessions, loaded against not, findings per constraint; `hub stats`
// prints them and the team's page in Chromium says the sentence with the
// counts it rests on.
func TestHub_Checks(t *testing.T) {
	hp := newHub(t)
	want := map[string]*stats.RuleChecks{}
	for _, member := range []string{"ann", "bob"} {
		dir := newWorkspace(t)
		writeFile(t, filepath.Join(dir, ".clumsies", "rules", "api", "HANDLERS.md"), checkedRuleBody)
		setEnforce(t, dir, "block")
		hp.join(t, dir, "red", member)
		_, cl := serve(t, dir)
		id := hookSession(t, dir, "hubchk-"+member, func(id, secret string) { setupWith(t, cl, id, secret) })
		if told := (checkSession{t: t, dir: dir, cl: cl, id: id}).writeAndPost("api/h.go", badHandler); !strings.Contains(told, "Errors/2") {
			t.Fatalf("%s's session was told %q after the tool, want the finding", member, told)
		}
		var st stats.Report
		deadline := time.Now().Add(30 * time.Second)
		for len(st.Checks) == 0 && time.Now().Before(deadline) {
			if err := json.Unmarshal([]byte(mustRun(t, dir, "stats", "--json")), &st); err != nil {
				t.Fatal(err)
			}
		}
		if len(st.Checks) != 1 || st.Checks[0].Sessions != 1 {
			t.Fatalf("%s's workspace checks: %+v, want one session", member, st.Checks)
		}
		c := st.Checks[0]
		if w := want[c.ID]; w != nil {
			w.Sessions += c.Sessions
			w.Loaded.Of, w.Loaded.Count = w.Loaded.Of+c.Loaded.Of, w.Loaded.Count+c.Loaded.Count
			w.Unloaded.Of, w.Unloaded.Count = w.Unloaded.Of+c.Unloaded.Of, w.Unloaded.Count+c.Unloaded.Count
			w.Constraints[0].Found += c.Constraints[0].Found
			w.Constraints[0].Open += c.Constraints[0].Open
		} else {
			want[c.ID] = &c
		}
	}

	var got hubwire.Stats
	deadline := time.Now().Add(2 * time.Minute)
	sessions := func() (n int) {
		for _, c := range got.Evidence.Checks {
			n += c.Sessions
		}
		return n
	}
	for sessions() < 2 && time.Now().Before(deadline) {
		if err := json.Unmarshal([]byte(mustRun(t, hp.dir, "hub", "stats", "--json")), &got); err != nil {
			t.Fatal(err)
		}
		time.Sleep(200 * time.Millisecond)
	}
	if len(got.Evidence.Checks) != len(want) {
		t.Fatalf("the hub's checks: %+v, want the rules %v", got.Evidence.Checks, want)
	}
	for _, c := range got.Evidence.Checks {
		w := want[c.ID]
		if w == nil || c.Team != "red" || c.Sessions != w.Sessions || c.Loaded.Of != w.Loaded.Of || c.Loaded.Count != w.Loaded.Count ||
			c.Unloaded.Of != w.Unloaded.Of || c.Unloaded.Count != w.Unloaded.Count || len(c.Constraints) != 1 || c.Constraints[0] != w.Constraints[0] {
			t.Errorf("the hub's checks of %s: %+v, want the workspaces' sums %+v", c.ID, c, w)
		}
	}
	if out := mustRun(t, hp.dir, "hub", "stats"); !strings.Contains(out, "Checks:") || !strings.Contains(out, "api/HANDLERS.md (red: ") {
		t.Errorf("hub stats does not show the checks:\n%s", out)
	}

	pg := browse(t, hp.api)
	pg.open("/?token="+adminToken(t, hp), "team")
	pg.wait(`document.querySelector("[data-hub-checks]")`)
	sentence := pg.text(`[...document.querySelectorAll("[data-hub-checks] [data-field=sentence]")].map((td) => td.textContent).join(" | ")`)
	if !strings.Contains(sentence, "those that did not, in ") || !strings.Contains(sentence, "(too few sessions to tell)") {
		t.Errorf("the team page's checks say %q", sentence)
	}
	if v := pg.text(`document.querySelector("[data-hub-checks] [data-version-constraint]").textContent`); !strings.HasPrefix(v, "With this version, sessions that loaded it broke Errors/2 in 0 of 0 (no such session); those that did not, in ") {
		t.Errorf("the team page's version says %q", v)
	}
}
