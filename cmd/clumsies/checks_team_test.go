package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestChecks_TeamCommandsNeverRun: with `[enforce] checks = "run"`, the
// command check of the repository's own rule runs at the end of a turn,
// and the command check of a rule of the team's catalog pulled from the
// hub never does; the team rule's pattern check runs like any other.
func TestChecks_TeamCommandsNeverRun(t *testing.T) {
	hp := newHub(t)
	tree := writeTree(t, map[string]string{"rules/team/STYLE.md": "---\npaths: [\"svc/**\"]\nchecks:\n" +
		"  - constraint: \"Do/1\"\n    run: \"touch team-ran\"\n" +
		"  - constraint: \"Do/1\"\n    forbid: 'TEAMBAD'\n    message: \"the team says no\"\n" +
		"---\n# Team style\n\nHow the team writes code.\n\n## Do\n\n- Keep it small.\n"})
	pushTree(t, hp, tree, "red")
	dir := newWorkspace(t)
	hp.join(t, dir, "red", "ann")
	writeFile(t, filepath.Join(dir, ".clumsies", "rules", "own", "OWN.md"), "---\npaths: [\"svc/**\"]\nchecks:\n"+
		"  - constraint: \"Do/1\"\n    run: \"touch own-ran\"\n---\n# Own\n\n## Do\n\n- Vet it.\n")
	setEnforce(t, dir, "block")
	cfg := filepath.Join(dir, ".clumsies", "config.toml")
	b, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, cfg, string(b)+"checks = \"run\"\n")
	_, cl := serve(t, dir)
	s := checkSession{t: t, dir: dir, cl: cl}
	s.id = hookSession(t, dir, "team-checks", func(id, secret string) { setupWith(t, cl, id, secret) })
	waitFor(t, "the team rule in the workspace", func() bool { return discItem(t, cl, "team/STYLE.md") != nil })
	var ids []string
	known := map[string]string{}
	for _, p := range []string{"team/STYLE.md", "own/OWN.md"} {
		id := discItem(t, cl, p)["id"].(string)
		ids, known[id] = append(ids, id), ""
	}
	call(t, cl, "memload", map[string]any{"ids": ids, "knownHashes": known})

	if told := s.writeAndPost("svc/a.go", "package svc\n// TEAMBAD\n"); !strings.Contains(told, "svc/a.go:2 Do/1 (team/STYLE.md): the team says no") {
		t.Fatalf("the team rule's pattern check was not told: %q (memdisc lists the team rule as %v)", told, discItem(t, cl, "team/STYLE.md"))
	}
	s.writeAndPost("svc/a.go", "package svc\n")
	call(t, cl, "agentreport", map[string]any{"summary": "done"})
	if why := s.stop(); why != "" {
		t.Fatalf("stop refused: %s", why)
	}
	if _, err := os.Stat(filepath.Join(dir, "own-ran")); err != nil {
		t.Errorf("the repository's command check did not run: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "team-ran")); err == nil {
		t.Error("the team catalog's command check ran")
	}
}
