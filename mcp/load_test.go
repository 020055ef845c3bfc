package mcp

import (
	"context"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections"
)

// setUp connects a client and sets up session id on it.
func (e *env) setUp(id string) *Client {
	e.tb.Helper()
	c := e.connect()
	mustOK(e.tb, c, "memsetup", map[string]any{"session_id": id, "knownHashes": map[string]any{"META_PROMPT.md": ""}})
	return c
}

// lastLoad returns the items of the newest attest.load event.
func (e *env) lastLoad() []events.LoadedItem {
	e.tb.Helper()
	evs := e.toolEvents()
	for i := len(evs) - 1; i >= 0; i-- {
		if evs[i].Type == events.TypeLoad {
			p, err := evs[i].Payload()
			if err != nil {
				e.tb.Fatal(err)
			}
			return p.(*events.LoadData).Items
		}
	}
	e.tb.Fatal("no attest.load event")
	return nil
}

// A session's draft of a rule is not the rule: memload serves every
// session the rule in force (the draft's author too), records it as no
// draft, and memref takes the hash it served.
func TestMemload_DraftOfAnotherSessionNotServed(t *testing.T) {
	e := newEnv(t, envOptions{})
	_, rule, _ := e.seed()
	author, other := e.setUp("author"), e.setUp("other")
	draft := "# Errors\n\n## Never wrap\n\nReturn errors as they are.\n"
	mustOK(t, author, "artifact", map[string]any{"resource": "rule", "op": map[string]any{"update": map[string]any{"id": rule, "body": draft}}})

	published := content.Hash([]byte(errorsBody))
	for name, c := range map[string]*Client{"other": other, "author": author} {
		res := mustOK(t, c, "memload", map[string]any{"ids": []string{rule}, "knownHashes": map[string]any{rule: ""}})
		it := res["items"].([]any)[0].(map[string]any)
		body, _ := it["content"].(string)
		if it["hash"] != published || it["hasDraft"] != false || !strings.Contains(body, "Wrap errors.") || strings.Contains(body, "Never wrap") {
			t.Errorf("%s: memload got %v, want the published rule %s", name, it, published)
		}
		want := events.LoadedItem{ID: rule, Hash: published, Changed: true,
			ConstraintsHash: projections.ConstraintsHash(content.ParseConstraints("ERRORS", errorsBody))}
		if got := e.lastLoad(); len(got) != 1 || got[0] != want {
			t.Errorf("%s: load event %+v, want %+v", name, got, want)
		}
		mustOK(t, c, "memref", map[string]any{"refs": []any{map[string]any{"ruleId": rule, "constraintId": "Wrap with context", "ruleHash": published}}})
	}
}

// The load event says what the session received: a known hash that was
// current sent nothing, and a create draft's content is a draft's.
func TestMemload_RecordsWhatWasDelivered(t *testing.T) {
	e := newEnv(t, envOptions{})
	workflow, _, ctxID := e.seed()
	c := e.setUp("s1")
	wf := content.Hash([]byte(codingBody))
	mustOK(t, c, "memload", map[string]any{"ids": []string{workflow, ctxID}, "knownHashes": map[string]any{workflow: wf, ctxID: ""}})
	got := e.lastLoad()
	if len(got) != 2 || got[0].Changed || got[0].Draft || got[0].ConstraintsHash == "" || !got[1].Changed || got[1].ConstraintsHash != "" {
		t.Errorf("load of a known workflow and a context item: got %+v, want the workflow unchanged with its constraints hash, the context sent", got)
	}
	create := mustOK(t, c, "artifact", map[string]any{"resource": "rule", "op": map[string]any{"create": map[string]any{"path": "go/NEW.md", "body": "# New\n\n## Do\n\n- it\n"}}})
	tmp := create["id"].(string)
	mustOK(t, c, "memload", map[string]any{"ids": []string{tmp}, "knownHashes": map[string]any{tmp: ""}})
	if got := e.lastLoad(); len(got) != 1 || !got[0].Draft || !got[0].Changed || got[0].Delivered() {
		t.Errorf("load of a create draft: got %+v, want a draft, sent, not delivered as a rule", got)
	}
	if it, err := e.catalog.View(context.Background(), tmp); err != nil || it.Published {
		t.Fatalf("view %s: %+v, %v", tmp, it, err)
	}
}
