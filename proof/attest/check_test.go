package attest_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/proof/attest"
)

func TestCheck(t *testing.T) {
	loaded := attest.Edit{Seq: 3, Session: "a", Host: "codex", Rules: []attest.RuleState{{ID: "p-1", Hash: "h", Loaded: true}}, Gate: []attest.GateDecision{}}
	unloaded := attest.Edit{Seq: 5, Session: "b", Host: "codex", Rules: []attest.RuleState{{ID: "p-1", Hash: "h"}}, Gate: []attest.GateDecision{}}
	warned := attest.Edit{Seq: 7, Session: "a", Host: "codex", Rules: []attest.RuleState{}, Gate: []attest.GateDecision{{Seq: 6, Decision: "warn", Missing: []string{"p-1"}}}}
	files := []attest.File{
		{Path: "ok.go", By: attest.ByAgent, Edits: []attest.Edit{loaded}},
		{Path: "bad.go", By: attest.ByAgent, Edits: []attest.Edit{unloaded}},
		{Path: "warned.go", By: attest.ByAgent, Edits: []attest.Edit{warned}},
		{Path: "README.md", By: attest.ByHuman, Edits: []attest.Edit{}},
		{Path: "lost.go", By: attest.Unattested, Note: "no attestation", Edits: []attest.Edit{}},
	}
	sessions := []attest.Session{{ID: "a", Host: "codex", Refs: []attest.Ref{{RuleID: "p-1", ConstraintID: "Do/1"}}}, {ID: "b", Host: "codex", Refs: []attest.Ref{}}}
	count := func(r attest.Result) map[string]int {
		n := map[string]int{}
		for _, f := range r.Files {
			n[f.Path] = len(f.Problems)
			if f.Findings == nil {
				t.Errorf("%s: findings is nil, want an empty list", f.Path)
			}
		}
		return n
	}
	warn := attest.Check("b", "h", attest.EnforceWarn, "ledger", files, sessions)
	if n := count(warn); warn.OK || n["ok.go"] != 0 || n["bad.go"] != 1 || n["warned.go"] != 0 || n["README.md"] != 0 || n["lost.go"] != 1 || warn.Problems != 2 {
		t.Errorf("mode warn: got %v, want bad.go's unloaded rule and lost.go unattested", n)
	}
	if r := warn.Files[0].Rules; len(r) != 1 || !r[0].Loaded || len(r[0].Referenced) != 1 {
		t.Errorf("ok.go's rules: got %+v, want p-1 loaded and Do/1 referenced", r)
	}
	block := attest.Check("b", "h", attest.EnforceBlock, "ledger", files, sessions)
	if n := count(block); n["bad.go"] != 2 || n["warned.go"] != 1 || n["ok.go"] != 0 {
		t.Errorf("mode block: got %v, want the gate off for bad.go and the warning for warned.go", n)
	}
	var md bytes.Buffer
	if err := attest.Markdown(&md, block); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"fails: 4 problems", "| `ok.go` | agent | codex `a` | `p-1` | yes | Do/1 |", "| `bad.go` | agent | codex `b` | `p-1` | **no** | none |", "| `README.md` | human | - |", "- `lost.go`: no attestation"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("markdown: missing %q in\n%s", want, md.String())
		}
	}
	r := attest.Check("b", "h", attest.EnforceBlock, "ledger", files[:1], sessions)
	if !r.OK {
		t.Errorf("only loaded edits: got %+v, want OK", r)
	}
	r.AddFindings("elsewhere.go", []attest.Finding{{RuleID: "p-1", Line: 1, Message: "x"}})
	if !r.OK || r.Findings != 0 {
		t.Errorf("a finding in a file the change did not touch: got %+v, want none counted", r)
	}
	r.AddFindings("ok.go", []attest.Finding{{RuleID: "p-1", ConstraintID: "Do/1", Line: 12, Message: "calls panic"}})
	md.Reset()
	if err := attest.Markdown(&md, r); err != nil {
		t.Fatal(err)
	}
	if r.OK || r.Findings != 1 || len(r.Files[0].Findings) != 1 || !strings.Contains(md.String(), "- `ok.go:12`: calls panic (p-1)") {
		t.Errorf("a finding: got %+v\n%s; want the check failed and the finding listed", r, md.String())
	}
}
