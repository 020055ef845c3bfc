package main_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/catalog"
)

// TestDraftNote_NotTheDescription: the description an agent gives with a
// draft is its note to the reviewer. Another session of the workspace
// still sees the rule's description from its file while the draft is open,
// and sees a new file's from its body; the note is in `drafts show`; at
// the hub the note is in the review queue, and an accept writes the
// description of the accepted body into the team's catalog.
func TestDraftNote_NotTheDescription(t *testing.T) {
	hp, teamID := teamHub(t)
	a := newWorkspace(t)
	hp.join(t, a, "red", "ann")
	_, agent := serve(t, a)
	setup(t, agent, "agent")
	_, other := serve(t, a)
	setup(t, other, "other")

	const note = "Please review: I tightened the wording."
	ruleID := catalog.DerivedID("rule", "style/ERRORS.md")
	fileDesc := discItem(t, other, "style/ERRORS.md")["description"]
	call(t, agent, "artifact", map[string]any{"resource": "rule", "op": map[string]any{"update": map[string]any{
		"id": ruleID, "body": "# Error handling\n\n## Wrap\n\n- Wrap every error.\n", "description": note}}})
	newRule := "# Naming\n\nHow we name things.\n\n## Names\n\n- say what it is\n"
	call(t, agent, "artifact", map[string]any{"resource": "rule", "op": map[string]any{"create": map[string]any{
		"path": "mine/NAMING.md", "body": newRule, "description": note}}})
	if got := discItem(t, other, "style/ERRORS.md")["description"]; got != fileDesc || got == note {
		t.Fatalf("another session sees the rule described as %q, want the file's %q", got, fileDesc)
	}
	if got := discItem(t, other, "mine/NAMING.md")["description"]; got != "How we name things." {
		t.Fatalf("another session sees the new file described as %q, want its body's", got)
	}
	var shown struct{ Draft struct{ Description string } }
	if err := json.Unmarshal([]byte(mustRun(t, a, "drafts", "show", ruleID, "--json")), &shown); err != nil || shown.Draft.Description != note {
		t.Fatalf("drafts show: %+v, %v, want the note", shown, err)
	}

	waitFor(t, "the team rule in the workspace", func() bool { return discItem(t, agent, "team/STYLE.md") != nil })
	call(t, agent, "artifact", map[string]any{"resource": "rule", "op": map[string]any{"update": map[string]any{
		"id": teamID, "body": "# Team style\n\nHow the team writes and reviews code.\n\n## Errors\n\n- wrap them\n", "description": note}}})
	var rs []struct{ ID, Description string }
	waitFor(t, "the draft in the hub's review queue", func() bool {
		if err := json.Unmarshal([]byte(mustRun(t, hp.dir, "hub", "review", "list", "--json")), &rs); err != nil {
			t.Fatal(err)
		}
		return len(rs) == 1
	})
	if rs[0].Description != note {
		t.Fatalf("the review queue shows %q, want the note", rs[0].Description)
	}
	if out := mustRun(t, hp.dir, "hub", "review", "show", rs[0].ID); !strings.Contains(out, "agent's note: "+note) {
		t.Fatalf("hub review show: %q, want the agent's note", out)
	}
	mustRun(t, hp.dir, "hub", "review", "accept", rs[0].ID)
	var obj struct{ Description string }
	if err := json.Unmarshal([]byte(mustRun(t, hp.dir, "hub", "catalog", "show", "--team", "red", teamID, "--json")), &obj); err != nil {
		t.Fatal(err)
	}
	if obj.Description != "How the team writes and reviews code." {
		t.Fatalf("the team's catalog describes the accepted rule as %q, want its body's description", obj.Description)
	}
	waitFor(t, "the accepted rule in the workspace", func() bool {
		return discItem(t, other, "team/STYLE.md")["description"] == "How the team writes and reviews code."
	})
}
