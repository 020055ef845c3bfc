package adapt

import (
	"fmt"
	"slices"
	"strings"
)

// Scope says whose config adapt edits.
type Scope string

// The scopes: the repository's own config files, or the user's global
// ones.
const (
	Project Scope = "project"
	User    Scope = "user"
)

// Env is where a plan's files go.
type Env struct {
	// Root is the workspace folder (project scope).
	Root string
	// Home is the user's home folder (user scope).
	Home string
	// Command is how the hosts run clumsies; "clumsies" (found on PATH)
	// when empty.
	Command string
}

func (e Env) command() string {
	if e.Command == "" {
		return "clumsies"
	}
	return e.Command
}

// hookCommand is the command line a host runs for event. It never stands
// in a teammate's way: where clumsies is not on PATH it exits 0 at once,
// and whatever clumsies exits with, the line exits 0 (Copilot CLI reads
// any other status of a preToolUse hook as a refusal, and Claude Code,
// Gemini CLI, Codex and VS Code read 2 as one). It is a POSIX shell line:
// the hosts run a hook's command through sh or bash (Copilot CLI's bash
// key), or, on Windows, through the shell the host picks.
func (e Env) hookCommand(host string, ev Event) string {
	return e.guard() + e.call(host, ev) + " || true"
}

// statusHookCommand is hookCommand keeping clumsies' exit status, for a
// host that reads a refusal from it (Windsurf's gate: status 2).
func (e Env) statusHookCommand(host string, ev Event) string {
	return e.guard() + e.call(host, ev)
}

// guard is the start of a hook's line that exits 0 where clumsies is
// not installed.
func (e Env) guard() string {
	return fmt.Sprintf("command -v %s >/dev/null 2>&1 || exit 0; ", e.command())
}

// call runs clumsies' hook for event of host.
func (e Env) call(host string, ev Event) string {
	return fmt.Sprintf("%s hook %s --host %s", e.command(), ev, host)
}

// oursFor returns the test that tells a hook entry of ours for event
// from the user's own.
func oursFor(host string, ev Event) func(string) bool {
	marker := fmt.Sprintf(" hook %s --host %s", ev, host)
	return func(raw string) bool { return strings.Contains(raw, marker) }
}

// Host is an agent host that adapt can wire to a workspace.
type Host struct {
	// Name is the host's name on the command line (claude-code).
	Name string
	// Title is how people call it (Claude Code).
	Title string
	// SessionID says which id the host gives a conversation: the one
	// memsetup needs.
	SessionID string

	plan   func(s Scope, e Env) Plan
	read   func(ev Event, raw []byte) (Input, error)
	answer func(ev Event, a Answer) []byte
	// tools are the hooks around the host's tools (toolhooks.go); nil for
	// a host that has none.
	tools *toolHooks
	// events are the events adapt wires hooks for; every event when nil.
	events []Event
}

// Events returns the events adapt wires hooks for on h.
func (h *Host) Events() []Event {
	if h.events == nil {
		return Events()
	}
	return slices.Clone(h.events)
}

// Plan returns the files that wire h in scope s.
func (h *Host) Plan(s Scope, e Env) Plan {
	p := h.plan(s, e)
	if h.tools != nil {
		h.tools.wire(&p, s, e)
	}
	p.Host, p.Scope = h.Name, s
	return p
}

// Read decodes the host's hook input for ev.
func (h *Host) Read(ev Event, raw []byte) (Input, error) {
	read := h.read
	switch ev {
	case PreTool:
		if !h.HasPreTool() {
			return Input{}, fmt.Errorf("read %s %s input: %s has no pre-tool hook", h.Name, ev, h.Title)
		}
		read = func(_ Event, raw []byte) (Input, error) { return readToolCall(raw) }
	case PostTool:
		read = func(_ Event, raw []byte) (Input, error) { return readToolCall(raw) }
	}
	in, err := read(ev, raw)
	if err != nil {
		return Input{}, fmt.Errorf("read %s %s input: %w", h.Name, ev, err)
	}
	if in.SessionID == "" {
		return Input{}, fmt.Errorf("read %s %s input: no session id in it", h.Name, ev)
	}
	in.Echo = ev == UserPrompt && isStopReason(in.Prompt, in.SessionID)
	return in, nil
}

// Answer renders a for ev in the host's output format: what the hook
// prints on stdout, possibly nothing. Reply says the rest: what goes to
// stderr, and the exit status.
func (h *Host) Answer(ev Event, a Answer) []byte { return h.Reply(ev, a).Stdout }

// hosts lists every host, in the order the command line shows them.
var hosts = []*Host{claudeCode, codex, cursor, geminiCLI, opencode, copilot, vscode, windsurf}

// Hosts returns every host.
func Hosts() []*Host { return slices.Clone(hosts) }

// Lookup returns the host named name, or an error listing the names.
func Lookup(name string) (*Host, error) {
	for _, h := range hosts {
		if h.Name == name {
			return h, nil
		}
	}
	return nil, fmt.Errorf("unknown host %q: want one of %s", name, strings.Join(Names(), ", "))
}

// Names returns the names of every host.
func Names() []string {
	names := make([]string, len(hosts))
	for i, h := range hosts {
		names[i] = h.Name
	}
	return names
}
