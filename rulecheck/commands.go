package rulecheck

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"time"

	"github.com/clumsies/clumsies/content"
)

// Bounds of a command check's run.
const (
	// CommandTimeout is how long a command may run before it is killed
	// (its whole process group) and fails.
	CommandTimeout = 10 * time.Second
	// MaxOutput bounds the output of a command kept for the agent; the
	// rest is counted, not kept.
	MaxOutput = 4 << 10
)

// Limits bound the commands' runs; zero fields take the defaults above.
type Limits struct {
	Timeout   time.Duration
	MaxOutput int
}

// Commands runs the command checks of the set that apply to some of
// files (workspace-relative) in folder dir, one run per check with those
// files as its arguments: `/bin/sh -c RUN clumsies-check FILE...`. An
// exit status 0 is a pass; another, a run killed after the timeout, or a
// command that cannot start, is a failure whose Output is what it printed
// (bounded) and why. The commands of a team rule (Source "team") never
// run: a team catalog pulled from a hub does not run programs in the
// repository. The caller decides whether commands run at all ([enforce]
// checks = "run").
func (s *Set) Commands(ctx context.Context, dir string, files []string, lim Limits) []Result {
	lim.Timeout = cmp.Or(lim.Timeout, CommandTimeout)
	lim.MaxOutput = cmp.Or(lim.MaxOutput, MaxOutput)
	var out []Result
	for _, c := range s.checks {
		if c.c.Run == "" || c.rule.Source != "" {
			continue
		}
		var in []string
		for _, f := range files {
			if c.applies(f) {
				in = append(in, f)
			}
		}
		if len(in) == 0 {
			continue
		}
		out = append(out, c.run(ctx, dir, in, lim)...)
	}
	return out
}

// run runs command check c on files, and returns a result per file: all
// pass or all fail with the command's output.
func (c compiled) run(ctx context.Context, dir string, files []string, lim Limits) []Result {
	ctx, cancel := context.WithTimeout(ctx, lim.Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "/bin/sh", append([]string{"-c", c.c.Run, "clumsies-check"}, files...)...)
	cmd.Dir = dir
	outBuf := &capped{max: lim.MaxOutput}
	cmd.Stdout, cmd.Stderr = outBuf, outBuf
	killGroup(cmd)
	cmd.WaitDelay = time.Second
	err := cmd.Run()
	why := ""
	switch {
	case ctx.Err() != nil && errors.Is(ctx.Err(), context.DeadlineExceeded):
		why = fmt.Sprintf("killed after %s", lim.Timeout)
	case err != nil:
		why = err.Error()
	}
	out := make([]Result, 0, len(files))
	for _, f := range files {
		r := c.result(f)
		if why != "" {
			text := outBuf.String()
			if outBuf.dropped > 0 {
				text += fmt.Sprintf("\n[%d more bytes of output]", outBuf.dropped)
			}
			text += "\n[" + why + "]"
			r.Pass, r.Message, r.Output, r.Match = false, c.c.Message, text, content.Hash([]byte(text))
		}
		out = append(out, r)
	}
	return out
}

// capped keeps the first max bytes written to it and counts the rest.
// (The buffer is a field, not embedded: an embedded one's ReadFrom would
// let io.Copy pass the bound.)
type capped struct {
	buf     bytes.Buffer
	max     int
	dropped int
}

func (w *capped) Write(p []byte) (int, error) {
	keep := min(len(p), max(w.max-w.buf.Len(), 0))
	w.buf.Write(p[:keep])
	w.dropped += len(p) - keep
	return len(p), nil
}

func (w *capped) String() string { return w.buf.String() }
