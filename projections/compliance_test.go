package projections_test

import (
	"errors"
	"testing"

	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections"
)

// hook marks a hook event of session id: no tool, like `clumsies hook`
// writes them.
func hook(id string) option {
	return func(ev *events.Event) { ev.SessionID, ev.Tool, ev.DurationUs = id, "", 0 }
}

func TestStore_Compliance(t *testing.T) {
	l := newLedger(t)
	prompt := events.UserPromptData{Host: "claude-code", SHA256: "sha256:00", Length: 3}
	evs := []events.Event{
		// "good": announced, set up with the announced id, every prompt answered.
		l.add(events.TypeSessionStart, events.SessionStartData{Host: "claude-code", Source: "startup"}, hook("good")),
		l.add(events.TypeSetup, events.SetupData{}, inSession("good")),
		l.add(events.TypeUserPrompt, prompt, hook("good")),
		l.add(events.TypeStopBlocked, events.StopBlockedData{Host: "claude-code", Blocks: 1, Limit: 2}, hook("good")),
		l.refer(ruleA, []string{"Steps/1", "Style"}, inSession("good")),
		l.add(events.TypeAgentReport, events.AgentReportData{Summary: "x"}, inSession("good")),
		l.add(events.TypeUserPrompt, prompt, hook("good")),
		l.add(events.TypeReject, events.RejectData{Reason: "no"}, inSession("good")),
		// a second report answers nothing more
		l.add(events.TypeAgentReport, events.AgentReportData{Summary: "y"}, inSession("good")),
		// "mute": announced, set up, never reports; a failed report does not count.
		l.add(events.TypeSessionStart, events.SessionStartData{Host: "codex"}, hook("mute")),
		l.add(events.TypeSetup, events.SetupData{}, inSession("mute")),
		l.add(events.TypeUserPrompt, prompt, hook("mute")),
		l.add(events.TypeAgentReport, events.FailureData{Message: "bad"}, inSession("mute"), failed("invalid_params")),
		l.add(events.TypeStopBlocked, events.StopBlockedData{Host: "codex", Blocks: 1, Limit: 2}, hook("mute")),
		l.add(events.TypeStopBlocked, events.StopBlockedData{Host: "codex", Blocks: 2, Limit: 2}, hook("mute")),
		// "made-up": memsetup with an id no hook announced.
		l.add(events.TypeSetup, events.SetupData{}, inSession("made-up")),
		// a failed memsetup leaves no row
		l.add(events.TypeSetup, events.FailureData{Message: "bad"}, inSession("ghost"), failed("invalid_params")),
	}
	fs := vfs.NewMem()
	s := openAt(t, fs, "/db", projections.Options{})
	apply(t, s, evs...)
	want := []projections.Compliance{
		{ID: "good", Host: "claude-code", HookStarts: 1, Setups: 1, Prompts: 2, Answered: 2, Refs: 2, StopsBlocked: 1},
		{ID: "made-up", Setups: 1, InventedID: true},
		{ID: "mute", Host: "codex", HookStarts: 1, Setups: 1, Prompts: 1, StopsBlocked: 2, Pending: true, BlocksInRow: 2},
	}
	if got := s.Compliance(); jsonOf(got) != jsonOf(want) {
		t.Errorf("got %s\nwant %s", jsonOf(got), jsonOf(want))
	}
	for _, c := range want {
		if got, want := c.Compliant(), c.ID == "good"; got != want {
			t.Errorf("%s: got compliant %v, want %v", c.ID, got, want)
		}
	}
	if _, err := s.SessionCompliance("ghost"); !errors.Is(err, projections.ErrNotFound) {
		t.Errorf("ghost: got %v, want ErrNotFound", err)
	}

	t.Run("Reopen", func(t *testing.T) {
		// The rows alone give back the model, including that hooks announce
		// sessions here: a new unannounced memsetup is still flagged.
		d := digest(t, s)
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		s2 := openAt(t, fs, "/db", projections.Options{})
		if got := s2.Compliance(); jsonOf(got) != jsonOf(want) {
			t.Errorf("after reopen got %s\nwant %s", jsonOf(got), jsonOf(want))
		}
		if got := digest(t, s2); got != d {
			t.Errorf("after reopen got digest %s, want %s", got, d)
		}
		apply(t, s2, l.add(events.TypeSetup, events.SetupData{}, inSession("late")))
		if c, err := s2.SessionCompliance("late"); err != nil || !c.InventedID {
			t.Errorf("late: got %+v, %v; want an invented id", c, err)
		}
	})

	t.Run("NoHooks", func(t *testing.T) {
		// A workspace without hooks flags nobody.
		l := newLedger(t)
		s := openMem(t)
		apply(t, s, l.add(events.TypeSetup, events.SetupData{}, inSession("plain")))
		if c, err := s.SessionCompliance("plain"); err != nil || c.InventedID {
			t.Errorf("got %+v, %v; want a row without an invented id", c, err)
		}
	})
}
