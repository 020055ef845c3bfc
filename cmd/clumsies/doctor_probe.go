package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/clumsies/clumsies/agent/adapt"
	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/workspace"
)

// probeTimeout bounds one probe: the hosts give a hook 30 s.
const probeTimeout = 30 * time.Second

// denyProbe is the file the must-deny probe edits: the gate's own config,
// which block mode refuses to any agent.
var denyProbe = filepath.Join(workspace.DirName, workspace.ConfigName)

// allowProbes are the files the must-allow probe may edit, the first that
// no rule's paths match.
var allowProbes = []string{".clumsies-doctor-probe", "clumsies-doctor-probe/probe.txt"}

// probeReply is what a probe's hook printed and exited with.
type probeReply struct {
	Stdout string `json:"stdout"`
	Stderr string `json:"stderr"`
	Exit   int    `json:"exit"`
}

// commandChecks checks that each program the hook lines run can be found
// as the shell finds it: on PATH, or at the path the line names.
func commandChecks(ctx context.Context, lines []adapt.HookLine) []doctorCheck {
	var out []doctorCheck
	seen := map[string]bool{}
	for _, l := range lines {
		if seen[l.Program] {
			continue
		}
		seen[l.Program] = true
		path, err := exec.LookPath(l.Program)
		switch {
		case err != nil && !strings.ContainsRune(l.Program, '/'):
			out = append(out, doctorCheck{Check: "command", Result: checkFail,
				Detail: fmt.Sprintf("%s is not on PATH: the hooks find no clumsies and gate nothing", l.Program),
				Fix:    fmt.Sprintf("put %s on PATH, the PATH the host runs its hooks with (go install github.com/clumsies/clumsies/cmd/clumsies@latest, or a release archive)", l.Program)})
		case err != nil:
			out = append(out, doctorCheck{Check: "command", Result: checkFail,
				Detail: fmt.Sprintf("the hooks run %s: %v", l.Program, err),
				Fix:    "install clumsies there, or run `clumsies adapt` for the host again to run it from PATH"})
		default:
			detail := fmt.Sprintf("%s is %s", l.Program, path)
			if v := programVersion(ctx, path); v != "" {
				detail += " (" + v + ")"
			}
			out = append(out, doctorCheck{Check: "command", Result: checkOK, Detail: detail})
		}
	}
	return out
}

// programVersion is the first line `PROGRAM version` prints, or "".
func programVersion(ctx context.Context, path string) string {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	b, err := exec.CommandContext(ctx, path, "version").Output()
	if err != nil {
		return ""
	}
	line, _, _ := strings.Cut(string(b), "\n")
	return strings.TrimSpace(line)
}

// prober runs a host's probes.
type prober struct {
	d        doctor
	h        *adapt.Host
	session  string
	lines    []adapt.HookLine
	adaptCmd string
	// commandOK is set when every program the hooks run was found.
	commandOK bool
}

// deny edits .clumsies/config.toml: block mode must refuse it, warn mode
// must warn.
func (p prober) deny(ctx context.Context) doctorCheck {
	c := doctorCheck{Check: "deny probe"}
	if p.d.mode == workspace.EnforceOff {
		c.Result, c.Detail = checkSkip, "gate off: [enforce] mode is off, nothing is refused"
		return c
	}
	v, reply, how, err := p.run(ctx, adapt.PreTool, filepath.Join(p.d.ws.Root, denyProbe))
	c.Reply = reply
	switch {
	case err != nil:
		c.Result, c.Detail, c.Fix = checkFail, err.Error(), p.fix(err)
	case p.d.mode == workspace.EnforceBlock && v.Refused, p.d.mode == workspace.EnforceWarn && (v.Warned || v.Refused):
		verb := map[bool]string{true: "refused", false: "warned about"}[v.Refused]
		c.Result, c.Detail = checkOK, fmt.Sprintf("%s an edit of %s (%s)", verb, filepath.ToSlash(denyProbe), how)
	default:
		want := map[workspace.EnforceMode]string{workspace.EnforceBlock: "refuse", workspace.EnforceWarn: "warn about"}[p.d.mode]
		c.Result, c.Detail = checkFail, fmt.Sprintf("did not %s an edit of %s (%s): %s", want, filepath.ToSlash(denyProbe), how, said(v, reply))
		c.Fix = "update the clumsies the hooks run (a release older than the gate answers neutrally), and run `" + p.adaptCmd + "`"
		if !p.commandOK {
			c.Fix = "see the command check"
		}
	}
	return c
}

// allow edits a file no rule applies to: no mode may refuse it.
func (p prober) allow(ctx context.Context) doctorCheck {
	c := doctorCheck{Check: "allow probe"}
	file, err := p.d.freePath()
	if err != nil {
		c.Result, c.Detail = checkSkip, err.Error()
		return c
	}
	v, reply, how, err := p.run(ctx, adapt.PreTool, filepath.Join(p.d.ws.Root, file))
	c.Reply = reply
	switch {
	case err != nil:
		c.Result, c.Detail, c.Fix = checkFail, err.Error(), p.fix(err)
	case v.Refused:
		c.Result, c.Detail = checkFail, fmt.Sprintf("refused an edit of %s, which no rule applies to (%s): %s", file, how, said(v, reply))
		c.Fix = "read the reason: with [enforce] fail = \"closed\" a gate that cannot check refuses every edit"
	case v.Warned:
		c.Result, c.Detail = checkWarn, fmt.Sprintf("warned about an edit of %s, which no rule applies to (%s): %s", file, how, said(v, reply))
	default:
		c.Result, c.Detail = checkOK, fmt.Sprintf("let an edit of %s through (%s)", file, how)
	}
	return c
}

// stop ends a turn of the probe session, which has no prompt pending: the
// stop hook must let it end.
func (p prober) stop(ctx context.Context) doctorCheck {
	c := doctorCheck{Check: "stop probe"}
	if _, ok := p.h.Probe(adapt.Stop, p.session, p.d.ws.Root, ""); !ok {
		c.Result, c.Detail = checkSkip, p.h.Title+" has no stop hook"
		return c
	}
	v, reply, how, err := p.run(ctx, adapt.Stop, "")
	c.Reply = reply
	switch {
	case errors.Is(err, errNoHook):
		c.Result, c.Detail, c.Fix = checkWarn, err.Error()+": the agent is not held to report", p.fix(err)
	case err != nil:
		c.Result, c.Detail, c.Fix = checkFail, err.Error(), p.fix(err)
	case v.Refused:
		c.Result, c.Detail = checkFail, fmt.Sprintf("refused to end a turn with nothing pending (%s): %s", how, said(v, reply))
		c.Fix = "read the reason; `clumsies events --type attest.stop_blocked` shows the blocks"
	default:
		c.Result, c.Detail = checkOK, fmt.Sprintf("let a turn with nothing pending end (%s)", how)
	}
	return c
}

// errNoHook is a probe whose hook the host's config does not have.
var errNoHook = errors.New("no hook")

// fix is the next step after a probe that could not run.
func (p prober) fix(err error) string {
	if errors.Is(err, errNoHook) {
		return "run `" + p.adaptCmd + "`"
	}
	return "run the hook by hand to see why: `clumsies hook EVENT --host " + p.h.Name + "` reads the host's input on stdin"
}

// run makes the host's hook call for ev (PreTool: an edit of file) the
// way the host makes it: the line through sh in the workspace folder, the
// input on stdin; opencode's plugin runs clumsies without a shell. It
// returns the host's verdict, the reply and how the hook ran.
func (p prober) run(ctx context.Context, ev adapt.Event, file string) (adapt.Verdict, *probeReply, string, error) {
	probe, _ := p.h.Probe(ev, p.session, p.d.ws.Root, file)
	var line *adapt.HookLine
	for i, l := range p.lines {
		if l.Event == ev && l.HostEvent == probe.HostEvent {
			line = &p.lines[i]
			break
		}
	}
	if line == nil {
		return adapt.Verdict{}, nil, "", fmt.Errorf("%w on %s for %s in the host's config", errNoHook, probe.HostEvent, ev)
	}
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	var cmd *exec.Cmd
	how := fmt.Sprintf("%s hook of %s, through sh", probe.HostEvent, p.d.show(line.File))
	if line.Line == "" {
		cmd = exec.CommandContext(ctx, line.Program, "hook", string(ev), "--host", p.h.Name)
		how = fmt.Sprintf("%s of %s: `%s hook %s --host %s` run directly, as the plugin does", probe.HostEvent, p.d.show(line.File), line.Program, ev, p.h.Name)
	} else {
		cmd = exec.CommandContext(ctx, "sh", "-c", line.Line)
	}
	cmd.Dir = p.d.ws.Root
	cmd.Env = probeEnv()
	cmd.Stdin = bytes.NewReader(probe.Input)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	reply := &probeReply{Stdout: stdout.String(), Stderr: stderr.String()}
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		reply.Exit = exit.ExitCode()
	case err != nil && line.Line == "":
		// The plugin goes on when clumsies cannot start: the neutral answer.
		reply.Stderr += err.Error()
	case err != nil:
		return adapt.Verdict{}, reply, how, fmt.Errorf("run the %s hook: %w", probe.HostEvent, err)
	}
	if ctx.Err() != nil {
		return adapt.Verdict{}, reply, how, fmt.Errorf("the %s hook did not answer within %s", probe.HostEvent, probeTimeout)
	}
	return p.h.Verdict(ev, adapt.Reply{Stdout: stdout.Bytes(), Stderr: strings.TrimSpace(stderr.String()), Exit: reply.Exit}), reply, how, nil
}

// probeEnv is the environment the probes run in: doctor's own, without
// Copilot CLI's mark, so that each hook answers as its own host.
func probeEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "COPILOT_CLI=") {
			env = append(env, kv)
		}
	}
	return env
}

// said is what a probe's hook answered, for a detail: the host's reading
// of it, else its output.
func said(v adapt.Verdict, r *probeReply) string {
	switch {
	case v.Text != "":
		return clip(v.Text)
	case strings.TrimSpace(r.Stderr) != "":
		return fmt.Sprintf("exit %d, stderr %q", r.Exit, clip(strings.TrimSpace(r.Stderr)))
	case strings.TrimSpace(r.Stdout) != "":
		return fmt.Sprintf("exit %d, stdout %q", r.Exit, clip(strings.TrimSpace(r.Stdout)))
	}
	return fmt.Sprintf("exit %d and no output (the line's guard exits at once where it finds no clumsies)", r.Exit)
}

// clip shortens s for a table.
func clip(s string) string {
	s = oneLine(s)
	if len(s) > 160 {
		return s[:157] + "..."
	}
	return s
}

// freePath returns the first of allowProbes that no rule's or workflow's
// paths match.
func (d doctor) freePath() (string, error) {
	files, err := content.Scan(d.ws.ContentRoot())
	if err != nil {
		return "", fmt.Errorf("the content tree cannot be read: %v", err)
	}
	for _, p := range allowProbes {
		free := true
		for _, f := range files {
			globs, err := content.ParsePaths(f.Body)
			if err == nil && len(content.Matched(globs, []string{p})) > 0 {
				free = false
				break
			}
		}
		if free {
			return p, nil
		}
	}
	return "", fmt.Errorf("rules apply to every path tried (%s)", strings.Join(allowProbes, ", "))
}
