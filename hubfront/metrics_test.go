package hubfront_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/common/expfmt"

	"github.com/clumsies/clumsies/agent/adapt"
	"github.com/clumsies/clumsies/agent/hooks"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/internal/hubtest"
	"github.com/clumsies/clumsies/workspace"
)

// gateEvent is one event a node's hooks record, in a session ("" for
// none).
type gateEvent struct {
	session string
	typ     events.Type
	data    any
}

// TestHubMetrics_GateEvidence: the hub's /metrics gives, per team, the
// file edits and the gates' figures that the sessions of the team's
// nodes recorded, summed over its workspaces, one series per team and
// decision whatever the sessions (one denial is the real pre-tool gate's,
// run as Claude Code's hook in a workspace in block mode); a team whose nodes recorded nothing
// has its series at zero; an event outside a session is not counted, as
// the workspace does not count it.
func TestHubMetrics_GateEvidence(t *testing.T) {
	th, srv, admin := newHubFront(t)

	redA, redB := hubtest.Join(t, th, "red"), hubtest.Join(t, th, "red")
	blue := hubtest.Join(t, th, "blue")
	hubtest.Join(t, th, "green")

	deny := func(protected ...string) events.ToolGatedData {
		return events.ToolGatedData{Host: "claude-code", Tool: "Write", Decision: events.GateDeny, Paths: []string{"api/x.go"}, Missing: []string{"p-1"}, Protected: protected}
	}
	feeds := map[*hubtest.Node][]gateEvent{
		redA: {
			{"s1", events.TypeToolGated, deny()},
			{"s1", events.TypeToolGated, events.ToolGatedData{Host: "claude-code", Decision: events.GateWarn, Paths: []string{"api/x.go"}, Missing: []string{"p-1"}}},
			{"s1", events.TypeToolGated, events.ToolGatedData{Host: "claude-code", Decision: events.GateAllow, Paths: []string{"api/x.go"}, Unchecked: "no answer"}},
			{"s1", events.TypeFileEdit, events.FileEditData{Host: "claude-code", Paths: []string{".clumsies/config.toml"}, Unloaded: []string{"p-1"}, Protected: []string{".clumsies/config.toml"}}},
			{"s1", events.TypeStopBlocked, events.StopBlockedData{Host: "claude-code", Files: []string{"api/x.go"}, Missing: []string{"p-1"}}},
			{"s2", events.TypeToolGated, deny(".clumsies/config.toml")},
		},
		redB: {
			{"s3", events.TypeFileEdit, events.FileEditData{Host: "codex", Paths: []string{"README.md"}}},
			{"s3", events.TypeToolGated, deny()},
			// A stop held for an unanswered prompt alone is not the gate's.
			{"s3", events.TypeStopBlocked, events.StopBlockedData{Host: "codex"}},
		},
		blue: {
			{"s4", events.TypeFileEdit, events.FileEditData{Host: "claude-code", Paths: []string{"api/y.go"}, Unloaded: []string{"p-2"}}},
			{"s4", events.TypeToolGated, events.ToolGatedData{Host: "claude-code", Decision: events.GateWarn, Paths: []string{"api/y.go"}, Missing: []string{"p-2"}}},
			{"", events.TypeToolGated, deny()},
		},
	}
	last := map[string]uint64{}
	for tn, evs := range feeds {
		for _, e := range evs {
			ev, err := events.New(tn.WS.ID(), e.typ, e.data)
			if err != nil {
				t.Fatal(err)
			}
			ev.SessionID = e.session
			if last[tn.ID.NodeID], err = tn.N.Log.Append(context.Background(), ev); err != nil {
				t.Fatalf("append: %v", err)
			}
		}
	}
	// The real gate denies a write in scope of a rule the session has
	// not loaded: the hooks run with the node closed (each opens the
	// workspace as its owner, as a hook process does), and the node
	// opened again sends what they recorded.
	enforceBlock(t, redA)
	runHook(t, redA, adapt.SessionStart, map[string]any{"source": "startup"})
	out := runHook(t, redA, adapt.PreTool, map[string]any{"tool_name": "Write", "tool_input": map[string]any{"file_path": filepath.Join(redA.WS.Root, "src/api/x.go"), "content": "x"}})
	if !out.Answer.Block {
		t.Fatalf("the gate let the write run: %+v, want it denied", out.Answer)
	}
	ws, err := workspace.Open(redA.WS.Root)
	if err != nil {
		t.Fatal(err)
	}
	redA.WS = ws
	redA.Open(t)
	if last[redA.ID.NodeID], err = redA.N.Log.LastSeq(context.Background()); err != nil {
		t.Fatal(err)
	}
	waitApplied(t, th, last)

	resp, body := get(t, srv, "/metrics", admin)
	var p expfmt.TextParser
	fams, err := p.TextToMetricFamilies(strings.NewReader(body))
	if resp.StatusCode != http.StatusOK || err != nil {
		t.Fatalf("/metrics: %d, %v; want 200 in the text format", resp.StatusCode, err)
	}
	// counter returns the value of the counter name of team whose label
	// is value (label "" for none).
	counter := func(name, team, label, value string) (float64, bool) {
		for _, m := range fams[name].GetMetric() {
			labels := map[string]string{}
			for _, l := range m.GetLabel() {
				labels[l.GetName()] = l.GetValue()
			}
			if labels["team"] == team && (label == "" || labels[label] == value) {
				return m.GetCounter().GetValue(), true
			}
		}
		return 0, false
	}
	type want struct{ edits, deny, warn, unchecked, ungated, gated, changed, stop float64 }
	for team, w := range map[string]want{
		"red":   {edits: 2, deny: 4, warn: 1, unchecked: 1, ungated: 1, gated: 1, changed: 1, stop: 1},
		"blue":  {edits: 1, warn: 1, ungated: 1},
		"green": {},
	} {
		for _, c := range []struct {
			name, label, value string
			want               float64
		}{
			{"clumsies_hub_file_edits_total", "", "", w.edits},
			{"clumsies_hub_gate_decisions_total", "decision", "deny", w.deny},
			{"clumsies_hub_gate_decisions_total", "decision", "warn", w.warn},
			{"clumsies_hub_gate_decisions_total", "decision", "unchecked", w.unchecked},
			{"clumsies_hub_ungated_changes_total", "", "", w.ungated},
			{"clumsies_hub_protected_files_total", "seen", "gated", w.gated},
			{"clumsies_hub_protected_files_total", "seen", "changed", w.changed},
			{"clumsies_hub_stop_gate_blocks_total", "", "", w.stop},
		} {
			got, ok := counter(c.name, team, c.label, c.value)
			if !ok || got != c.want {
				t.Errorf("%s{team=%q,%s=%q}: %v (found %v), want %v", c.name, team, c.label, c.value, got, ok, c.want)
			}
		}
	}
	// Bounded: one series per team (and decision or seen), none per
	// session, node or workspace.
	for name, per := range map[string]int{"clumsies_hub_file_edits_total": 1, "clumsies_hub_gate_decisions_total": 3,
		"clumsies_hub_ungated_changes_total": 1, "clumsies_hub_protected_files_total": 2, "clumsies_hub_stop_gate_blocks_total": 1} {
		f := fams[name]
		if len(f.GetMetric()) != 3*per || !strings.Contains(f.GetHelp(), "team") {
			t.Errorf("%s: %d series, help %q; want %d (3 teams), a help that says where it comes from", name, len(f.GetMetric()), f.GetHelp(), 3*per)
		}
	}
	if f := fams["clumsies_hub_read_models_up"]; len(f.GetMetric()) != 1 || f.GetMetric()[0].GetGauge().GetValue() != 1 {
		t.Errorf("clumsies_hub_read_models_up: %v, want one gauge at 1", f)
	}
}

// waitApplied waits until the hub's projector applied every node's
// ledger up to the sequence last gives it.
func waitApplied(t *testing.T, th *hubtest.Hub, last map[string]uint64) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		nodes, err := th.H.TeamNodes(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		behind := ""
		for _, n := range nodes {
			if n.HubSeq < last[n.ID] {
				behind += fmt.Sprintf(" %s at %d of %d", n.ID, n.HubSeq, last[n.ID])
			}
		}
		if behind == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the hub has not applied the nodes' events:%s", behind)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// hookSession is the session of the hooks runHook runs.
const hookSession = "5d0c7a1e-2b3f-4c8d-9e6a-1f2b3c4d5e6f"

// enforceBlock closes tn and puts its workspace in [enforce] mode block
// with a rule for src/api/**.
func enforceBlock(t *testing.T, tn *hubtest.Node) {
	t.Helper()
	tn.Close()
	root := tn.WS.Root
	write := func(rel, body string, appendTo bool) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if appendTo {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			body = string(b) + body
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".clumsies/config.toml", "\n[enforce]\nmode = \"block\"\n", true)
	write(".clumsies/rules/api/HANDLERS.md", "---\npaths: [\"src/api/**\"]\n---\n# Handlers\n\n## Errors\n\n- Wrap them.\n", false)
	write("src/api/x.go", "package api\n", false)
}

// runHook runs hook ev of Claude Code in tn's workspace with the fields
// of in.
func runHook(t *testing.T, tn *hubtest.Node, ev adapt.Event, in map[string]any) hooks.Outcome {
	t.Helper()
	in["session_id"], in["cwd"] = hookSession, tn.WS.Root
	raw, _ := json.Marshal(in)
	h, err := adapt.Lookup("claude-code")
	if err != nil {
		t.Fatal(err)
	}
	out, err := hooks.Handle(context.Background(), hooks.Request{Host: h, Event: ev, Input: raw})
	if err != nil {
		t.Fatalf("hook %s: %v", ev, err)
	}
	return out
}
