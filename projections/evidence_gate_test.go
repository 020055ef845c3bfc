package projections_test

import (
	"strings"

	"testing"

	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections"
)

// The gates' figures are read models like the others: a rebuild gives the
// digest of the live store, and a reopened store, which derives the hosts
// that record file edits from its rows, judges the sessions' claims as
// the live one did.
func TestStore_GateEvidenceRebuilds(t *testing.T) {
	fs := vfs.NewMem()
	s := openAt(t, fs, "/db", projections.Options{})
	l := newLedger(t)
	in := inSession
	apply(t, s,
		l.publish(ruleA, "rule", "go/A.md", "---\npaths: [\"a/**\"]\n---\n"+bodyA),
		l.add(events.TypeSessionStart, events.SessionStartData{Host: "claude-code"}, in("s1")),
		l.add(events.TypeToolGated, events.ToolGatedData{Host: "claude-code", Tool: "Edit", Paths: []string{"a/x.go"}, Decision: events.GateDeny, Missing: []string{ruleA}}, in("s1")),
		l.add(events.TypeFileEdit, events.FileEditData{Host: "claude-code", Tool: "Bash", Paths: []string{"a/y.go"}, Rules: []string{ruleA}, Unnamed: []string{"a/y.go"}, Unloaded: []string{ruleA}}, in("s1")),
		l.add(events.TypeStopBlocked, events.StopBlockedData{Host: "claude-code", Blocks: 1, Limit: 3, Files: []string{"a/y.go"}, Missing: []string{ruleA}}, in("s1")),
		l.add(events.TypeSessionStart, events.SessionStartData{Host: "claude-code"}, in("s2")),
		l.refer(ruleA, []string{"Style"}, in("s2")),
		l.add(events.TypeSessionStart, events.SessionStartData{Host: "cline"}, in("s3")),
		l.refer(ruleA, []string{"Style"}, in("s3")),
	)
	want := jsonOf(s.Evidence())
	for _, w := range []string{`"denials":1`, `"ungated":1`, `"stopGateBlocks":1`, `"why":"no touched file in scope"`, `"noHostEvidence":true`} {
		if !strings.Contains(want, w) {
			t.Fatalf("evidence: got %s, want it to hold %s", want, w)
		}
	}
	if d, r := digest(t, s), digest(t, rebuild(t, l.log, vfs.NewMem(), "/r", projections.Options{})); d != r {
		t.Errorf("digest: live %s, rebuilt %s", d, r)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if got := jsonOf(openAt(t, fs, "/db", projections.Options{}).Evidence()); got != want {
		t.Errorf("reopened: got %s\nwant %s", got, want)
	}
}
