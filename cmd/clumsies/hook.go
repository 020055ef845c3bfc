package main

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/clumsies/clumsies/adapt"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/node"
	"github.com/clumsies/clumsies/projections"
	"github.com/clumsies/clumsies/workspace"
)

// HookCommand is what a host's hooks run: `clumsies hook EVENT --host
// HOST`. It reads the host's JSON on stdin, records the event and prints
// the host's answer. It fails open: whatever goes wrong (no workspace, an
// owner that does not answer, bad input), the agent goes on, stdout gets
// the host's neutral answer and stderr one line saying why. It never exits
// with status 2, which some hosts read as "block".
type HookCommand struct {
	m *Main
}

// Bounds of one hook run: hosts wait for it on every prompt.
const (
	hookTimeout    = 20 * time.Second
	hookAttachWait = 3 * time.Second
	hookRetryFor   = 3 * time.Second
	// stopBlockLimit is how many stops in a row the stop hook refuses
	// before it lets an agent that does not report go.
	stopBlockLimit = 2
	// maxHookInput bounds what the hook reads from stdin.
	maxHookInput = 16 << 20
)

// Run implements command.
func (c *HookCommand) Run(ctx context.Context, args []string) error {
	fs := c.m.newFlags("hook", "hook EVENT --host HOST [--workspace DIR]   (EVENT: session-start, user-prompt, stop, pre-tool, post-tool)")
	host := fs.String("host", "", "the `HOST` whose hook this is: "+strings.Join(adapt.Names(), ", "))
	dir := fs.String("workspace", "", "workspace `DIR` (default: found from the folder the host names in its input, else the current folder)")
	var event string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		event, args = args[0], args[1:]
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return errSilent{1}
	}
	if fs.NArg() > 0 {
		return c.misuse("unexpected argument %q", fs.Arg(0))
	}
	ev, err := adapt.ParseEvent(event)
	if err != nil {
		return c.misuse("%v", err)
	}
	h, err := adapt.Lookup(*host)
	if err != nil {
		return c.misuse("--host: %v", err)
	}
	ctx, cancel := context.WithTimeout(ctx, hookTimeout)
	defer cancel()
	by := adapt.RunBy(h, os.Getenv) // Copilot CLI runs Claude Code's hooks too
	answer, err := c.handle(ctx, by, by != h, ev, *dir)
	if err != nil {
		fmt.Fprintf(c.m.Stderr, "clumsies hook %s: %v; the agent goes on\n", ev, err)
	}
	_, werr := c.m.Stdout.Write(by.Answer(ev, answer))
	return werr
}

// misuse reports a hook command that cannot work as written (exit 1,
// which every host treats as a failed hook that does not stop the agent).
func (c *HookCommand) misuse(format string, args ...any) error {
	fmt.Fprintf(c.m.Stderr, "clumsies hook: "+format+"; fix the hook's command in the host's config (clumsies adapt HOST rewrites it)\n", args...)
	return errSilent{1}
}

// handle does the work of one hook and returns the answer. On error the
// answer is still what the host should get (a session start still tells
// the agent its id). guest is set when h runs a hook configured for
// another host (Copilot CLI running Claude Code's): where h's own hooks
// are wired too, they record the session and the guest stays silent.
func (c *HookCommand) handle(ctx context.Context, h *adapt.Host, guest bool, ev adapt.Event, dir string) (adapt.Answer, error) {
	raw, err := io.ReadAll(io.LimitReader(c.m.Stdin, maxHookInput))
	if err != nil {
		return adapt.Answer{}, fmt.Errorf("read stdin: %w", err)
	}
	in, err := h.Read(ev, raw)
	if err != nil {
		return adapt.Answer{}, err
	}
	if ev == adapt.PreTool {
		return c.preTool(ctx, h, guest, in, dir)
	}
	var answer adapt.Answer
	if ev == adapt.SessionStart {
		answer.Context = adapt.SetupContext(in.SessionID)
	}
	if ev == adapt.Stop && in.Continuing {
		return answer, nil // the host's loop guard: never hold an agent twice in a row
	}
	if in.Echo {
		return answer, nil // our stop reason sent back as a prompt: not the user's, and no reset of the bound
	}
	if ev == adapt.PostTool && len(in.Files) == 0 {
		return answer, nil // a tool that changed no file: nothing to record
	}
	ws, err := hookWorkspace(dir, in.Dir)
	if err != nil {
		return answer, err
	}
	if home, _ := os.UserHomeDir(); guest && adapt.CopilotHooked(ws.Root, home) {
		return adapt.Answer{}, nil
	}
	hd, err := node.Attach(ctx, ws, node.Options{AttachWait: hookAttachWait, RetryFor: hookRetryFor})
	if err != nil {
		return answer, fmt.Errorf("open the workspace %s: %w", ws.Root, err)
	}
	defer hd.Close()
	switch ev {
	case adapt.SessionStart:
		return answer, record(ctx, hd, in.SessionID, events.TypeSessionStart,
			events.SessionStartData{Host: h.Name, Source: in.Source, Model: in.Model})
	case adapt.UserPrompt:
		return answer, record(ctx, hd, in.SessionID, events.TypeUserPrompt, promptData(h.Name, in.Prompt, ws.Config.RecordPrompts))
	case adapt.PostTool:
		return answer, postTool(ctx, hd, h, in)
	}
	return c.stop(ctx, hd, h, in)
}

// stop decides a stop from the ledger: it blocks while the session's last
// prompt has no report or rejection after it, up to stopBlockLimit times in
// a row, recording each block.
func (c *HookCommand) stop(ctx context.Context, hd *node.Handle, h *adapt.Host, in adapt.Input) (adapt.Answer, error) {
	facts, err := hd.SessionCompliance(ctx, in.SessionID)
	switch {
	case errors.Is(err, projections.ErrNotFound):
		return adapt.Answer{}, nil
	case err != nil:
		return adapt.Answer{}, fmt.Errorf("read the session's facts: %w", err)
	case !facts.Pending:
		return adapt.Answer{}, nil
	case facts.BlocksInRow >= stopBlockLimit:
		fmt.Fprintf(c.m.Stderr, "clumsies hook stop: session %s stops without a report after %d blocked stops\n", in.SessionID, facts.BlocksInRow)
		return adapt.Answer{}, nil
	}
	data := events.StopBlockedData{Host: h.Name, Blocks: int(facts.BlocksInRow) + 1, Limit: stopBlockLimit}
	if err := record(ctx, hd, in.SessionID, events.TypeStopBlocked, data); err != nil {
		return adapt.Answer{}, err // not recorded, not blocked: the bound must hold
	}
	return adapt.Answer{Block: true, Reason: adapt.StopReason(in.SessionID)}, nil
}

// hookWorkspace finds the workspace: the flag, else the folder the host
// named, else its project folder variables, else the current folder.
func hookWorkspace(flagDir, hostDir string) (*workspace.Workspace, error) {
	start := cmp.Or(flagDir, hostDir, os.Getenv("CLAUDE_PROJECT_DIR"), os.Getenv("GEMINI_PROJECT_DIR"), ".")
	root, err := workspace.Find(start)
	if err != nil {
		return nil, err
	}
	return workspace.Open(root)
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

// promptData is the payload of a user prompt: its hash and length, and its
// text (cut at a rune boundary) when the workspace keeps prompts.
func promptData(host, prompt string, keepText bool) events.UserPromptData {
	sum := sha256.Sum256([]byte(prompt))
	d := events.UserPromptData{Host: host, SHA256: "sha256:" + hex.EncodeToString(sum[:]), Length: len(prompt)}
	if keepText {
		d.Text = prompt
		if len(d.Text) > events.MaxPromptText {
			cut := events.MaxPromptText
			for cut > 0 && !utf8.RuneStart(d.Text[cut]) {
				cut--
			}
			d.Text, d.TextTruncated = d.Text[:cut], true
		}
	}
	return d
}
