package hooks

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/clumsies/clumsies/agent/adapt"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/node"
)

// Bounds of one hook run: hosts wait for it on every prompt.
const (
	attachWait = 3 * time.Second
	retryFor   = 3 * time.Second
)

// Request is one run of a hook.
type Request struct {
	// Host is the host that runs the hook.
	Host *adapt.Host
	// Guest is set when Host runs a hook configured for another host
	// (Copilot CLI running Claude Code's): where Host's own hooks are
	// wired too, they record the session and the guest stays silent.
	Guest bool
	Event adapt.Event
	// Dir is the workspace folder the hook's command names; "" to find
	// it from the folder the host names in its input.
	Dir string
	// Input is what the host wrote on the hook's stdin.
	Input []byte
}

// Outcome is what a run decided.
type Outcome struct {
	// Answer is what the host gets. On error it is still what the host
	// should get (a session start still tells the agent its id).
	Answer adapt.Answer
	// Note, when set, is a line for the user (stderr): a stop let go
	// without a report.
	Note string
}

// Handle runs one hook: it reads the host's input, records the event
// and decides the answer. Like every hook it fails open: on error the
// outcome's answer lets the agent go on.
func Handle(ctx context.Context, r Request) (Outcome, error) {
	in, err := r.Host.Read(r.Event, r.Input)
	if err != nil {
		return Outcome{}, err
	}
	if err := checkSessionID(r, in.SessionID); err != nil {
		return Outcome{}, err
	}
	if r.Event == adapt.PreTool {
		return preTool(ctx, r, in)
	}
	var answer adapt.Answer
	var secret string
	if r.Event == adapt.SessionStart {
		// Every start (a resume too) hands the agent a fresh secret with
		// its id; the ledger keeps its hash, and any secret a start of the
		// session handed binds it (docs/sessions.md).
		secret = events.NewSessionSecret()
		answer.Context = adapt.SetupContext(in.SessionID, secret)
	}
	if r.Event == adapt.Stop && in.Continuing {
		return Outcome{Answer: answer}, nil // the host's loop guard: never hold an agent twice in a row
	}
	if in.Echo {
		return Outcome{Answer: answer}, nil // our stop reason sent back as a prompt: not the user's, and no reset of the bound
	}
	pl, err := findPlace(r.Dir, in.Dir, in.Files)
	if err != nil {
		return Outcome{Answer: answer}, err
	}
	ws := pl.ws
	if home, _ := os.UserHomeDir(); r.Guest && adapt.CopilotHooked(ws.Root, home) {
		return Outcome{}, nil
	}
	if r.Event == adapt.PostTool {
		a, err := postTool(ctx, r, in)
		return Outcome{Answer: a}, err
	}
	hd, err := node.Attach(ctx, ws, node.Options{AttachWait: attachWait, RetryFor: retryFor})
	if err != nil {
		return Outcome{Answer: answer}, fmt.Errorf("open the workspace %s: %w", ws.Root, err)
	}
	defer hd.Close()
	if r.Event == adapt.SessionStart || r.Event == adapt.UserPrompt {
		absorb(ctx, hd, pl)
	}
	switch r.Event {
	case adapt.SessionStart:
		return Outcome{Answer: answer}, record(ctx, hd, in.SessionID, events.TypeSessionStart,
			events.SessionStartData{Host: r.Host.Name, Source: in.Source, Model: in.Model, SecretHash: events.SecretHash(secret)})
	case adapt.UserPrompt:
		return Outcome{Answer: answer}, record(ctx, hd, in.SessionID, events.TypeUserPrompt,
			promptData(r.Host.Name, in.Prompt, ws.Config.RecordPrompts))
	}
	return stop(ctx, r, pl, hd, in)
}

// absorb brings the working tree's snapshot up to date without recording
// anything: at a session's start (the first check of a tree is its
// baseline) and at each prompt, what changed between turns is the user's,
// not the agent's. It is best effort.
func absorb(ctx context.Context, hd *node.Handle, pl place) {
	if _, err := tree(ctx, hd, pl, node.TreeAbsorb, "", "", nil); err != nil {
		fmt.Fprintf(os.Stderr, "clumsies hook: check the working tree: %v\n", err)
	}
}

// record appends one hook event of session id.
func record(ctx context.Context, hd *node.Handle, session string, t events.Type, payload any) error {
	ev, err := events.New(hd.Workspace().ID(), t, payload)
	if err != nil {
		return err
	}
	ev.SessionID = session
	if err := hd.Record(ctx, ev); err != nil {
		return fmt.Errorf("record %s: %w", t, err)
	}
	return nil
}

// checkSessionID refuses a session id outside the one rule for an id
// (events.ValidSessionID): nothing is recorded under it, and the agent is
// not told to call memsetup with an id memsetup would refuse.
func checkSessionID(r Request, id string) error {
	if events.ValidSessionID(id) {
		return nil
	}
	shown := id
	if len(shown) > 40 {
		shown = shown[:40] + "..."
	}
	return fmt.Errorf("the %s %s input names session id %q (%d bytes), which is not a session id (%s): "+
		"nothing was recorded and the agent was not told it; check what the host passes as its session id",
		r.Host.Name, r.Event, shown, len(id), events.SessionIDRule)
}
