package rulecheck

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clumsies/clumsies/content"
)

func runRule(source, run string) Rule {
	return Rule{ID: "p-run", Source: source, Paths: []string{"src/**"}, Checks: []content.Check{{Constraint: "C/1", Run: run, Message: "vet it"}}}
}

func TestCommands(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	t.Run("PassGetsTheFilesInScope", func(t *testing.T) {
		s := compile(t, runRule("", `printf '%s\n' "$@" > args.txt`))
		rs := s.Commands(ctx, dir, []string{"src/a.go", "web/b.ts", "src/c.go"}, Limits{})
		if len(rs) != 2 || !rs[0].Pass || !rs[1].Pass || rs[0].File != "src/a.go" || rs[1].File != "src/c.go" {
			t.Fatalf("results %+v, want two passes for the files in scope", rs)
		}
		b, _ := os.ReadFile(filepath.Join(dir, "args.txt"))
		if string(b) != "src/a.go\nsrc/c.go\n" {
			t.Errorf("the command got %q", b)
		}
	})
	t.Run("ExitStatusFails", func(t *testing.T) {
		rs := compile(t, runRule("", `echo "bad: $1"; exit 3`)).Commands(ctx, dir, []string{"src/a.go"}, Limits{})
		if len(rs) != 1 || rs[0].Pass || !strings.Contains(rs[0].Output, "bad: src/a.go") || !strings.Contains(rs[0].Output, "exit status 3") ||
			rs[0].Match != content.Hash([]byte(rs[0].Output)) || rs[0].Message != "vet it" {
			t.Errorf("results %+v", rs)
		}
	})
	t.Run("OutputBounded", func(t *testing.T) {
		rs := compile(t, runRule("", `head -c 100000 /dev/zero | tr '\0' x; exit 1`)).Commands(ctx, dir, []string{"src/a.go"}, Limits{MaxOutput: 100})
		if len(rs) != 1 || !strings.HasPrefix(rs[0].Output, strings.Repeat("x", 100)+"\n[99900 more bytes of output]") {
			t.Errorf("output %.200q", rs[0].Output)
		}
	})
	t.Run("TimeBounded", func(t *testing.T) {
		// The command and the child it starts are killed at the timeout:
		// the child never writes its file.
		rs := compile(t, runRule("", `(sleep 1; touch late.txt) & sleep 30`)).Commands(ctx, dir, []string{"src/a.go"}, Limits{Timeout: 200 * time.Millisecond})
		if len(rs) != 1 || rs[0].Pass || !strings.Contains(rs[0].Output, "killed after 200ms") {
			t.Fatalf("results %+v", rs)
		}
		time.Sleep(1500 * time.Millisecond)
		if _, err := os.Stat(filepath.Join(dir, "late.txt")); err == nil {
			t.Error("a child of the command outlived its timeout")
		}
	})
	t.Run("TeamCommandsNeverRun", func(t *testing.T) {
		rs := compile(t, runRule("team", `touch team-ran.txt; exit 1`)).Commands(ctx, dir, []string{"src/a.go"}, Limits{})
		if len(rs) != 0 {
			t.Errorf("a team rule's command gave %+v", rs)
		}
		if _, err := os.Stat(filepath.Join(dir, "team-ran.txt")); err == nil {
			t.Error("a team rule's command ran")
		}
	})
}
