package dash_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections"
	"github.com/clumsies/clumsies/views/dash"
)

// appended are the events a test appended, by sequence: dash.Events.
type appended map[uint64]events.Event

func (a appended) Get(_ context.Context, seq uint64) (events.Event, error) {
	ev, ok := a[seq]
	if !ok {
		return ev, fmt.Errorf("event %d: %w", seq, projections.ErrNotFound)
	}
	return ev, nil
}

// TestSession_NamesRulesAndCountsHooks asks for the page of a session a
// hook announced, that loaded a published rule and the meta prompt,
// referred to the rule and claimed a rule removed since: the page names
// the published rule by its path and kind (the others have no name), and
// counts the tool calls apart from the hook's event.
func TestSession_NamesRulesAndCountsHooks(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	l := newTestLedger(t, ctx, "ws-dash-test")
	add := l.add
	const rule, gone = "p-00000000000000000000000000000010", "p-00000000000000000000000000000011"
	body := "# Style\n\n## Naming\n\n1. Say what it is.\n"
	add("", events.TypeCatalogPublish, events.PublishData{ID: rule, Kind: string(content.KindRule), Path: "rules/style.md",
		Name: "style", Hash: content.Hash([]byte(body)), Body: body})
	add("s1", events.TypeSessionStart, events.SessionStartData{Host: "codex"})
	add("s1", events.TypeSetup, events.SetupData{})
	add("s1", events.TypeLoad, events.LoadData{Items: []events.LoadedItem{{ID: "META_PROMPT.md"}, {ID: rule}}})
	add("s1", events.TypeRefer, events.ReferData{Refs: []events.Ref{{RuleID: rule, ConstraintID: "Naming/1", Name: "Naming"}, {RuleID: gone, ConstraintID: "Old/1", Name: "Old"}}})
	l.settle()

	reply, err := l.answer(dash.Request{Page: dash.PageSession, ID: "s1"})
	if err != nil || reply.Status != 200 {
		t.Fatalf("session page: %d %s, %v", reply.Status, reply.Body, err)
	}
	var got dash.Session
	if err := json.Unmarshal(reply.Body, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]dash.RuleName{rule: {Path: "rules/style.md", Kind: content.KindRule}}
	if fmt.Sprint(got.Rules) != fmt.Sprint(want) {
		t.Errorf("rules named %v, want %v", got.Rules, want)
	}
	if got.Calls != 3 || got.Hooks != 1 || len(got.Timeline) != 4 {
		t.Errorf("%d calls, %d hook events, %d timeline entries; want 3 tool calls, 1 hook event, 4 entries", got.Calls, got.Hooks, len(got.Timeline))
	}
}
