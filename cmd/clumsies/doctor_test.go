package main_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/internal/testbin"
)

// barePath is a PATH with the shell and no clumsies.
const barePath = "/usr/bin:/bin"

// doctorWorkspace is a workspace wired for Claude Code and Copilot CLI
// with the gate in mode, and a home folder of its own.
func doctorWorkspace(t *testing.T, mode string) (dir, home string) {
	t.Helper()
	dir, home = t.TempDir(), t.TempDir()
	if r := runPath(t, dir, home, withBinary(), "init", "--adapt", "claude-code,copilot"); r.code != 0 {
		t.Fatalf("init --adapt: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	setEnforce(t, dir, mode)
	return dir, home
}

// withBinary is a PATH that finds the built clumsies, as an installed one.
func withBinary() string { return filepath.Dir(binary) + ":" + barePath }

// runPath runs the binary by its absolute path in dir, with HOME and PATH
// set.
func runPath(tb testing.TB, dir, home, path string, args ...string) result {
	tb.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Dir = dir
	cmd.Env = append(hookEnv(), "HOME="+home, "PATH="+path)
	out, errs, code, err := testbin.Run(cmd)
	if err != nil {
		tb.Fatal(err)
	}
	return result{out, errs, code}
}

// doctorReport is what the tests read of `clumsies doctor --json`.
type doctorReport struct {
	Workspace, Mode, Summary string
	Live                     bool
	Hosts                    []struct {
		Host, Scope, State, Session string
		Live                        bool
		Checks                      []struct{ Check, Result, Detail, Fix string }
	}
}

func TestDoctor_Live(t *testing.T) {
	dir, home := doctorWorkspace(t, "block")
	r := runPath(t, dir, home, withBinary(), "doctor")
	if r.code != 0 || !strings.Contains(r.stdout, "enforcement (block) is live on claude-code, copilot") {
		t.Fatalf("doctor: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	r = runPath(t, dir, home, withBinary(), "doctor", "--json")
	var rep doctorReport
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || r.code != 0 {
		t.Fatalf("doctor --json: exit %d, %v\n%s%s", r.code, err, r.stdout, r.stderr)
	}
	if !rep.Live || rep.Mode != "block" || len(rep.Hosts) != 2 || rep.Hosts[0].Host != "claude-code" || rep.Hosts[1].Host != "copilot" {
		t.Fatalf("doctor --json: got %+v, want claude-code and copilot live in block mode", rep)
	}
	events := mustRun(t, dir, "events", "--json")
	for _, h := range rep.Hosts {
		if !h.Live || h.Scope != "project" || h.State != "wired" || !strings.HasPrefix(h.Session, "clumsies-doctor-") {
			t.Errorf("%s: got %+v", h.Host, h)
		}
		results := map[string]string{}
		for _, c := range h.Checks {
			if c.Result != "ok" {
				t.Errorf("%s %s: %s, %s", h.Host, c.Check, c.Result, c.Detail)
			}
			results[c.Check] = c.Result
		}
		for _, check := range []string{"config", "wiring", "command", "deny probe", "allow probe", "stop probe"} {
			if results[check] != "ok" {
				t.Errorf("%s: no %s check in %+v", h.Host, check, h.Checks)
			}
		}
		if !strings.Contains(events, h.Session) || !strings.Contains(events, "attest.tool_gated") {
			t.Errorf("%s: the ledger has no tool_gated event of the probe session %s", h.Host, h.Session)
		}
	}
}

// A wrong [enforce] table holds the gate in block mode: the probes find
// it live, and doctor still exits 1 naming the table and the fix.
func TestDoctor_WrongEnforceHolds(t *testing.T) {
	dir, home := doctorWorkspace(t, "blok")
	want := `[enforce] in .clumsies/config.toml is wrong: enforce mode "blok"`
	r := runPath(t, dir, home, withBinary(), "doctor")
	if r.code != 1 || !strings.Contains(r.stdout, "enforcement (block) is live on claude-code, copilot; "+want) || !strings.Contains(r.stderr, want) {
		t.Fatalf("doctor: exit %d, want 1, live in block mode, naming the table\n%s%s", r.code, r.stdout, r.stderr)
	}
}

func TestDoctor_NotOnPath(t *testing.T) {
	for _, d := range filepath.SplitList(barePath) {
		if _, err := os.Stat(filepath.Join(d, "clumsies")); err == nil {
			t.Skipf("clumsies is installed in %s", d)
		}
	}
	dir, home := doctorWorkspace(t, "block")
	r := runPath(t, dir, home, barePath, "doctor")
	if r.code != 1 {
		t.Fatalf("doctor without clumsies on PATH: exit %d, want 1\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{"not live on 2 of 2 wired hosts", "claude-code", "copilot", "not on PATH", "put clumsies on PATH"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr %q lacks %q", r.stderr, want)
		}
	}
	if !strings.Contains(r.stdout, "deny probe   fail") {
		t.Errorf("stdout lacks the failed deny probe:\n%s", r.stdout)
	}
}

func TestDoctor_BrokenConfig(t *testing.T) {
	dir, home := doctorWorkspace(t, "warn")
	if err := os.WriteFile(filepath.Join(dir, ".claude", "settings.json"), []byte(`{"hooks": {`), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runPath(t, dir, home, withBinary(), "doctor")
	if r.code != 1 || !strings.Contains(r.stderr, "claude-code: .claude/settings.json cannot be read") || strings.Contains(r.stderr, "copilot") {
		t.Fatalf("doctor with a broken settings.json: exit %d, want 1 naming the file and claude-code alone\n%s%s", r.code, r.stdout, r.stderr)
	}
}

func TestDoctor_Off(t *testing.T) {
	dir, home := doctorWorkspace(t, "off")
	r := runPath(t, dir, home, barePath, "doctor")
	if r.code != 0 || !strings.Contains(r.stdout, "enforcement off") || !strings.Contains(r.stdout, "gate off") {
		t.Fatalf("doctor in mode off: exit %d, want 0 saying enforcement off\n%s%s", r.code, r.stdout, r.stderr)
	}
}

func TestDoctor_Usage(t *testing.T) {
	dir, home := doctorWorkspace(t, "block")
	if r := runPath(t, dir, home, withBinary(), "doctor", "claude-code"); r.code != 2 || !strings.Contains(r.stderr, "doctor takes no arguments") {
		t.Errorf("doctor claude-code: exit %d, stderr %q; want 2 refusing the argument", r.code, r.stderr)
	}
	if r := runPath(t, dir, home, withBinary(), "doctor", "-h"); r.code != 0 || singleDash.MatchString(r.stderr) ||
		!strings.Contains(r.stderr, "--workspace DIR") || !strings.Contains(r.stderr, "--json") || !strings.Contains(r.stderr, "--user") {
		t.Errorf("doctor -h: exit %d, want 0 listing --workspace DIR, --user and --json as typed:\n%s", r.code, r.stderr)
	}
	if r := runPath(t, t.TempDir(), home, withBinary(), "doctor"); r.code == 0 || !strings.Contains(r.stderr, "clumsies init") {
		t.Errorf("doctor outside a workspace: exit %d, stderr %q; want advice to init", r.code, r.stderr)
	}
	blank := t.TempDir()
	mustRun(t, blank, "init")
	setEnforce(t, blank, "block")
	if r := runPath(t, blank, home, withBinary(), "doctor"); r.code != 1 || !strings.Contains(r.stderr, "no host is wired") {
		t.Errorf("doctor with no host wired in block mode: exit %d, stderr %q; want 1", r.code, r.stderr)
	}
}
