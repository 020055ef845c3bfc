package main_test

import (
	"context"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prometheus/common/expfmt"

	"github.com/clumsies/clumsies/catalog"
	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/internal/testbin"
	"github.com/clumsies/clumsies/proof/ledger"
	"github.com/clumsies/clumsies/views/dash"
)

// gatePath is the rule of gateWorkspace: it applies to api/**.
const (
	gatePath = "rules/api/API.md"
	gateBody = "---\npaths:\n  - \"api/**\"\n---\n# API\n\nHow handlers answer.\n\n## Errors\n\n1. Map errors once.\n"
)

// gateWorkspace returns a workspace whose ledger holds what the hooks
// record of three sessions, stored with `clumsies import` as an export
// would give it, and the rule's id. Session gate-1 (claude-code) is
// denied three edits of api files before it loads the rule, changes three
// of them anyway (one by a shell command, found at stop: unnamed) while
// the rule is still not loaded, is held once by the stop gate, loads the
// rule and answers its prompt. Session gate-2, on a host that recorded no
// edit here, claims the rule: no evidence on this host. Session gate-3,
// on claude-code, touched nothing and claims it: no touched file in
// scope.
func gateWorkspace(t *testing.T) (string, string) {
	t.Helper()
	dir := newWorkspace(t)
	file := filepath.Join(dir, ".clumsies", filepath.FromSlash(gatePath))
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(gateBody), 0o644); err != nil {
		t.Fatal(err)
	}
	ws := workspaceID(t, dir)
	id := catalog.DerivedID(content.KindRule, gatePath)
	log := events.NewMemoryLog()
	ctx := context.Background()
	add := func(session, tool string, typ events.Type, data any) {
		t.Helper()
		ev, err := events.New(ws, typ, data)
		if err != nil {
			t.Fatal(err)
		}
		ev.SessionID, ev.Tool = session, tool
		if _, err := log.Append(ctx, ev); err != nil {
			t.Fatal(err)
		}
	}
	add("", "", events.TypeCatalogPublish, events.PublishData{ID: id, Kind: string(content.KindRule), Path: gatePath,
		Name: content.NameOf(gatePath), Group: content.GroupOf(gatePath), Hash: content.Hash([]byte(gateBody)), Body: gateBody})
	load := events.LoadData{Items: []events.LoadedItem{{ID: id, Hash: content.Hash([]byte(gateBody)), Changed: true}}}
	ref := events.ReferData{Refs: []events.Ref{{RuleID: id, ConstraintID: "Errors/1", Name: "Errors"}}}
	for _, s := range []struct{ id, host string }{{"gate-1", "claude-code"}, {"gate-2", "cline"}, {"gate-3", "claude-code"}} {
		add(s.id, "", events.TypeSessionStart, events.SessionStartData{Host: s.host, Source: "startup"})
		add(s.id, "memsetup", events.TypeSetup, events.SetupData{Hash: "sha256:00", Changed: true})
	}
	add("gate-1", "", events.TypeUserPrompt, events.UserPromptData{Host: "claude-code", SHA256: "sha256:01", Length: 5})
	for _, f := range []string{"api/a.go", "api/b.go", "api/c.go"} {
		add("gate-1", "", events.TypeToolGated, events.ToolGatedData{Host: "claude-code", Tool: "Edit", Paths: []string{f},
			Decision: events.GateDeny, Missing: []string{id}})
	}
	add("gate-1", "", events.TypeFileEdit, events.FileEditData{Host: "claude-code", Tool: "Write", Paths: []string{"api/a.go"},
		Rules: []string{id}, Unloaded: []string{id}})
	add("gate-1", "", events.TypeFileEdit, events.FileEditData{Host: "claude-code", Tool: "Edit", Paths: []string{"api/b.go"},
		Rules: []string{id}, Unloaded: []string{id}})
	add("gate-1", "", events.TypeFileEdit, events.FileEditData{Host: "claude-code", Via: events.ViaStop, Paths: []string{"api/c.go"},
		Unnamed: []string{"api/c.go"}, Rules: []string{id}, Unloaded: []string{id}})
	add("gate-1", "", events.TypeStopBlocked, events.StopBlockedData{Host: "claude-code", Blocks: 1, Limit: 3,
		Files: []string{"api/a.go", "api/b.go", "api/c.go"}, Missing: []string{id}})
	add("gate-1", "memload", events.TypeLoad, load)
	add("gate-1", "memref", events.TypeRefer, ref)
	add("gate-1", "agentreport", events.TypeAgentReport, events.AgentReportData{Summary: "changed the handlers"})
	for _, s := range []string{"gate-2", "gate-3"} {
		add(s, "memload", events.TypeLoad, load)
		add(s, "memref", events.TypeRefer, ref)
	}
	export := filepath.Join(t.TempDir(), "gate.jsonl.gz")
	f, err := os.Create(export)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ledger.Export(ctx, log, ws, 1, 0, f, nil); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	mustRun(t, dir, "import", export)
	return dir, id
}

// gateStats is what TestStats_Gate reads of `stats --json`: the stable
// field names of docs/dashboard.md.
type gateStats struct {
	Compliance struct {
		Enforce   string `json:"enforce"`
		Compliant int    `json:"compliant"`
		Sessions  []struct {
			ID             string `json:"id"`
			Compliant      bool   `json:"compliant"`
			Denials        uint64 `json:"denials"`
			Ungated        uint64 `json:"ungated"`
			StopGateBlocks uint64 `json:"stopGateBlocks"`
			NoHostEvidence bool   `json:"noHostEvidence"`
		} `json:"sessions"`
	} `json:"compliance"`
	Evidence struct {
		Denials, Warnings, Unchecked, Ungated, ProtectedGated, ProtectedChanges, StopGateBlocks, Unsupported uint64
		Rules                                                                                                []struct {
			ID                                         string
			Denials, Warnings, Ungated, StopGateBlocks uint64
		}
		Sessions []struct {
			ID             string
			Unsupported    uint64
			NoHostEvidence bool
		}
	} `json:"evidence"`
}

// TestStats_Gate: what the gates recorded reads the same in `stats
// --json`, `stats`, the dashboard's API and /metrics. A session with
// three denied edits and three ungated in-scope changes is not compliant
// while the workspace's gate is on (block, warn), and is with it off; a
// claim from a host that records no file edits is not judged; a claim
// from one that does, by a session that touched nothing in the rule's
// scope, is a claim without evidence.
func TestStats_Gate(t *testing.T) {
	dir, id := gateWorkspace(t)
	read := func() gateStats {
		t.Helper()
		var st gateStats
		if err := json.Unmarshal([]byte(mustRun(t, dir, "stats", "--json")), &st); err != nil {
			t.Fatal(err)
		}
		return st
	}
	compliant := func(st gateStats) map[string]bool {
		out := map[string]bool{}
		for _, s := range st.Compliance.Sessions {
			out[s.ID] = s.Compliant
		}
		return out
	}

	setEnforce(t, dir, "block")
	st := read()
	c := st.Compliance
	if c.Enforce != "block" || len(c.Sessions) != 3 {
		t.Fatalf("compliance: enforce %q, %d sessions; want block, 3", c.Enforce, len(c.Sessions))
	}
	if s := c.Sessions[0]; s.ID != "gate-1" || s.Compliant || s.Denials != 3 || s.Ungated != 3 || s.StopGateBlocks != 1 {
		t.Errorf("gate-1 in block mode: %+v, want 3 denials, 3 ungated changes, 1 stop-gate block, not compliant", s)
	}
	e := st.Evidence
	if e.Denials != 3 || e.Ungated != 3 || e.StopGateBlocks != 1 || e.Warnings != 0 || e.Unchecked != 0 || e.Unsupported != 1 {
		t.Errorf("evidence: %+v, want 3 denials, 3 ungated, 1 stop-gate block, 1 claim without evidence", e)
	}
	if len(e.Rules) != 1 || e.Rules[0].ID != id || e.Rules[0].Denials != 3 || e.Rules[0].Ungated != 3 || e.Rules[0].StopGateBlocks != 1 {
		t.Errorf("evidence per rule: %+v, want %s with 3 denials, 3 ungated, 1 stop-gate block", e.Rules, id)
	}
	judged := map[string]string{}
	for _, s := range e.Sessions {
		judged[s.ID] = map[bool]string{true: "no evidence on this host", false: "judged"}[s.NoHostEvidence]
		if s.Unsupported > 0 {
			judged[s.ID] = "unsupported"
		}
	}
	if want := map[string]string{"gate-1": "judged", "gate-2": "no evidence on this host", "gate-3": "unsupported"}; !equalMaps(judged, want) {
		t.Errorf("claims: %v, want %v", judged, want)
	}
	if got := compliant(st); got["gate-1"] || !got["gate-2"] || got["gate-3"] {
		t.Errorf("compliant in block mode: %v, want gate-2 only", got)
	}
	out := mustRun(t, dir, "stats")
	for _, want := range []string{"changed before loading", "ok, no evidence on this host", "claimed without evidence",
		"Gate: 3 denied, 0 warned, 0 unchecked; 3 in-scope changes before loading (ungated)", "1 stop-gate blocks",
		"session gate-1 gate: 3 denied, 3 changed before loading rules/api/API.md"} {
		if !strings.Contains(out, want) {
			t.Errorf("stats does not say %q:\n%s", want, out)
		}
	}

	setEnforce(t, dir, "warn")
	if got := compliant(read()); got["gate-1"] {
		t.Errorf("gate-1 in warn mode: compliant, want not")
	}
	setEnforce(t, dir, "off")
	if st := read(); st.Compliance.Enforce != "off" || !compliant(st)["gate-1"] {
		t.Errorf("gate-1 with the gate off: %+v, want compliant (its changes counted, not held against it)", st.Compliance)
	}

	// The dashboard and /metrics say the same.
	base := serveHTTP(t, dir, "--http", "127.0.0.1:0")
	tok := testbin.HTTPToken(t, dir)
	var se dash.Session
	getJSON(t, base, "/api/sessions/gate-1", tok, &se)
	if se.Evidence == nil || se.Evidence.Denials != 3 || se.Evidence.Ungated != 3 || se.Rules[id].Path != "api/API.md" {
		t.Errorf("session page: evidence %+v, rules %v; want 3 denials, 3 ungated, the rule named", se.Evidence, se.Rules)
	}
	var ru dash.Rule
	getJSON(t, base, "/api/rules/"+url.PathEscape(id), tok, &ru)
	if ru.Effect.Denials != 3 || ru.Effect.Ungated != 3 || ru.Effect.StopGateBlocks != 1 {
		t.Errorf("rule page: effect %+v, want 3 denials, 3 ungated, 1 stop-gate block", ru.Effect)
	}
	resp := get(t, base+"/metrics", tok)
	defer resp.Body.Close()
	var p expfmt.TextParser
	fams, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("parse /metrics: %v", err)
	}
	value := func(name, label, v string) float64 {
		for _, m := range fams[name].GetMetric() {
			if label == "" {
				return m.GetCounter().GetValue()
			}
			for _, l := range m.GetLabel() {
				if l.GetName() == label && l.GetValue() == v {
					return m.GetCounter().GetValue()
				}
			}
		}
		t.Errorf("/metrics has no %s{%s=%q}", name, label, v)
		return -1
	}
	for _, m := range []struct {
		name, label, v string
		want           float64
	}{
		{"clumsies_gate_decisions_total", "decision", "deny", 3},
		{"clumsies_gate_decisions_total", "decision", "warn", 0},
		{"clumsies_gate_decisions_total", "decision", "unchecked", 0},
		{"clumsies_ungated_changes_total", "", "", 3},
		{"clumsies_protected_files_total", "seen", "changed", 0},
		{"clumsies_stop_gate_blocks_total", "", "", 1},
	} {
		if got := value(m.name, m.label, m.v); got != m.want {
			t.Errorf("%s{%s=%q}: %v, want %v", m.name, m.label, m.v, got, m.want)
		}
	}
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}
