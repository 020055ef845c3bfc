package main

import (
	"bytes"
	"log"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// firstCalls are five tool calls by two sessions.
var firstCalls = []call{
	{typ: "attest.setup", tool: "memsetup", session: "s1"},
	refer("s1", [2]string{"p-1", "Steps/1"}, [2]string{"p-1", "Steps/2"}),
	refer("s2", [2]string{"p-1", "Steps/1"}, [2]string{"p-2", "Rule"}),
	{typ: "attest.refer", tool: "memref", session: "s2", code: "unknown_rule"},
	{typ: "attest.load", tool: "memload", session: "s2"},
}

// laterCalls are three more, by a third session.
var laterCalls = []call{
	refer("s3", [2]string{"p-2", "Rule"}),
	refer("s3", [2]string{"p-1", "Steps/1"}),
	{typ: "attest.agent_report", tool: "agentreport", session: "s3"},
}

// counts is what a test expects a tally to hold.
type counts struct {
	refs, constraints map[string]int
	tools             map[string]toolCount
	sessions          int
}

func checkTally(tb testing.TB, got *tally, want counts) {
	tb.Helper()
	if !maps.Equal(got.Refs, want.refs) {
		tb.Errorf("refs per rule: got %v, want %v", got.Refs, want.refs)
	}
	if !maps.Equal(got.Constraints, want.constraints) {
		tb.Errorf("refs per constraint: got %v, want %v", got.Constraints, want.constraints)
	}
	tools := map[string]toolCount{}
	for name, c := range got.Tools {
		tools[name] = *c
	}
	if !maps.Equal(tools, want.tools) {
		tb.Errorf("tools: got %v, want %v", tools, want.tools)
	}
	if len(got.Sessions) != want.sessions {
		tb.Errorf("sessions: got %d (%v), want %d", len(got.Sessions), got.Sessions, want.sessions)
	}
}

var (
	firstCounts = counts{
		refs:        map[string]int{"p-1": 3, "p-2": 1},
		constraints: map[string]int{"p-1#Steps/1": 2, "p-1#Steps/2": 1, "p-2#Rule": 1},
		tools:       map[string]toolCount{"memsetup": {1, 0}, "memref": {3, 1}, "memload": {1, 0}},
		sessions:    2,
	}
	laterCounts = counts{
		refs:        map[string]int{"p-1": 1, "p-2": 1},
		constraints: map[string]int{"p-1#Steps/1": 1, "p-2#Rule": 1},
		tools:       map[string]toolCount{"memref": {2, 0}, "agentreport": {1, 0}},
		sessions:    1,
	}
	allCounts = counts{
		refs:        map[string]int{"p-1": 4, "p-2": 2},
		constraints: map[string]int{"p-1#Steps/1": 3, "p-1#Steps/2": 1, "p-2#Rule": 2},
		tools:       map[string]toolCount{"memsetup": {1, 0}, "memref": {5, 1}, "memload": {1, 0}, "agentreport": {1, 0}},
		sessions:    3,
	}
)

func TestConsumer_Resume(t *testing.T) {
	t.Run("FromDurablePosition", func(t *testing.T) {
		url, l := startServer(t)
		appendCalls(t, l, firstCalls...)
		publish(t, l) // not a tool event: filtered out
		cfg := config{url: url, token: token, ws: workspace, durable: "counts"}

		first := open(t, cfg)
		drain(t, first, len(firstCalls))
		checkTally(t, first.tally, firstCounts)
		first.close()

		appendCalls(t, l, laterCalls...)
		var said bytes.Buffer
		log.SetOutput(&said)
		again := open(t, cfg)
		log.SetOutput(os.Stderr)
		if !strings.Contains(said.String(), "consumer counts on CLUMSIES_"+workspace+" resumes after stream seq 5") {
			t.Errorf("on a restart it said %q, want where its consumer resumes (after seq 5)", said.String())
		}
		drain(t, again, len(laterCalls))
		checkTally(t, again.tally, laterCounts)
		if again.tally.LastSeq != 9 {
			t.Errorf("got last seq %d, want 9", again.tally.LastSeq)
		}
	})

	t.Run("WithState", func(t *testing.T) {
		url, l := startServer(t)
		appendCalls(t, l, firstCalls...)
		cfg := config{url: url, token: token, ws: workspace, durable: "kept", state: filepath.Join(t.TempDir(), "counts.json")}

		first := open(t, cfg)
		drain(t, first, len(firstCalls))
		first.close()

		appendCalls(t, l, laterCalls...)
		again := open(t, cfg)
		drain(t, again, len(firstCalls)+len(laterCalls))
		checkTally(t, again.tally, allCounts)
	})

	t.Run("StreamOfEveryWorkspace", func(t *testing.T) {
		url, l := startServer(t)
		appendCalls(t, l, firstCalls...)
		c := open(t, config{url: url, token: token, stream: "CLUMSIES_" + workspace, durable: "all"})
		drain(t, c, len(firstCalls))
		checkTally(t, c.tally, firstCounts)
	})

	t.Run("WrongToken", func(t *testing.T) {
		url, _ := startServer(t)
		if c, err := openConsumer(testCtx(t), config{url: url, token: "nope", ws: workspace, durable: "x"}); err == nil {
			c.close()
			t.Errorf("got a consumer with a wrong token, want an error")
		}
	})
}
