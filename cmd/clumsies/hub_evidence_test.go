package main_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/clumsies/clumsies/evidence"
	"github.com/clumsies/clumsies/hub/hubwire"
)

// TestHub_Evidence joins a workspace to a hub and has two sessions edit
// files (post-tool hook), load and claim rules, some claims without
// evidence (not loaded, no touched file in scope), one edit denied by the
// gate first (pre-tool hook, block mode). The hub's evidence,
// by stream sourcing, is the workspace's own `stats --json` evidence: per
// rule, per session, the edits, the gates' figures and claims without evidence; the member's
// figures sum them; `hub stats` says them.
func TestHub_Evidence(t *testing.T) {
	hp := newHub(t)
	dir := newWorkspace(t)
	writeRule(t, dir, "web/UI.md", "web/**")
	writeRule(t, dir, "api/HANDLERS.md", "api/**/*.go")
	nameWorkspace(t, dir, "shop api")
	hp.join(t, dir, "red", "ann")
	wsID := workspaceID(t, dir)
	// The name config.toml gives the workspace goes to the hub with the
	// join: hub nodes and hub stats show it beside the id.
	if out := mustRun(t, hp.dir, "hub", "nodes"); !strings.Contains(out, "shop api ("+wsID+")") {
		t.Errorf("hub nodes does not name the workspace \"shop api\" beside %s:\n%s", wsID, out)
	}
	_, cl := serve(t, dir)

	id := hookSession(t, dir, "hubev-1", func(id, secret string) { setupWith(t, cl, id, secret) })
	setEnforce(t, dir, "block")
	if out := preTool(t, dir, "claude-code", toolInput(t, "claude-code", id, dir, "Edit", filepath.Join(dir, "api", "handler.go"))); !strings.Contains(out, "deny") {
		t.Fatalf("pre-tool gate on api/handler.go: got %q, want a denial", out)
	}
	setEnforce(t, dir, "off")
	postToolWrite(t, dir, id, "api/handler.go") // the api rule in scope, not loaded
	wf := workflowID(t, cl)
	refer := func(rule, constraint string) {
		call(t, cl, "memref", map[string]any{"refs": []any{map[string]any{"ruleId": rule, "constraintId": constraint}}})
	}
	refer(wf, "Steps/1") // never loaded
	load(t, cl, wf)
	refer(wf, "Steps/1")
	web, api := ruleID(t, cl, "web/UI.md"), ruleID(t, cl, "api/HANDLERS.md")
	load(t, cl, web)
	refer(web, "Do/1") // no touched file in scope
	load(t, cl, api)
	postToolWrite(t, dir, id, "api/v2/handler.go") // loaded now
	refer(api, "Do/1")

	_, cl2 := serve(t, dir)
	id2 := hookSession(t, dir, "hubev-2", func(id, secret string) { setupWith(t, cl2, id, secret) })
	postToolWrite(t, dir, id2, "web/index.html")

	var ws struct {
		Evidence struct {
			Edits, Unsupported uint64
			evidence.Gate
			Rules    []evidence.RuleTotals
			Sessions []evidence.Session
		}
	}
	if err := json.Unmarshal([]byte(mustRun(t, dir, "stats", "--json")), &ws); err != nil {
		t.Fatal(err)
	}
	want := ws.Evidence
	if want.Edits != 3 || want.Unsupported != 2 || len(want.Sessions) != 2 || want.Denials != 1 {
		t.Fatalf("the workspace's evidence: %+v, want 3 edits, 2 claims without evidence, 1 denial, 2 sessions", want)
	}

	var got hubwire.Stats
	deadline := time.Now().Add(2 * time.Minute)
	for {
		if err := json.Unmarshal([]byte(mustRun(t, hp.dir, "hub", "stats", "--json")), &got); err != nil {
			t.Fatal(err)
		}
		if got.Evidence.Edits >= want.Edits && got.Evidence.Unsupported >= want.Unsupported && got.Evidence.Denials >= want.Denials || time.Now().After(deadline) {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	e := got.Evidence
	if got.WorkspaceNames[wsID] != "shop api" {
		t.Errorf("hub stats --json: workspaceNames %v, want %s named \"shop api\"", got.WorkspaceNames, wsID)
	}
	var rules []evidence.RuleTotals
	for _, r := range e.Rules {
		rules = append(rules, r.RuleTotals)
	}
	var sessions []evidence.Session
	for _, s := range e.Sessions {
		sessions = append(sessions, s.Session)
		if s.Member != "ann" || s.Team != "red" {
			t.Errorf("session %s: member %q of team %q, want ann of red", s.ID, s.Member, s.Team)
		}
	}
	if e.Edits != want.Edits || e.Unsupported != want.Unsupported || e.Gate != want.Gate || !reflect.DeepEqual(rules, want.Rules) || !reflect.DeepEqual(sessions, want.Sessions) {
		t.Fatalf("the hub's evidence:\n%+v\nthe workspace's:\n%+v", e, want)
	}
	var ann evidence.Figures
	for _, s := range want.Sessions {
		ann.Add(s)
	}
	var member evidence.Figures
	var hosts, models []string
	for _, m := range got.Members {
		if m.Member == "ann" {
			member, hosts, models = m.Evidence, m.Hosts, m.Models
		}
	}
	if member != ann || member.Unsupported != 2 {
		t.Fatalf("member ann's evidence: %+v, want %+v", member, ann)
	}
	// Who ran ann's sessions: the host and model Claude Code's hook named.
	if fmt.Sprint(hosts, models) != "[claude-code] [claude-sonnet-4-5]" || fmt.Sprint(e.Hosts, e.Models) != "[{claude-code 2}] [{claude-sonnet-4-5 2}]" {
		t.Errorf("member ann's hosts %v and models %v, the evidence's %v and %v; want claude-code and claude-sonnet-4-5, 2 sessions each", hosts, models, e.Hosts, e.Models)
	}
	out := mustRun(t, hp.dir, "hub", "stats")
	if !strings.Contains(out, "api/HANDLERS.md") || !strings.Contains(out, "2 claims without evidence") || !strings.Contains(out, "Gate: 1 denied") ||
		!strings.Contains(out, "claude-code  claude-sonnet-4-5") {
		t.Fatalf("hub stats does not show the evidence and who ran the sessions:\n%s", out)
	}

	// The hub's page shows who ran the sessions: the member table's hosts
	// and models, the team's sessions per host and per model, each
	// session's, and the same on the member's page.
	pg := browse(t, hp.api)
	pg.open("/?token="+adminToken(t, hp), "team")
	cell := func(sel string) string {
		return pg.text(`(document.querySelector('` + sel + `') || {}).textContent || "missing"`)
	}
	for sel, want := range map[string]string{
		`tr[data-member="ann"] [data-field=hosts]`:                                   "claude-code",
		`tr[data-member="ann"] [data-field=models]`:                                  "claude-sonnet-4-5",
		`[data-table=hosts] tr[data-who="claude-code"] [data-field=sessions]`:        "2",
		`[data-table=models] tr[data-who="claude-sonnet-4-5"] [data-field=sessions]`: "2",
		`tr[data-hub-session="` + id + `"] [data-field=host]`:                        "claude-code",
		`tr[data-hub-session="` + id2 + `"] [data-field=model]`:                      "claude-sonnet-4-5",
		`[data-table=nodes] [data-ws="` + wsID + `"] [data-field=ws-name]`:           "shop api",
		`tr[data-hub-session="` + id + `"] [data-field=ws-name]`:                     "shop api",
	} {
		if got := cell(sel); got != want {
			t.Errorf("the hub's team page: %s shows %q, want %q", sel, got, want)
		}
	}
	pg.open(pg.text(`document.querySelector('[data-member-link="ann"]').getAttribute("href")`), "team")
	pg.wait(`document.querySelector('[data-member-page="ann"]')`)
	for sel, want := range map[string]string{
		`[data-table=hosts] tr[data-who="claude-code"] [data-field=sessions]`:        "2",
		`[data-table=models] tr[data-who="claude-sonnet-4-5"] [data-field=sessions]`: "2",
		`tr[data-member-session="` + id + `"] [data-field=host]`:                     "claude-code",
	} {
		if got := cell(sel); got != want {
			t.Errorf("ann's page at the hub: %s shows %q, want %q", sel, got, want)
		}
	}

	// A rule removed since: the hub names it by the path it was last
	// published at, marked removed, rather than by a bare id with an
	// empty path.
	if err := os.Remove(filepath.Join(dir, ".clumsies", "rules", "web", "UI.md")); err != nil {
		t.Fatal(err)
	}
	mustRun(t, dir, "publish")
	pg.open("/", "team")
	deadline = time.Now().Add(time.Minute)
	for pg.text(`String(!!document.querySelector('[data-evidence-rule="`+web+`"] [data-unpublished]'))`) != "true" {
		if time.Now().After(deadline) {
			t.Fatalf("the hub's page names the removed rule %q, want its path marked removed",
				pg.text(`(document.querySelector('[data-evidence-rule="`+web+`"] td') || {}).textContent || "missing"`))
		}
		time.Sleep(time.Second)
		pg.open("/", "team")
	}
	if got := pg.text(`document.querySelector('[data-evidence-rule="` + web + `"] td').textContent`); got != "web/UI.md removed" {
		t.Errorf("the hub's page names the removed rule %q, want %q", got, "web/UI.md removed")
	}
	if err := json.Unmarshal([]byte(mustRun(t, hp.dir, "hub", "stats", "--json")), &got); err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, r := range got.Evidence.Rules {
		if r.ID == web && (r.Path != "web/UI.md" || !r.Removed) {
			t.Errorf("hub stats --json: the removed rule's evidence has path %q, removed %v; want web/UI.md, removed", r.Path, r.Removed)
		}
	}
	for _, r := range got.Rules {
		if r.ID == web && (r.Path != "web/UI.md" || !r.Removed) {
			t.Errorf("hub stats --json: the removed rule has path %q, removed %v; want web/UI.md, removed", r.Path, r.Removed)
		}
	}
	for _, r := range got.Evidence.Rules {
		if r.ID == web {
			found++
		}
	}
	for _, r := range got.Rules {
		if r.ID == web {
			found++
		}
	}
	if found != 2 {
		t.Errorf("hub stats --json: the removed rule is in %d of its rules and evidence, want both", found)
	}
}

// nameWorkspace sets the name of the workspace in dir in its config.toml.
func nameWorkspace(tb testing.TB, dir, name string) {
	tb.Helper()
	p := filepath.Join(dir, ".clumsies", "config.toml")
	b, err := os.ReadFile(p)
	if err != nil {
		tb.Fatal(err)
	}
	b = regexp.MustCompile(`(?m)^#? ?name = .*$`).ReplaceAll(b, []byte(fmt.Sprintf("name = %q", name)))
	if err := os.WriteFile(p, b, 0o644); err != nil {
		tb.Fatal(err)
	}
}
