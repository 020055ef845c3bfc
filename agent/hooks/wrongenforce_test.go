package hooks_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/agent/adapt"
	"github.com/clumsies/clumsies/events"
)

// A wrong [enforce] table fails closed: the gate holds what block mode
// holds (an edit in scope of a rule not loaded, the enforcement's own
// files), and each hold names the file, the setting and the fix, and
// tells the user to fix it outside the agent; the user reads it on
// stderr too. Edits block mode lets through still run.
func TestPreTool_WrongEnforceHolds(t *testing.T) {
	for _, c := range []struct{ name, table, reason string }{
		{"BadMode", "mode = \"blok\"\n", `enforce mode "blok": want "off", "warn" or "block"`},
		{"WrongType", "paths = 3\nmode = 1\n", `(last key "enforce.mode"): incompatible types`},
		{"UnknownSetting", "paths = 3\n", `unknown setting "enforce.paths"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEnforcedTable(t, c.table)
			want := `[enforce] in .clumsies/config.toml is wrong: `
			says := func(what string, out string) {
				t.Helper()
				for _, w := range []string{want, c.reason, "fix it there", "until then edits are held", "a person fixes that file outside the agent"} {
					if !strings.Contains(out, w) {
						t.Fatalf("%s: got %q, want it to contain %q", what, out, w)
					}
				}
			}
			out := e.run(adapt.PreTool, write(filepath.Join(e.root, "src", "api", "x.go")))
			if !out.Answer.Block || !strings.Contains(out.Answer.Reason, "memload") {
				t.Fatalf("edit in scope, rule not loaded: got %+v, want a hold naming memload", out.Answer)
			}
			says("the hold", out.Answer.Reason)
			if !strings.Contains(out.Note, want) || !strings.Contains(out.Note, c.reason) {
				t.Fatalf("note for the user: got %q, want the table named", out.Note)
			}
			if g := e.events(events.TypeToolGated); len(g) != 1 || g[0]["decision"] != string(events.GateDeny) {
				t.Fatalf("tool_gated %v, want one deny", g)
			}
			out = e.run(adapt.PreTool, bash(`sed -i 's/^mode.*//' .clumsies/config.toml`))
			if !out.Answer.Block || !strings.Contains(out.Answer.Reason, "ask the user for a change of the config") {
				t.Fatalf("an agent's fix of config.toml: got %+v, want it held, saying to ask the user", out.Answer)
			}
			says("the hold of config.toml", out.Answer.Reason)
			if out := e.run(adapt.PreTool, write(filepath.Join(e.root, "README.md"))); out.Answer.Block {
				t.Fatalf("edit no rule applies to: held (%s)", out.Answer.Reason)
			}
			e.load()
			if out := e.run(adapt.PreTool, write(filepath.Join(e.root, "src", "api", "x.go"))); out.Answer.Block {
				t.Fatalf("edit in scope after the load: held (%s)", out.Answer.Reason)
			}
		})
	}
}

// A wrong [enforce] table whose mode = "off" is written correctly stays
// off: nothing is held, and the user still reads what is wrong.
func TestPreTool_WrongEnforceModeOffStaysOff(t *testing.T) {
	e := newEnforcedTable(t, "mode = \"off\"\nfail = \"closd\"\n")
	out := e.run(adapt.PreTool, write(filepath.Join(e.root, "src", "api", "x.go")))
	if out.Answer.Block || out.Answer.Context != "" {
		t.Fatalf("mode off: got %+v, want a neutral answer", out.Answer)
	}
	if !strings.Contains(out.Note, `enforce fail "closd"`) || !strings.Contains(out.Note, "the gate is off, as its mode says") {
		t.Fatalf("note for the user: got %q, want the setting named and the gate said off", out.Note)
	}
	if g := e.events(events.TypeToolGated); len(g) != 0 {
		t.Fatalf("tool_gated %v, want none", g)
	}
}

// The stop gate holds a turn as block mode does while the table is
// wrong, and says why.
func TestStop_WrongEnforceHolds(t *testing.T) {
	e := newEnforcedTable(t, "mode = \"blok\"\n")
	e.run(adapt.UserPrompt, map[string]any{"prompt": "go"})
	e.write("src/api/x.go", "package api // by a script\n")
	out := e.run(adapt.Stop, map[string]any{"stop_hook_active": false})
	if !out.Answer.Block || !strings.Contains(out.Answer.Reason, "src/api/x.go") ||
		!strings.Contains(out.Answer.Reason, `[enforce] in .clumsies/config.toml is wrong: enforce mode "blok"`) {
		t.Fatalf("stop: got %+v, want a hold naming the file and the wrong table", out.Answer)
	}
}
