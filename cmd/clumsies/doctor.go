package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/clumsies/clumsies/agent/adapt"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/workspace"
)

// DoctorCommand checks that the gate wired in the repository is live: for
// each host wired here (and, with --user, in the user's config), that its
// config files parse, that the clumsies its hooks run can be found, and
// that its hooks, run as the host runs them, refuse an edit of the
// enforcement's own config, let an edit no rule applies to through, and
// let a turn with nothing pending end.
type DoctorCommand struct {
	m    *Main
	ws   wsFlags
	user bool
	json bool
}

// doctorJSON is the shape of `clumsies doctor --json`.
type doctorJSON struct {
	Workspace string                `json:"workspace"`
	Mode      workspace.EnforceMode `json:"mode"`
	// Live is set when the mode is warn or block and every wired host's
	// gate answered as it should.
	Live bool `json:"live"`
	// ConfigOff names the optional tables of config.toml that are wrong,
	// why, and what holds until they are fixed ([otel] is off, [enforce]
	// holds the gate in the strictest mode it could have meant).
	ConfigOff []string     `json:"configOff,omitempty"`
	Hosts     []doctorHost `json:"hosts"`
	Summary   string       `json:"summary"`
}

// doctorHost is the checks of one host wired in one scope.
type doctorHost struct {
	Host  string      `json:"host"`
	Title string      `json:"title"`
	Scope adapt.Scope `json:"scope"`
	State adapt.State `json:"state"`
	// Session is the id the probes ran with: the ledger holds their
	// events under it.
	Session string        `json:"session"`
	Live    bool          `json:"live"`
	Checks  []doctorCheck `json:"checks"`
}

// doctorCheck is one row of a host's table.
type doctorCheck struct {
	Check string `json:"check"` // config, wiring, command, deny probe, allow probe, stop probe
	// Result is ok, warn (works, with something to fix), fail (the gate
	// is not live) or skip.
	Result string `json:"result"`
	Detail string `json:"detail"`
	// Fix is the next step, for warn and fail.
	Fix string `json:"fix,omitempty"`
	// Reply is what a probe's hook printed and exited with.
	Reply *probeReply `json:"reply,omitempty"`
}

// The results of a check.
const (
	checkOK   = "ok"
	checkWarn = "warn"
	checkFail = "fail"
	checkSkip = "skip"
)

// Run implements command.
func (c *DoctorCommand) Run(ctx context.Context, args []string) error {
	fs := c.m.newFlags("doctor", "doctor [--user] [--json] [--workspace DIR]\n\nChecks every host wired in this repository: its config parses, the clumsies its hooks run is found,\nand its hooks, run as the host runs them, refuse an edit of .clumsies/config.toml, let an edit no rule\napplies to through and let a turn end. Exits 1 when [enforce] mode is warn or block and a host's gate is not live.")
	fs.StringVar(&c.ws.dir, "workspace", "", "the workspace `DIR`: the project folder holding .clumsies/ (default: the nearest parent of the current folder holding it, else the current folder)")
	fs.BoolVar(&c.user, "user", false, "also check the hosts wired in the user's global config")
	fs.BoolVar(&c.json, "json", false, "print JSON")
	if err := parse(fs, args); err != nil {
		return err
	}
	ws, err := c.ws.workspace()
	if err != nil {
		return err
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return fmt.Errorf("find the home folder: %w", err)
	}
	d := doctor{ws: ws, env: adapt.Env{Root: ws.Root, Home: home}, mode: ws.Config.Enforce.Effective()}
	out := doctorJSON{Workspace: ws.Root, Mode: d.mode, ConfigOff: configOff(ws.Config), Hosts: []doctorHost{}}
	scopes := []adapt.Scope{adapt.Project}
	if c.user {
		scopes = append(scopes, adapt.User)
	}
	for _, scope := range scopes {
		for _, h := range adapt.Hosts() {
			if st, ok := d.wired(h, scope); ok {
				out.Hosts = append(out.Hosts, d.check(ctx, h, scope, st))
			}
		}
	}
	err = d.verdict(&out, c.user)
	if c.json {
		if werr := writeJSON(c.m.Stdout, out); werr != nil {
			return werr
		}
	} else {
		printDoctor(c.m.Stdout, out)
	}
	return err
}

// doctor is one run of the checks.
type doctor struct {
	ws   *workspace.Workspace
	env  adapt.Env
	mode workspace.EnforceMode
}

// wired reports whether h is wired in scope, some of it at least, or has
// a config file of its plan that mentions clumsies but cannot be parsed
// (which State counts as not wired).
func (d doctor) wired(h *adapt.Host, scope adapt.Scope) (adapt.State, bool) {
	p := h.Plan(scope, d.env)
	if st := p.State(); st != adapt.NotWired {
		return st, true
	}
	for _, f := range p.Files {
		if err := f.Check(); err != nil && !errors.Is(err, fs.ErrNotExist) {
			if b, rerr := os.ReadFile(f.Path); rerr == nil && strings.Contains(string(b), "clumsies") {
				return adapt.NotWired, true
			}
		}
	}
	return adapt.NotWired, false
}

// check runs every check of h wired in scope.
func (d doctor) check(ctx context.Context, h *adapt.Host, scope adapt.Scope, st adapt.State) doctorHost {
	out := doctorHost{Host: h.Name, Title: h.Title, Scope: scope, State: st, Session: "clumsies-doctor-" + events.NewID()}
	adaptCmd := "clumsies adapt " + h.Name
	if scope == adapt.User {
		adaptCmd += " --user"
	}
	add := func(c doctorCheck) { out.Checks = append(out.Checks, c) }
	broken := false
	for _, f := range h.Plan(scope, d.env).Files {
		err := f.Check()
		switch {
		case err == nil && f.Whole():
			add(doctorCheck{Check: "config", Result: checkOK, Detail: d.show(f.Path) + " is there (clumsies writes it whole)"})
		case err == nil:
			add(doctorCheck{Check: "config", Result: checkOK, Detail: d.show(f.Path) + " parses"})
		case errors.Is(err, fs.ErrNotExist):
			add(doctorCheck{Check: "config", Result: checkWarn, Detail: d.show(f.Path) + " is absent", Fix: "run `" + adaptCmd + "`"})
		default:
			broken = true
			add(doctorCheck{Check: "config", Result: checkFail, Detail: fmt.Sprintf("%s cannot be read: %v", d.show(f.Path), err),
				Fix: fmt.Sprintf("fix %s by hand (the host cannot read it either), then run `%s`", d.show(f.Path), adaptCmd)})
		}
	}
	switch st {
	case adapt.Wired:
		add(doctorCheck{Check: "wiring", Result: checkOK, Detail: "every entry `" + adaptCmd + "` writes is in place"})
	case adapt.Partly:
		add(doctorCheck{Check: "wiring", Result: checkWarn, Detail: "some entries `" + adaptCmd + "` writes are missing, or from an older release", Fix: "run `" + adaptCmd + "`"})
	}
	lines, err := h.HookLines(scope, d.env)
	if err != nil && !broken {
		add(doctorCheck{Check: "config", Result: checkFail, Detail: err.Error(), Fix: "fix the file by hand, then run `" + adaptCmd + "`"})
	}
	if len(lines) == 0 {
		if !broken {
			add(doctorCheck{Check: "command", Result: checkFail, Detail: "no clumsies hook found in the host's config", Fix: "run `" + adaptCmd + "`"})
		}
		out.Live = allPass(out.Checks)
		return out
	}
	commands := commandChecks(ctx, lines)
	out.Checks = append(out.Checks, commands...)
	probes := prober{d: d, h: h, session: out.Session, lines: lines, adaptCmd: adaptCmd, commandOK: allPass(commands)}
	add(probes.deny(ctx))
	add(probes.allow(ctx))
	add(probes.stop(ctx))
	out.Live = allPass(out.Checks)
	return out
}

// allPass reports whether no check failed.
func allPass(checks []doctorCheck) bool {
	return !slices.ContainsFunc(checks, func(c doctorCheck) bool { return c.Result == checkFail })
}

// show is path relative to the workspace when it lies in it.
func (d doctor) show(path string) string {
	if rel, err := filepath.Rel(d.ws.Root, path); err == nil && filepath.IsLocal(rel) {
		return filepath.ToSlash(rel)
	}
	return path
}

// gateVerdict sets the summary, and returns the error of a gate that is
// configured but not live, naming each such host and its next step.
func (d doctor) gateVerdict(out *doctorJSON, user bool) error {
	where := "in this repository"
	if user {
		where = "in this repository or in your config"
	}
	var names, steps []string
	failing := 0
	hostsOf := map[string][]string{} // a failure's detail and fix -> the hosts it stops
	for _, h := range out.Hosts {
		names = append(names, h.Host)
		if h.Live {
			continue
		}
		failing++
		name := h.Host
		if user {
			name += " (" + string(h.Scope) + ")"
		}
		for _, c := range h.Checks {
			if c.Result == checkFail {
				step := c.Detail + "; " + c.Fix
				if hostsOf[step] == nil {
					steps = append(steps, step)
				}
				hostsOf[step] = append(hostsOf[step], name)
				break
			}
		}
	}
	for i, step := range steps {
		steps[i] = strings.Join(hostsOf[step], ", ") + ": " + step
	}
	switch {
	case d.mode == workspace.EnforceOff:
		out.Summary = fmt.Sprintf("enforcement off ([enforce] mode is %q in .clumsies/config.toml): nothing is gated", d.mode)
		if failing > 0 {
			out.Summary += fmt.Sprintf("; %s would not gate once it is on (above)", hostCount(failing))
		}
		return nil
	case len(out.Hosts) == 0:
		out.Summary = fmt.Sprintf("enforcement (%s) is not live: no host is wired %s", d.mode, where)
		return fmt.Errorf("%s: run `clumsies adapt HOST` (`clumsies adapt` lists them)", out.Summary)
	case failing > 0:
		out.Summary = fmt.Sprintf("enforcement (%s) is not live on %d of %s", d.mode, failing, hostCount(len(out.Hosts)))
		return fmt.Errorf("%s: %s", out.Summary, strings.Join(steps, "; "))
	}
	out.Live = true
	out.Summary = fmt.Sprintf("enforcement (%s) is live on %s", d.mode, strings.Join(slices.Compact(names), ", "))
	return nil
}

// verdict is gateVerdict, and an error naming the [enforce] table while
// it is wrong, whatever the hosts answered: the gate then holds edits in
// the strictest mode the table could have meant, until a person fixes it.
func (d doctor) verdict(out *doctorJSON, user bool) error {
	err := d.gateVerdict(out, user)
	w, ok := d.ws.Config.EnforceWrong()
	if !ok {
		return err
	}
	out.Summary += "; " + w.String()
	if err == nil {
		return errors.New(out.Summary)
	}
	return fmt.Errorf("%w; %s", err, w)
}

// hostCount is "1 wired host", "2 wired hosts".
func hostCount(n int) string {
	if n == 1 {
		return "1 wired host"
	}
	return fmt.Sprintf("%d wired hosts", n)
}

// printDoctor prints a table per host and the summary.
func printDoctor(w io.Writer, out doctorJSON) {
	fmt.Fprintf(w, "Workspace %s, [enforce] mode %s\n", out.Workspace, out.Mode)
	for _, l := range out.ConfigOff {
		fmt.Fprintf(w, "Settings: %s\n", l)
	}
	for _, h := range out.Hosts {
		fmt.Fprintf(w, "\n%s (%s, %s scope; probes as session %s)\n", h.Title, h.Host, h.Scope, h.Session)
		tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "  CHECK\tRESULT\tDETAIL")
		for _, c := range h.Checks {
			detail := c.Detail
			if c.Fix != "" {
				detail += " -> " + c.Fix
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\n", c.Check, c.Result, oneLine(detail))
		}
		tw.Flush()
	}
	if len(out.Hosts) > 0 {
		fmt.Fprintln(w)
	}
	if out.Live || out.Mode == workspace.EnforceOff {
		fmt.Fprintln(w, out.Summary+".")
	}
}

// oneLine keeps a detail on one line of the table.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
