package adapt

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// hookLines returns the command lines of the hook entries of p, each with
// whether it is Windsurf's gate (which keeps clumsies' exit status).
func hookLines(p Plan) map[string]bool {
	out := map[string]bool{}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case obj:
			for _, m := range v {
				if s, ok := m.V.(string); ok && (m.K == "command" || m.K == "bash") && strings.Contains(s, " hook ") {
					out[s] = strings.HasSuffix(s, "hook pre-tool --host windsurf")
				}
				walk(m.V)
			}
		case []any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	for _, f := range p.Files {
		for _, j := range f.json {
			walk(j.value)
		}
	}
	return out
}

// TestPlan_HookCommandsNeverBlock runs every hook command line adapt
// writes through sh, as the hosts do: where clumsies is not installed it
// exits 0 and prints nothing; where clumsies fails (status 1, or 2 as a
// Go panic exits) it exits 0, but for Windsurf's gate, whose status 2 is
// its refusal (Windsurf lets a tool run on any other status); and
// clumsies' answer on stdout passes through.
func TestPlan_HookCommandsNeverBlock(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the hook lines are POSIX shell")
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	empty, broken1, broken2, answering := t.TempDir(), t.TempDir(), t.TempDir(), t.TempDir()
	for dir, body := range map[string]string{broken1: "exit 1", broken2: "echo panic >&2; exit 2", answering: `echo '{"ok":true}'`} {
		if err := os.WriteFile(filepath.Join(dir, "clumsies"), []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	run := func(line, path string) (string, int) {
		cmd := exec.Command(sh, "-c", line)
		cmd.Env = []string{"PATH=" + path}
		out, err := cmd.Output()
		if ee, ok := err.(*exec.ExitError); ok {
			return string(out), ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return string(out), 0
	}
	lines := 0
	for _, h := range Hosts() {
		for line, keepsStatus := range hookLines(h.Plan(Project, Env{Root: "/w", Home: "/h"})) {
			lines++
			if out, code := run(line, empty); code != 0 || out != "" {
				t.Errorf("%s without clumsies: %q exits %d, prints %q; want 0 and nothing", h.Name, line, code, out)
			}
			if _, code := run(line, broken1); code != 0 && !keepsStatus || code == 2 {
				t.Errorf("%s with a clumsies that fails: %q exits %d, want 0 (or any status but 2 on Windsurf)", h.Name, line, code)
			}
			want := 0
			if keepsStatus {
				want = 2
			}
			if _, code := run(line, broken2); code != want {
				t.Errorf("%s with a clumsies that exits 2: %q exits %d, want %d", h.Name, line, code, want)
			}
			if out, code := run(line, answering); code != 0 || out != "{\"ok\":true}\n" {
				t.Errorf("%s: %q exits %d, prints %q; want clumsies' answer", h.Name, line, code, out)
			}
		}
	}
	if lines == 0 {
		t.Fatal("no hook lines in the plans")
	}
}

// TestPlan_UpgradesThePreviousRelease applies each host's plan over the
// files the previous release wrote on top of a user's own
// (testdata/upgrade/<host>/, unguarded commands, fewer tools): every old
// entry is replaced, none is left twice, the plan reads as wired, and
// --remove gives back the user's files.
func TestPlan_UpgradesThePreviousRelease(t *testing.T) {
	hosts, err := os.ReadDir(filepath.Join("testdata", "upgrade"))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range hosts {
		t.Run(d.Name(), func(t *testing.T) {
			h, err := Lookup(d.Name())
			if err != nil {
				t.Fatal(err)
			}
			env := setUp(t)
			base := filepath.Dir(env.Root)
			before := snapshot(t, base)
			src := filepath.Join("testdata", "upgrade", d.Name())
			var old []string
			filepath.WalkDir(src, func(p string, e os.DirEntry, err error) error {
				if err != nil || e.IsDir() {
					return err
				}
				rel, _ := filepath.Rel(src, p)
				b, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				dst := filepath.Join(base, rel)
				old = append(old, dst)
				if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
					t.Fatal(err)
				}
				return os.WriteFile(dst, b, 0o644)
			})
			p := h.Plan(Project, env)
			if got := p.State(); got == Wired {
				t.Errorf("the previous release's wiring reads as %s", got)
			}
			if _, err := p.Apply(); err != nil {
				t.Fatal(err)
			}
			if got := p.State(); got != Wired {
				t.Errorf("after adapt: %s, want wired", got)
			}
			for _, f := range old {
				b, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				for _, ev := range []Event{SessionStart, UserPrompt, Stop, PreTool, PostTool} {
					marker := " hook " + string(ev) + " --host " + h.Name
					if n := strings.Count(string(b), marker); n > 0 && n != strings.Count(string(b), "|| exit 0; clumsies"+marker) {
						t.Errorf("%s: an unguarded %s hook is left:\n%s", f, ev, b)
					}
				}
			}
			if _, err := p.Remove(); err != nil {
				t.Fatal(err)
			}
			after := snapshot(t, base)
			for path, body := range before {
				if after[path] != body {
					t.Errorf("after --remove, %s:\n%s\nwant the user's:\n%s", path, after[path], body)
				}
			}
			for path := range after {
				if _, ok := before[path]; !ok {
					t.Errorf("after --remove, %s is left (the previous release created it)", path)
				}
			}
		})
	}
}
