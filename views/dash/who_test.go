package dash_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/views/dash"
)

// TestWho_HostAndModel: a hooked session shows the host and model its
// hook named, an MCP-only one the client its memsetup named; the
// sessions list, the session page, a rule's applications and the
// overview's breakdowns all say so, and no page shows a secret's hash.
func TestWho_HostAndModel(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	l := newTestLedger(t, ctx, "ws-dash-test")
	const rule = "p-00000000000000000000000000000010"
	body := "# Style\n\n## Naming\n\n1. Say what it is.\n"
	l.add("", events.TypeCatalogPublish, events.PublishData{ID: rule, Kind: string(content.KindRule), Path: "style.md",
		Name: "style", Hash: content.Hash([]byte(body)), Body: body})
	l.add("hooked", events.TypeSessionStart, events.SessionStartData{Host: "claude-code", Model: "claude-sonnet-4-5", SecretHash: events.SecretHash("css-1")})
	l.add("hooked", events.TypeSetup, events.SetupData{Bound: events.BoundByHook, Client: &events.ClientInfo{Name: "claude-code", Version: "2.1"}})
	l.add("cursor", events.TypeSetup, events.SetupData{Bound: events.BoundByMemsetup, Client: &events.ClientInfo{Name: "cursor-vscode", Version: "1.0"}})
	for _, s := range []string{"hooked", "cursor"} {
		l.add(s, events.TypeRefer, events.ReferData{Refs: []events.Ref{{RuleID: rule, ConstraintID: "Naming/1", Name: "Naming"}}})
	}
	l.settle()
	want := map[string]dash.Who{"hooked": {Host: "claude-code", Model: "claude-sonnet-4-5"}, "cursor": {Host: "cursor-vscode 1.0"}}

	var list dash.Sessions
	l.page(dash.Request{Page: dash.PageSessions}, &list)
	for _, s := range list.Items {
		if got := (dash.Who{Host: s.Host, Model: s.Model}); got != want[s.ID] {
			t.Errorf("sessions list, %s: %+v, want %+v", s.ID, got, want[s.ID])
		}
	}
	var ses dash.Session
	l.page(dash.Request{Page: dash.PageSession, ID: "hooked"}, &ses)
	if ses.Who != want["hooked"] || ses.Bound != events.BoundByHook || ses.Client != "claude-code 2.1" {
		t.Errorf("session page: %+v, bound %q, client %q; want %+v, bound by the hook, client claude-code 2.1", ses.Who, ses.Bound, ses.Client, want["hooked"])
	}
	for _, e := range ses.Timeline {
		if strings.Contains(string(e.Data), "secretHash") || strings.Contains(string(e.Data), "sha256:") {
			t.Errorf("session page, %s: shows a secret's hash: %s", e.Type, e.Data)
		}
	}
	var r dash.Rule
	l.page(dash.Request{Page: dash.PageRule, ID: rule}, &r)
	if len(r.Applied) != 2 {
		t.Fatalf("rule page: %d applications, want 2", len(r.Applied))
	}
	for _, a := range r.Applied {
		if a.Who != want[a.SessionID] {
			t.Errorf("rule page, application of %s: %+v, want %+v", a.SessionID, a.Who, want[a.SessionID])
		}
	}
	var ov dash.Overview
	l.page(dash.Request{Page: dash.PageOverview}, &ov)
	if got, w := fmt.Sprint(ov.Hosts), "[{claude-code 1} {cursor-vscode 1.0 1}]"; got != w {
		t.Errorf("overview hosts: %s, want %s", got, w)
	}
	if got, w := fmt.Sprint(ov.Models), "[{claude-sonnet-4-5 1} {unknown 1}]"; got != w {
		t.Errorf("overview models: %s, want %s", got, w)
	}
}
