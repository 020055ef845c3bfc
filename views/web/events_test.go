package web_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/clumsies/clumsies/events"
)

// TestHandler_Events follows the ledger through web while an agent works
// over /mcp: a type filter delivers only refer events, and Last-Event-ID
// resumes after the last one seen.
func TestHandler_Events(t *testing.T) {
	b := newBackend(t)
	ts := b.serve(t, "")
	refers := openEvents(t, ts.URL+"/events?type=attest.refer", nil)

	agent := connect(t, ts.URL+"/mcp", "")
	agent.mustTool("memsetup", setupArgs("sse-1"))
	agent.mustTool("memdisc", map[string]any{})
	agent.mustTool("memload", map[string]any{"ids": []string{ruleID}, "knownHashes": map[string]any{ruleID: ""}})
	refer := func(constraint string) {
		agent.mustTool("memref", map[string]any{"refs": []any{map[string]any{"ruleId": ruleID, "constraintId": constraint}}})
	}
	refer("Steps/1")
	agent.mustTool("agentreport", map[string]any{"summary": "first half"})
	refer("Steps/2")

	var lastID string
	for i, want := range []string{"Steps/1", "Steps/2"} {
		m, ev := refers.nextEvent(t)
		if m.event != string(events.TypeRefer) || ev.Type != events.TypeRefer {
			t.Fatalf("event %d: got %s (data type %s), want only attest.refer", i, m.event, ev.Type)
		}
		if ev.SessionID != "sse-1" || !strings.Contains(string(ev.Data), `"constraintId":"`+want+`"`) {
			t.Fatalf("event %d: got session %q data %s, want session sse-1 and constraint %s", i, ev.SessionID, ev.Data, want)
		}
		if i == 0 {
			lastID = m.id
		}
	}
	refers.quiet(t, 50*time.Millisecond)
	refers.close()

	// Missed while away: a third refer, and a report that the filter drops.
	refer("Steps/1")
	agent.mustTool("agentreport", map[string]any{"summary": "done"})

	again := openEvents(t, ts.URL+"/events?type=attest.refer", map[string]string{"Last-Event-ID": lastID})
	var got []string
	for range 2 {
		m, ev := again.nextEvent(t)
		if ev.Type != events.TypeRefer {
			t.Fatalf("resumed stream: got %s, want only attest.refer", m.event)
		}
		got = append(got, m.id)
	}
	all := b.events(t)
	var want []string
	for _, ev := range all {
		if ev.Type == events.TypeRefer && ev.Seq > parseSeq(t, lastID) {
			want = append(want, ev.ID)
		}
	}
	if len(want) != 2 {
		t.Fatalf("got %d refer events after %s in the log, want 2", len(want), lastID)
	}
	for i, id := range got {
		if ev := all[parseSeq(t, id)-1]; ev.ID != want[i] {
			t.Fatalf("resumed stream message %d: got sequence %s (event %s), want event %s", i, id, ev.ID, want[i])
		}
	}
	again.quiet(t, 50*time.Millisecond)
}

func TestHandler_EventsMethod(t *testing.T) {
	ts := newBackend(t).serve(t, "")
	resp, body := do(t, http.MethodPost, ts.URL+"/events", nil, "")
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Fatalf("POST /events: got status %d (%s), want 405", resp.StatusCode, body)
	}
	if got := resp.Header.Get("Allow"); !strings.Contains(got, "GET") {
		t.Errorf("POST /events: got Allow %q, want GET", got)
	}
}

func parseSeq(tb testing.TB, id string) uint64 {
	tb.Helper()
	n, err := strconv.ParseUint(id, 10, 64)
	if err != nil || n == 0 {
		tb.Fatalf("got SSE id %q, want a stream sequence", id)
	}
	return n
}
