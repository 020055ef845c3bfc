package adapt

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

// TestPlan_WhatTheHostsNeed checks what each real host needs besides the
// entries: Codex's server approved up front and the way to trust the
// project, Claude Code's one-time approval, what `opencode run` loses.
func TestPlan_WhatTheHostsNeed(t *testing.T) {
	env := Env{Root: t.TempDir(), Home: t.TempDir()}
	p := codex.Plan(Project, env)
	if _, err := p.Apply(); err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		MCPServers map[string]map[string]any `toml:"mcp_servers"`
	}
	if _, err := toml.DecodeFile(filepath.Join(env.Root, ".codex", "config.toml"), &cfg); err != nil {
		t.Fatal(err)
	}
	if got := cfg.MCPServers["clumsies"]["default_tools_approval_mode"]; got != "approve" {
		t.Errorf("codex server default_tools_approval_mode = %v, want approve (codex exec refuses every call otherwise)", got)
	}
	trust := `[projects."` + env.Root + `"]` + "\n  trust_level = \"trusted\""
	if notes := strings.Join(p.Notes, "\n"); !strings.Contains(notes, trust) {
		t.Errorf("codex notes do not say how to trust %s:\n%s", env.Root, notes)
	}
	for _, c := range []struct {
		h    *Host
		want string
	}{
		{claudeCode, "asks once to approve"},
		{opencode, "`opencode run` exits"},
	} {
		if notes := strings.Join(c.h.Plan(Project, env).Notes, "\n"); !strings.Contains(notes, c.want) {
			t.Errorf("%s notes do not say %q:\n%s", c.h.Name, c.want, notes)
		}
	}
}
