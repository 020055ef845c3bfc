package adapt

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// userFiles are config files a user already has, with their own servers
// and hooks, keyed by their path relative to the project (p/) or the home
// folder (h/).
var userFiles = map[string]string{
	"p/.mcp.json": "{\n  \"mcpServers\": {\n    \"github\": {\"command\": \"gh-mcp\", \"args\": []}\n  }\n}\n",
	"p/.claude/settings.json": `{
  "permissions": {"allow": ["Bash(go test:*)"]},
  "hooks": {
    "Stop": [
      {"hooks": [{"type": "command", "command": "notify-send done"}]}
    ]
  }
}
`,
	"p/.codex/config.toml": "model = \"gpt-5-codex\"\n\n[mcp_servers.github]\ncommand = \"gh-mcp\"\n",
	"p/.codex/hooks.json":  "{\"hooks\": {\"SessionStart\": [{\"matcher\": \"startup\", \"hooks\": [{\"type\": \"command\", \"command\": \"echo hi\"}]}]}}",
	"p/.cursor/mcp.json":   "{\n\t\"mcpServers\": {\n\t\t\"linear\": {\"url\": \"https://mcp.linear.app/sse\"}\n\t}\n}",
	"p/.cursor/hooks.json": "{\n  \"version\": 1,\n  \"hooks\": {\n    \"afterFileEdit\": [{\"command\": \"./fmt.sh\"}]\n  }\n}\n",
	"p/.gemini/settings.json": `{
  // my Gemini settings
  "theme": "GitHub",
  "mcpServers": {"db": {"command": "db-mcp"}},
}
`,
	"p/opencode.json":                   "{\n  \"$schema\": \"https://opencode.ai/config.json\",\n  \"model\": \"anthropic/claude-sonnet-4-5\"\n}\n",
	"h/.claude.json":                    "{\"numStartups\": 12, \"mcpServers\": {\"github\": {\"command\": \"gh-mcp\"}}, \"projects\": {}}\n",
	"h/.claude/settings.json":           "{\"model\": \"opus\"}\n",
	"h/.codex/config.toml":              "model = \"o4\"",
	"h/.config/opencode/opencode.jsonc": "{\n  // mine\n  \"theme\": \"opencode\"\n}\n",
}

func setUp(tb testing.TB) Env {
	tb.Helper()
	dir := tb.TempDir()
	env := Env{Root: filepath.Join(dir, "p"), Home: filepath.Join(dir, "h")}
	for rel, body := range userFiles {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			tb.Fatal(err)
		}
	}
	return env
}

// snapshot reads every file under dir, backups left out.
func snapshot(tb testing.TB, dir string) map[string]string {
	tb.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(p, BackupSuffix) {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		out[p] = string(b)
		return nil
	})
	return out
}

func TestPlan_ApplyTwiceThenRemove(t *testing.T) {
	for _, h := range Hosts() {
		for _, scope := range []Scope{Project, User} {
			t.Run(h.Name+"/"+string(scope), func(t *testing.T) {
				env := setUp(t)
				root := filepath.Dir(env.Root)
				before := snapshot(t, root)
				p := h.Plan(scope, env)
				if st := p.State(); st != NotWired {
					t.Fatalf("before: got state %s, want %s", st, NotWired)
				}
				changes, err := p.Apply()
				if err != nil {
					t.Fatal(err)
				}
				for _, c := range changes {
					if c.Action == "updated" {
						if b, err := os.ReadFile(c.Backup); err != nil || string(b) != before[c.Path] {
							t.Errorf("%s: backup %s does not hold the previous bytes (%v)", c.Path, c.Backup, err)
						}
						if fi, err := os.Stat(c.Backup); err != nil {
							t.Error(err)
						} else if fi.Mode().Perm() != 0o600 {
							t.Errorf("%s: backup mode %v, want the original's 0600", c.Backup, fi.Mode().Perm())
						}
					}
					if c.Action == "updated" || c.Action == "created" {
						if fi, err := os.Stat(c.Path); err == nil && before[c.Path] != "" && fi.Mode().Perm() != 0o600 {
							t.Errorf("%s: mode %v, want the user's 0600 kept", c.Path, fi.Mode().Perm())
						}
					}
				}
				if st := p.State(); st != Wired {
					t.Fatalf("after apply: got state %s, want %s", st, Wired)
				}
				after := snapshot(t, root)
				for path, body := range before {
					if after[path] != body {
						keepsUserValues(t, path, body, after[path])
					}
				}
				again, err := p.Apply()
				if err != nil {
					t.Fatal(err)
				}
				for _, c := range again {
					if c.Action != "unchanged" {
						t.Errorf("second apply: %s %s, want unchanged", c.Path, c.Action)
					}
				}
				if _, err := p.Remove(); err != nil {
					t.Fatal(err)
				}
				got := snapshot(t, root)
				for path, body := range before {
					if got[path] != body {
						t.Errorf("%s after remove:\n%s\nwant the original bytes:\n%s", path, got[path], body)
					}
				}
				for path := range got {
					if _, ok := before[path]; !ok {
						t.Errorf("remove left %s behind", path)
					}
				}
				for _, c := range changes {
					if _, had := before[c.Path]; !had {
						if _, err := os.Stat(c.Path + BackupSuffix); err == nil {
							t.Errorf("remove left the backup %s of a file adapt created", c.Path+BackupSuffix)
						}
					}
				}
				if st := p.State(); st != NotWired {
					t.Errorf("after remove: got state %s, want %s", st, NotWired)
				}
			})
		}
	}
}

// keepsUserValues checks that every scalar of the user's file is still at
// its place in the file after adapt: JSON at the same key path, TOML
// text unchanged in front of the block.
func keepsUserValues(tb testing.TB, path, before, after string) {
	tb.Helper()
	if strings.HasSuffix(path, ".toml") {
		if !strings.HasPrefix(after, before) {
			tb.Errorf("%s: the user's part changed:\n%s", path, after)
		}
		return
	}
	b, err := newDoc([]byte(before))
	if err != nil {
		tb.Fatal(err)
	}
	a, err := newDoc([]byte(after))
	if err != nil {
		tb.Fatalf("%s after adapt: %v", path, err)
	}
	var walk func(bn, an *jnode, where string)
	walk = func(bn, an *jnode, where string) {
		switch {
		case an == nil || an.kind != bn.kind:
			tb.Errorf("%s: %s is gone or changed kind", path, where)
		case bn.kind == '{':
			for _, m := range bn.members {
				i := an.member(m.key)
				if i < 0 {
					tb.Errorf("%s: %s.%s is gone", path, where, m.key)
					continue
				}
				walk(m.val, an.members[i].val, where+"."+m.key)
			}
		case bn.kind == '[':
			for i, e := range bn.elems {
				if i >= len(an.elems) {
					tb.Errorf("%s: %s[%d] is gone", path, where, i)
					continue
				}
				walk(e, an.elems[i], fmt.Sprintf("%s[%d]", where, i))
			}
		default:
			if got, want := after[an.start:an.end], before[bn.start:bn.end]; got != want {
				tb.Errorf("%s: %s is %s, was %s", path, where, got, want)
			}
		}
	}
	walk(b.root, a.root, "")
}

func TestPlan_RefusesWhatItCannotRead(t *testing.T) {
	env := setUp(t)
	bad := filepath.Join(env.Root, ".claude", "settings.json")
	if err := os.WriteFile(bad, []byte("{\"hooks\": "), 0o644); err != nil {
		t.Fatal(err)
	}
	mcp := filepath.Join(env.Root, ".mcp.json")
	before, _ := os.ReadFile(mcp)
	_, err := claudeCode.Plan(Project, env).Apply()
	if err == nil || !strings.Contains(err.Error(), "settings.json") || !strings.Contains(err.Error(), "fix the file") {
		t.Fatalf("got %v, want an error naming the file and what to do", err)
	}
	if after, _ := os.ReadFile(mcp); string(after) != string(before) {
		t.Errorf("a failed plan changed %s", mcp)
	}

	t.Run("TOMLTableOfTheUser", func(t *testing.T) {
		env := setUp(t)
		cfg := filepath.Join(env.Root, ".codex", "config.toml")
		if err := os.WriteFile(cfg, []byte("[mcp_servers.clumsies]\ncommand = \"/opt/clumsies\"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := codex.Plan(Project, env).Apply(); err == nil || !strings.Contains(err.Error(), "[mcp_servers.clumsies]") {
			t.Errorf("got %v, want a refusal naming the table", err)
		}
	})
}

func TestPlan_FromNothing(t *testing.T) {
	for _, h := range Hosts() {
		env := Env{Root: t.TempDir(), Home: t.TempDir()}
		p := h.Plan(Project, env)
		changes, err := p.Apply()
		if err != nil {
			t.Fatalf("%s: %v", h.Name, err)
		}
		for _, c := range changes {
			if c.Action != "created" {
				t.Errorf("%s: %s %s, want created", h.Name, c.Path, c.Action)
			}
		}
		if _, err := p.Remove(); err != nil {
			t.Fatal(err)
		}
		if left := snapshot(t, env.Root); len(left) != 0 {
			t.Errorf("%s: remove left %v", h.Name, left)
		}
	}
}

func TestPlan_KeepsSymlinks(t *testing.T) {
	env := Env{Root: t.TempDir(), Home: t.TempDir()}
	dotfiles := filepath.Join(t.TempDir(), "settings.json")
	mine := "{\"model\": \"opus\"}\n"
	if err := os.WriteFile(dotfiles, []byte(mine), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(env.Home, ".claude", "settings.json")
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(dotfiles, link); err != nil {
		t.Fatal(err)
	}
	p := claudeCode.Plan(User, env)
	if _, err := p.Apply(); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced by a file (%v)", err)
	}
	if b, _ := os.ReadFile(dotfiles); !strings.Contains(string(b), "clumsies hook") {
		t.Fatalf("the link's target was not wired:\n%s", b)
	}
	if _, err := p.Remove(); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(dotfiles); string(b) != mine {
		t.Errorf("after remove the target holds\n%s\nwant\n%s", b, mine)
	}
}
