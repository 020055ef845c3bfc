package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/events"
)

// appendSession appends an event of session id, as a hook or an earlier
// version of the server did, and waits until the catalog has applied it.
func (e *env) appendSession(id string, t events.Type, payload any) {
	e.tb.Helper()
	ev, err := events.New(testWorkspace, t, payload)
	if err != nil {
		e.tb.Fatal(err)
	}
	ev.SessionID = id
	if t.IsTool() {
		ev.Tool = "memsetup"
	}
	seq, err := e.log.Append(context.Background(), ev)
	if err != nil {
		e.tb.Fatal(err)
	}
	if err := e.catalog.WaitFor(context.Background(), seq); err != nil {
		e.tb.Fatal(err)
	}
}

func setupWith(id, secret string) map[string]any {
	args := map[string]any{"session_id": id, "knownHashes": map[string]any{"META_PROMPT.md": ""}}
	if secret != "" {
		args["session_secret"] = secret
	}
	return args
}

// A session no hook announced is bound to its first memsetup, which
// issues it a secret: another connection that memsetups the same id is
// refused without that secret, and with a wrong one, and the owner keeps
// working; with the secret (a reconnect) it gets the session. The secret
// is never recorded: only its hash, and a refused call's arguments keep
// it out.
func TestBinding_MemsetupIssuesTheSecret(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.seed()
	owner, borrower := e.connect(), e.connect()
	set := setup(t, owner, "victim-1")
	secret, _ := set["sessionSecret"].(string)
	if !strings.HasPrefix(secret, "css-") {
		t.Fatalf("memsetup of a fresh session: %v, want a sessionSecret", set)
	}
	if again := setup(t, owner, "victim-1"); again["sessionSecret"] != nil {
		t.Fatalf("a repeated memsetup on the bound connection: %v, want no second secret", again)
	}
	for _, bad := range []string{"", "css-00000000000000000000000000000000"} {
		res := mustFail(t, borrower, "memsetup", setupWith("victim-1", bad), events.CodeSessionConflict)
		mustContain(t, fmt.Sprint(res["error"]), "session_secret", "the borrower's refusal")
	}
	mustFail(t, borrower, "memdisc", map[string]any{}, events.CodeSessionRequired)
	mustOK(t, owner, "memdisc", map[string]any{})
	if res := mustOK(t, borrower, "memsetup", setupWith("victim-1", secret)); res["sessionSecret"] != nil {
		t.Fatalf("memsetup with the secret: %v, want no new secret", res)
	}

	var setups int
	for _, ev := range e.events() {
		if strings.Contains(string(ev.Data), secret) || strings.Contains(string(ev.Data), "css-0000") {
			t.Errorf("event %s %s holds a secret in clear: %s", ev.Type, ev.Outcome, ev.Data)
		}
		if ev.Type != events.TypeSetup || ev.Outcome != events.OutcomeOK {
			continue
		}
		setups++
		var d events.SetupData
		if err := json.Unmarshal(ev.Data, &d); err != nil {
			t.Fatal(err)
		}
		if d.Bound != events.BoundByMemsetup || ev.Unbound || ev.Conn == "" || ev.Client != "clumsies-client" || d.Client == nil || d.Client.Name != "clumsies-client" {
			t.Errorf("setup event: bound %q, unbound %v, conn %q, client %q/%v; want bound by memsetup, with conn and client", d.Bound, ev.Unbound, ev.Conn, ev.Client, d.Client)
		}
		if (setups == 1) != (d.SecretHash == events.SecretHash(secret)) {
			t.Errorf("setup %d records secret hash %q; want the issued secret's hash on the first only", setups, d.SecretHash)
		}
	}
	if setups != 3 {
		t.Fatalf("got %d successful setups, want 3", setups)
	}
}

// A session whose host's session-start hook handed the agent a secret is
// bound by it from the first memsetup on: without it even the first
// memsetup is refused; with it the session is set up, bound by the hook;
// a resume's new secret works as well as the first.
func TestBinding_HookSecret(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.seed()
	first, resumed := events.NewSessionSecret(), events.NewSessionSecret()
	e.appendSession("hooked-1", events.TypeSessionStart, events.SessionStartData{Host: "claude-code", SecretHash: events.SecretHash(first)})
	borrower := e.connect()
	mustFail(t, borrower, "memsetup", setupWith("hooked-1", ""), events.CodeSessionConflict)
	owner := e.connect()
	if res := mustOK(t, owner, "memsetup", setupWith("hooked-1", first)); res["sessionSecret"] != nil {
		t.Fatalf("memsetup with the hook's secret: %v, want no secret issued", res)
	}
	e.appendSession("hooked-1", events.TypeSessionStart, events.SessionStartData{Host: "claude-code", Source: "resume", SecretHash: events.SecretHash(resumed)})
	mustOK(t, e.connect(), "memsetup", setupWith("hooked-1", resumed))
	evs := e.toolEvents()
	var d events.SetupData
	if err := json.Unmarshal(evs[len(evs)-1].Data, &d); err != nil || d.Bound != events.BoundByHook || d.SecretHash != "" {
		t.Fatalf("the resumed setup: %+v (%v), want bound by the hook and no secret of its own", d, err)
	}
}

// A session set up before sessions were bound (its setup recorded no
// secret) keeps working from any connection, unbound, and says so.
func TestBinding_LegacySessionStaysUnbound(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.seed()
	e.appendSession("old-1", events.TypeSetup, events.SetupData{Hash: "sha256:" + strings.Repeat("0", 64), Changed: true})
	c := e.connect()
	if res := setup(t, c, "old-1"); res["sessionSecret"] != nil {
		t.Fatalf("memsetup of a legacy session: %v, want no secret", res)
	}
	mustOK(t, c, "memdisc", map[string]any{})
	evs := e.toolEvents()
	for _, ev := range evs[len(evs)-2:] {
		if !ev.Unbound || ev.SessionID != "old-1" {
			t.Errorf("%s of the legacy session: session %q, unbound %v; want old-1, unbound", ev.Type, ev.SessionID, ev.Unbound)
		}
	}
}
