package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/agent/adapt"
)

// TestCLI_Newcomer: what a newcomer meets on the command line says the
// same thing everywhere: help for a command, flags named as they are
// typed, the usage line with every flag, all the hosts, day ranges that
// say what they take, arguments refused where they are wrong, counts in
// good English, and a config.toml that shows the optional tables.
func TestCLI_Newcomer(t *testing.T) {
	dir := newWorkspace(t)
	expect := func(t *testing.T, r result, code int, in string, want ...string) {
		t.Helper()
		out := r.stdout
		if in == "stderr" {
			out = r.stderr
		}
		for _, w := range want {
			if r.code != code || !strings.Contains(out, w) {
				t.Fatalf("exit %d, %s:\n%s\nwant exit %d and %q", r.code, in, out, code, w)
			}
		}
	}
	t.Run("HelpCommand", func(t *testing.T) {
		expect(t, run(t, dir, "help", "stats"), 0, "stderr", "Usage: clumsies stats", "--days")
		expect(t, run(t, dir, "help", "nothing"), 2, "stderr", `unknown command "nothing"`)
	})
	t.Run("FlagErrorsWithTwoDashes", func(t *testing.T) {
		r := run(t, dir, "stats", "--dayz", "3")
		expect(t, r, 2, "stderr", "flag provided but not defined: --dayz")
		expect(t, run(t, dir, "stats", "--days", "x"), 2, "stderr", "for flag --days")
	})
	t.Run("UsageNamesLogLevel", func(t *testing.T) {
		for _, cmd := range []string{"stats", "events", "publish", "serve"} {
			expect(t, run(t, dir, cmd, "-h"), 0, "stderr", "Usage: clumsies "+cmd, "--log-level")
		}
	})
	t.Run("HelpListsEveryHost", func(t *testing.T) {
		expect(t, run(t, dir, "help"), 0, "stdout", adapt.Names()...)
	})
	t.Run("DayRange", func(t *testing.T) {
		expect(t, run(t, dir, "stats", "--days", "0"), 2, "stderr", "--days 0: want 1 to", "all time")
		r := run(t, dir, "stats", "--days", "99999")
		expect(t, r, 2, "stderr", "--days 99999: want 1 to")
		if strings.Contains(r.stderr, "dayrange") {
			t.Fatalf("stderr %q names a package", r.stderr)
		}
		mustRun(t, dir, "stats", "--days", "7")
	})
	t.Run("StrayArguments", func(t *testing.T) {
		expect(t, run(t, dir, "adapt", "claude-code", "extra"), 2, "stderr", "adapt takes one HOST")
		expect(t, run(t, dir, "hub", "revoke", "", "--url", "http://127.0.0.1:1", "--token", "t"), 2, "stderr", "empty argument")
	})
	t.Run("NATSTokenInTheProcessList", func(t *testing.T) {
		expect(t, run(t, dir, "serve", "--nats-token", "secret"), 0, "stderr", "every local user can read --nats-token")
	})
	t.Run("OneCheckpoint", func(t *testing.T) {
		// serve pinned the chain with one checkpoint as it stopped.
		out := mustRun(t, dir, "verify")
		if !strings.Contains(out, "1 checkpoint,") || strings.Contains(out, "1 checkpoints") {
			t.Fatalf("verify: %q, want 1 checkpoint in the singular", out)
		}
	})
	t.Run("AdaptRemoveLeavesNoFolders", func(t *testing.T) {
		ws := newWorkspace(t)
		for _, h := range adapt.Names() {
			mustRun(t, ws, "adapt", h)
		}
		for _, h := range adapt.Names() {
			mustRun(t, ws, "adapt", h, "--remove")
		}
		entries, err := os.ReadDir(ws)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if e.Name() != ".clumsies" {
				t.Errorf("after adapt --remove of every host: %s is left in the workspace", e.Name())
			}
		}
	})
	t.Run("ConfigShowsOptionalTables", func(t *testing.T) {
		b, err := os.ReadFile(filepath.Join(dir, ".clumsies", "config.toml"))
		if err != nil || !strings.Contains(string(b), "# [enforce]") || !strings.Contains(string(b), "# [otel]") {
			t.Fatalf("config.toml: %s (%v), want commented [enforce] and [otel] examples", b, err)
		}
	})
}
