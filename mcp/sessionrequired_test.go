package mcp

import (
	"fmt"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/events"
)

// Over a connection that keeps its session (stdio, an in-memory pipe, an
// HTTP session) a session_id argument is never read: a call before
// memsetup that gives one hears why it was not taken, and is not told to
// pass session_id, which would change nothing.
func TestSessionRequired_SaysWhyTheIDWasNotTaken(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.seed()
	c := e.connect()
	res := mustFail(t, c, "memdisc", map[string]any{"session_id": "host-1"}, events.CodeSessionRequired)
	msg := fmt.Sprint(res["error"])
	for _, want := range []string{`"host-1" was not looked at`, "does not read the session_id argument", `memsetup on this connection with session_id "host-1"`} {
		mustContain(t, msg, want, "session_required with a session_id over a connection that keeps its session")
	}
	if strings.Contains(msg, "repeat the call with session_id") {
		t.Errorf("session_required over a kept connection tells the agent to pass session_id: %q", msg)
	}
	res = mustFail(t, c, "memdisc", map[string]any{}, events.CodeSessionRequired)
	if msg := fmt.Sprint(res["error"]); strings.Contains(msg, statelessVersion) || !strings.Contains(msg, "call memsetup first") {
		t.Errorf("session_required without session_id over a kept connection: %q, want only the memsetup advice", msg)
	}
}

// Over stateless HTTP a session_id no memsetup set up is named as such.
func TestSessionRequired_StatelessNamesTheUnknownID(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.seed()
	_, call := e.statelessClient()
	m := call("memdisc", map[string]any{"session_id": "never-set-up"})
	if m["code"] != "session_required" || !strings.Contains(fmt.Sprint(m["error"]), `session_id "never-set-up" names no session that memsetup set up`) {
		t.Fatalf("memdisc over stateless HTTP with an unknown session_id: %v", m)
	}
}
