package adapt

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestHost_Probe wires each host in a project and checks that its probes
// read back as the edit and the stop they stand for, and that the hook
// they name is one HookLines finds in the files adapt wrote.
func TestHost_Probe(t *testing.T) {
	for _, h := range Hosts() {
		t.Run(h.Name, func(t *testing.T) {
			dir := t.TempDir()
			env := Env{Root: filepath.Join(dir, "shop"), Home: filepath.Join(dir, "home")}
			if _, err := h.Plan(Project, env).Apply(); err != nil {
				t.Fatal(err)
			}
			lines, err := h.HookLines(Project, env)
			if err != nil {
				t.Fatal(err)
			}
			file := filepath.Join(env.Root, ".clumsies", "config.toml")
			for _, ev := range []Event{PreTool, Stop} {
				p, ok := h.Probe(ev, "clumsies-doctor-1", env.Root, file)
				if !ok {
					if ev == Stop && !slices.Contains(h.Events(), Stop) {
						continue
					}
					t.Fatalf("%s: no probe", ev)
				}
				in, err := h.Read(ev, p.Input)
				if err != nil {
					t.Fatalf("%s: read the probe: %v", ev, err)
				}
				if in.SessionID != "clumsies-doctor-1" || in.Continuing {
					t.Errorf("%s: session %q, continuing %v; want clumsies-doctor-1, false", ev, in.SessionID, in.Continuing)
				}
				if ev == PreTool {
					got := in.Files
					for i, f := range got {
						if !filepath.IsAbs(f) {
							got[i] = filepath.Join(in.Dir, f)
						}
					}
					if !slices.Equal(got, []string{file}) {
						t.Errorf("pre-tool files %q, want %q", got, file)
					}
				}
				if !slices.ContainsFunc(lines, func(l HookLine) bool { return l.Event == ev && l.HostEvent == p.HostEvent }) {
					t.Errorf("%s: no hook on %s among %+v", ev, p.HostEvent, lines)
				}
			}
			for _, l := range lines {
				if l.Program != "clumsies" {
					t.Errorf("%s on %s: program %q, want clumsies", l.Event, l.HostEvent, l.Program)
				}
				if h.Name != "opencode" && !strings.Contains(l.Line, "clumsies hook "+string(l.Event)+" --host "+h.Name) {
					t.Errorf("%s on %s: line %q", l.Event, l.HostEvent, l.Line)
				}
			}
		})
	}
}

// TestHost_Verdict reads each host's own rendering of a refusal, a warning
// and the neutral answer back.
func TestHost_Verdict(t *testing.T) {
	for _, h := range Hosts() {
		t.Run(h.Name, func(t *testing.T) {
			for _, ev := range []Event{PreTool, Stop} {
				if ev == Stop && !slices.Contains(h.Events(), Stop) {
					continue
				}
				if v := h.Verdict(ev, h.Reply(ev, Answer{Block: true, Reason: "load rules"})); !v.Refused || v.Text != "load rules" {
					t.Errorf("%s block: got %+v, want refused with the reason", ev, v)
				}
				if v := h.Verdict(ev, h.Reply(ev, Answer{})); v.Refused || v.Warned {
					t.Errorf("%s neutral: got %+v, want neither refused nor warned", ev, v)
				}
			}
			if v := h.Verdict(PreTool, h.Reply(PreTool, Answer{Context: "load rules"})); v.Refused || !v.Warned || v.Text != "load rules" {
				t.Errorf("pre-tool warning: got %+v, want warned", v)
			}
		})
	}
	if v := copilot.Verdict(PreTool, Reply{Exit: 1}); !v.Refused {
		t.Errorf("copilot, preToolUse exit 1: got %+v, want refused", v)
	}
	if v := claudeCode.Verdict(PreTool, Reply{Stdout: []byte("not json"), Exit: 1}); v.Refused || v.Warned {
		t.Errorf("claude-code, exit 1 and text: got %+v, want neither", v)
	}
}

// TestHostLines_OlderAndBroken reads an unguarded line of an earlier
// release and a program given by path, and names a file it cannot parse.
func TestHookLines_OlderAndBroken(t *testing.T) {
	dir := t.TempDir()
	env := Env{Root: dir, Home: t.TempDir()}
	settings := filepath.Join(dir, ".claude", "settings.json")
	if err := os.MkdirAll(filepath.Dir(settings), 0o755); err != nil {
		t.Fatal(err)
	}
	old := `{"hooks": {"PreToolUse": [{"matcher": "Write", "hooks": [{"type": "command", "command": "/opt/bin/clumsies hook pre-tool --host claude-code"}]}],
  // a comment
  "Stop": [{"hooks": [{"type": "command", "command": "say done"}]}]}}`
	if err := os.WriteFile(settings, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	lines, err := claudeCode.HookLines(Project, env)
	if err != nil {
		t.Fatal(err)
	}
	want := []HookLine{{Event: PreTool, HostEvent: "PreToolUse", File: settings, Line: "/opt/bin/clumsies hook pre-tool --host claude-code", Program: "/opt/bin/clumsies"}}
	if !slices.Equal(lines, want) {
		t.Errorf("got %+v, want %+v", lines, want)
	}
	for _, f := range claudeCode.Plan(Project, env).Files {
		err := f.Check()
		if f.Path == settings && err != nil {
			t.Errorf("check %s: %v, want nil (JSONC)", f.Path, err)
		}
		if f.Path != settings && !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("check %s: %v, want not exist", f.Path, err)
		}
	}

	if err := os.WriteFile(settings, []byte(`{"hooks": {`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := claudeCode.HookLines(Project, env); err == nil || !strings.Contains(err.Error(), settings) {
		t.Errorf("broken file: got %v, want an error naming it", err)
	}
	var pe *ParseError
	if err := claudeCode.Plan(Project, env).Files[1].Check(); !errors.As(err, &pe) {
		t.Errorf("check the broken file: got %v, want a ParseError", err)
	}
}
