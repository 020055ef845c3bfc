package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/clumsies/clumsies/agent/adapt"
	"github.com/clumsies/clumsies/agent/hooks"
)

// HookCommand is what a host's hooks run: `clumsies hook EVENT --host
// HOST`. It reads the host's JSON on stdin, records the event and prints
// the host's answer. It fails open: whatever goes wrong (no workspace, an
// owner that does not answer, bad input), the agent goes on, stdout gets
// the host's neutral answer and stderr one line saying why. It never exits
// with status 2, which some hosts read as "block", but for the one host
// that reads a refusal from nothing else: Windsurf's gate refusing a tool
// exits 2 with its reason on stderr (adapt.Reply).
type HookCommand struct {
	m *Main
}

// Bounds of one hook run: hosts wait for it on every prompt.
const (
	hookTimeout = 20 * time.Second
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
	reply := by.Reply(ev, answer)
	if reply.Stderr != "" {
		fmt.Fprintln(c.m.Stderr, reply.Stderr)
	}
	if _, err := c.m.Stdout.Write(reply.Stdout); err != nil {
		return err
	}
	if reply.Exit != 0 {
		return errSilent{reply.Exit}
	}
	return nil
}

// misuse reports a hook command that cannot work as written (exit 1,
// which every host treats as a failed hook that does not stop the agent).
func (c *HookCommand) misuse(format string, args ...any) error {
	fmt.Fprintf(c.m.Stderr, "clumsies hook: "+format+"; fix the hook's command in the host's config (clumsies adapt HOST rewrites it)\n", args...)
	return errSilent{1}
}

// handle reads the host's input and runs the hook (hooks.Handle): it
// returns the host's answer, and says on stderr a stop let go without a
// report. On error the answer is still what the host should get.
func (c *HookCommand) handle(ctx context.Context, h *adapt.Host, guest bool, ev adapt.Event, dir string) (adapt.Answer, error) {
	raw, err := io.ReadAll(io.LimitReader(c.m.Stdin, maxHookInput))
	if err != nil {
		return adapt.Answer{}, fmt.Errorf("read stdin: %w", err)
	}
	out, err := hooks.Handle(ctx, hooks.Request{Host: h, Guest: guest, Event: ev, Dir: dir, Input: raw})
	if out.Note != "" {
		fmt.Fprintf(c.m.Stderr, "clumsies hook %s: %s\n", ev, out.Note)
	}
	return out.Answer, err
}
