package adapt

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"regexp"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
)

// HookLine is one of clumsies' hooks as a host's config file holds it
// now, which may not be what adapt would write (an older release, a
// hand edit).
type HookLine struct {
	// Event is clumsies' event the hook runs (pre-tool).
	Event Event `json:"event"`
	// HostEvent is the host's name of the event it runs on (PreToolUse,
	// pre_write_code, tool.execute.before).
	HostEvent string `json:"hostEvent"`
	// File is the config file that holds it.
	File string `json:"file"`
	// Line is the shell command line the host runs; empty for a hook a
	// plugin runs without a shell (opencode's).
	Line string `json:"line,omitempty"`
	// Program is the clumsies the hook runs, as the line names it: a name
	// the shell finds on PATH, or a path.
	Program string `json:"program"`
}

// Check reads the file and reports whether adapt can parse it as the
// host's format (JSON or JSONC, TOML): an error wrapping fs.ErrNotExist
// when it is absent, a *ParseError (with the line and column) for JSON
// that cannot be read. A file clumsies writes whole (opencode's plugin) is
// not parsed.
func (f File) Check() error {
	b, err := os.ReadFile(f.Path)
	if err != nil {
		return err
	}
	switch {
	case f.owned != nil:
		return nil
	case f.toml != nil:
		var v map[string]any
		if _, err := toml.Decode(string(b), &v); err != nil {
			return err
		}
		return nil
	case len(trimSpace(b)) == 0:
		return nil // adapt starts such a file afresh; no host entry in it
	}
	_, err = newDoc(b)
	return err
}

// Whole reports whether clumsies writes the file whole (opencode's
// plugin) rather than entries in a file of the host's format.
func (f File) Whole() bool { return f.owned != nil }

// callPattern finds the call of clumsies' hook in a command line: the
// program, the event and the host.
var callPattern = regexp.MustCompile(`(?:^|[;&|]\s*)([^;&|]*?)\s+hook\s+(\S+)\s+--host\s+(\S+)`)

// opencodeEvents are the plugin's opencode events and the hooks they run.
var opencodeEvents = []struct {
	ev   Event
	name string
}{
	{SessionStart, "session.created"}, {UserPrompt, "chat.message"}, {Stop, "session.idle"},
	{PreTool, "tool.execute.before"}, {PostTool, "tool.execute.after"},
}

// commandConst is the line of opencode's plugin that names the program.
var commandConst = regexp.MustCompile(`(?m)^const COMMAND = ("(?:[^"\\]|\\.)*")`)

// HookLines returns clumsies' hooks for h as the host's config files hold
// them in scope s, in the order of the plan's files and entries: every
// entry adapt recognises as its own (by the `hook EVENT --host HOST` it
// runs), whatever its command line says. An absent file holds none; a file
// that cannot be parsed is an error naming it, and the lines of the other
// files are returned with it.
func (h *Host) HookLines(s Scope, e Env) ([]HookLine, error) {
	var out []HookLine
	var errs []error
	for _, f := range h.Plan(s, e).Files {
		b, err := os.ReadFile(f.Path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case err != nil:
			errs = append(errs, err)
			continue
		case f.owned != nil:
			m := commandConst.FindSubmatch(b)
			if m == nil {
				continue
			}
			prog, err := strconv.Unquote(string(m[1]))
			if err != nil {
				continue
			}
			for _, oe := range opencodeEvents {
				out = append(out, HookLine{Event: oe.ev, HostEvent: oe.name, File: f.Path, Program: prog})
			}
			continue
		case f.toml != nil || len(trimSpace(b)) == 0:
			continue
		}
		d, err := newDoc(b)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", f.Path, err))
			continue
		}
		for _, j := range f.json {
			if j.ours == nil {
				continue
			}
			nodes, err := d.walk(j.path)
			if err != nil || len(nodes) != len(j.path)+1 || nodes[len(nodes)-1].kind != '[' {
				continue
			}
			for _, el := range nodes[len(nodes)-1].elems {
				if !j.ours(string(d.b[el.start:el.end])) {
					continue
				}
				for _, line := range d.strings(el) {
					if !j.ours(line) {
						continue
					}
					if hl, ok := parseHookLine(line, h.Name); ok {
						hl.HostEvent, hl.File = j.path[len(j.path)-1], f.Path
						out = append(out, hl)
					}
				}
			}
		}
	}
	return out, errors.Join(errs...)
}

// strings returns the string values inside n, decoded.
func (d *doc) strings(n *jnode) []string {
	var out []string
	var walk func(n *jnode)
	walk = func(n *jnode) {
		switch n.kind {
		case '{':
			for _, m := range n.members {
				walk(m.val)
			}
		case '[':
			for _, e := range n.elems {
				walk(e)
			}
		default:
			if d.b[n.start] == '"' {
				var s string
				if json.Unmarshal(d.b[n.start:n.end], &s) == nil {
					out = append(out, s)
				}
			}
		}
	}
	walk(n)
	return out
}

// parseHookLine reads the program and the event of the call of host's
// hook in line.
func parseHookLine(line, host string) (HookLine, bool) {
	for _, m := range callPattern.FindAllStringSubmatch(line, -1) {
		if m[3] != host {
			continue
		}
		ev, err := ParseEvent(m[2])
		if err != nil {
			continue
		}
		prog := strings.TrimSpace(m[1])
		if len(prog) >= 2 && (prog[0] == '\'' || prog[0] == '"') && prog[len(prog)-1] == prog[0] {
			prog = prog[1 : len(prog)-1]
		}
		return HookLine{Event: ev, Line: line, Program: prog}, true
	}
	return HookLine{}, false
}
