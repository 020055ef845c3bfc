package mcp

import (
	"strings"
	"testing"

	"github.com/clumsies/clumsies/events"
)

// TestMemload_UnknownIDMessage checks memload's answer for an id it does
// not know against the wire contract: the message starts with
// "Unknown rule id: <id>", and the hint follows it.
func TestMemload_UnknownIDMessage(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.seed()
	c := e.connect()
	setup(t, c, "s-1")
	for id, hint := range map[string]string{"p-nope": "memdisc", "META_PROMPT.md": "memsetup"} {
		res := mustFail(t, c, "memload", map[string]any{"ids": []string{id}, "knownHashes": map[string]any{id: ""}}, events.CodeUnknownRule)
		msg, _ := res["error"].(string)
		if want := "Unknown rule id: " + id + ";"; !strings.HasPrefix(msg, want) {
			t.Errorf("memload %s: got %q, want it to start with %q", id, msg, want)
		}
		mustContain(t, msg, hint, "memload "+id+" hint")
	}
}
