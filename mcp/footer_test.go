package mcp

import (
	"strings"
	"testing"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
)

// An agent that edits a rule from memload's answer sends back the
// refer-reminder footer memload appended: artifact stages the file's own
// content, without it.
func TestArtifact_StripsReferFooter(t *testing.T) {
	e := newEnv(t, envOptions{})
	_, rule, _ := e.seed()
	c := e.setUp("footer")
	res := mustOK(t, c, "memload", map[string]any{"ids": []string{rule}, "knownHashes": map[string]any{rule: ""}})
	loaded := res["items"].([]any)[0].(map[string]any)["content"].(string)
	if !content.HasReferFooter(loaded) {
		t.Fatalf("memload's content %q: no refer-reminder footer to test with", loaded)
	}
	edited := strings.Replace(loaded, "Wrap errors.", "Wrap errors, always.", 1)
	mustOK(t, c, "artifact", map[string]any{"resource": "rule", "op": map[string]any{"update": map[string]any{"id": rule, "body": edited}}})
	want := strings.Replace(errorsBody, "Wrap errors.", "Wrap errors, always.", 1)
	var got string
	for _, ev := range e.toolEvents() {
		if ev.Type == events.TypeDraftUpdate {
			p, err := ev.Payload()
			if err != nil {
				t.Fatal(err)
			}
			got = p.(*events.DraftData).Body
		}
	}
	if got != want {
		t.Fatalf("the draft's body: got %q, want the edited file without the footer, %q", got, want)
	}
	only := content.ReferFooter(rule, "sha256:00", nil)
	res = mustFail(t, c, "artifact", map[string]any{"resource": "rule", "op": map[string]any{"update": map[string]any{"id": rule, "body": only}}}, events.CodeInvalidParams)
	mustContain(t, jsonOf(t, res), "refer-reminder footer", "the error of a body that is only the footer")
}
