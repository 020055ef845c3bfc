package adapt

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestPlan_Golden wires every host with config files (opencode's plugin
// is agent/adapt/opencode.js itself) into an empty project and home, and
// compares every file written with testdata/<host>/plan-<scope>.golden
// (go test ./agent/adapt -update rewrites them).
func TestPlan_Golden(t *testing.T) {
	for _, h := range []*Host{claudeCode, codex, cursor, geminiCLI, copilot, vscode, windsurf} {
		for _, scope := range []Scope{Project, User} {
			t.Run(h.Name+"/"+string(scope), func(t *testing.T) {
				dir := t.TempDir()
				env := Env{Root: filepath.Join(dir, "project"), Home: filepath.Join(dir, "home")}
				if _, err := h.Plan(scope, env).Apply(); err != nil {
					t.Fatal(err)
				}
				files := snapshot(t, dir)
				paths := make([]string, 0, len(files))
				for p := range files {
					paths = append(paths, p)
				}
				slices.Sort(paths)
				var b strings.Builder
				for _, p := range paths {
					rel, _ := filepath.Rel(dir, p)
					b.WriteString("== " + filepath.ToSlash(rel) + "\n")
					b.WriteString(strings.ReplaceAll(files[p], env.Root, "/home/ana/shop"))
				}
				golden := filepath.Join("testdata", h.Name, "plan-"+string(scope)+".golden")
				if *update {
					if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (run go test ./agent/adapt -update)", err)
				}
				if b.String() != string(want) {
					t.Errorf("got\n%s\nwant\n%s", b.String(), want)
				}
			})
		}
	}
}
