package main_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/agent/adapt"
	"github.com/clumsies/clumsies/internal/testbin"
)

// runIn runs the binary in dir with HOME set to home.
func runIn(tb testing.TB, dir, home string, args ...string) result {
	tb.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Dir = dir
	cmd.Env = append(hookEnv(), "HOME="+home)
	out, errs, code, err := testbin.Run(cmd)
	if err != nil {
		tb.Fatal(err)
	}
	return result{out, errs, code}
}

func TestCLI_Adapt(t *testing.T) {
	home, dir := t.TempDir(), t.TempDir()
	settings := filepath.Join(dir, ".claude", "settings.json")
	if err := os.MkdirAll(filepath.Dir(settings), 0o755); err != nil {
		t.Fatal(err)
	}
	mine := "{\n  \"hooks\": {\n    \"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"say done\"}]}]\n  }\n}\n"
	if err := os.WriteFile(settings, []byte(mine), 0o644); err != nil {
		t.Fatal(err)
	}

	if r := runIn(t, dir, home, "adapt", "claude-code"); r.code == 0 || !strings.Contains(r.stderr, "clumsies init --adapt claude-code") {
		t.Fatalf("adapt outside a workspace: exit %d, stderr %q; want advice to init", r.code, r.stderr)
	}
	r := runIn(t, dir, home, "init", "--adapt", "claude-code,codex")
	if r.code != 0 || !strings.Contains(r.stdout, "Wired Claude Code") || !strings.Contains(r.stdout, "Wired Codex") {
		t.Fatalf("init --adapt: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	b, err := os.ReadFile(settings)
	if err != nil || !strings.Contains(string(b), "say done") || !strings.Contains(string(b), "clumsies hook stop --host claude-code") {
		t.Fatalf("settings after adapt:\n%s", b)
	}
	if bak, err := os.ReadFile(settings + ".clumsies-backup"); err != nil || string(bak) != mine {
		t.Fatalf("backup: %q, %v; want the previous bytes", bak, err)
	}

	var hosts []struct{ Host, Project, User string }
	r = runIn(t, dir, home, "adapt", "--json")
	if err := json.Unmarshal([]byte(r.stdout), &hosts); err != nil || len(hosts) != len(adapt.Hosts()) {
		t.Fatalf("adapt --json: %v\n%s", err, r.stdout)
	}
	for _, h := range hosts {
		want := "no"
		if h.Host == "claude-code" || h.Host == "codex" {
			want = "wired"
		}
		if h.Project != want || h.User != "no" {
			t.Errorf("%s: project %s, user %s; want project %s, user no", h.Host, h.Project, h.User, want)
		}
	}

	var again struct {
		Files []struct{ Path, Action string }
	}
	r = runIn(t, dir, home, "adapt", "claude-code", "--json")
	if err := json.Unmarshal([]byte(r.stdout), &again); err != nil || len(again.Files) != 2 {
		t.Fatalf("adapt claude-code --json: %v\n%s", err, r.stdout)
	}
	for _, f := range again.Files {
		if f.Action != "unchanged" {
			t.Errorf("second adapt: %s %s, want unchanged", f.Path, f.Action)
		}
	}

	r = runIn(t, dir, home, "adapt", "cursor", "--user")
	if r.code != 0 || !strings.Contains(r.stdout, filepath.Join(home, ".cursor", "hooks.json")) || !strings.Contains(r.stdout, "followup_message") {
		t.Fatalf("adapt cursor --user: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	for _, args := range [][]string{{"adapt", "claude-code", "extra"}, {"adapt", "zed"}, {"adapt", "--remove"}, {"init", "--adapt", "nope"}} {
		if r := runIn(t, dir, home, args...); r.code != 2 || r.stderr == "" {
			t.Errorf("%v: exit %d, stderr %q; want a usage error", args, r.code, r.stderr)
		}
	}

	if r := runIn(t, dir, home, "adapt", "claude-code", "--remove"); r.code != 0 {
		t.Fatalf("remove: exit %d, %s", r.code, r.stderr)
	}
	if b, _ := os.ReadFile(settings); string(b) != mine {
		t.Errorf("settings after remove:\n%s\nwant the original bytes:\n%s", b, mine)
	}
	if _, err := os.Stat(filepath.Join(dir, ".mcp.json")); !os.IsNotExist(err) {
		t.Errorf(".mcp.json, which adapt created, is still there after remove (%v)", err)
	}
	if _, err := os.Stat(filepath.Join(dir, ".mcp.json.clumsies-backup")); !os.IsNotExist(err) {
		t.Errorf("remove left a backup of .mcp.json, which adapt created (%v)", err)
	}
}
