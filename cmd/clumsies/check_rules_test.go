package main_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/proof/attest"
)

// TestCheck_RuleFindings: clumsies check runs the pattern checks of the
// rules in scope on the lines a range added, whoever wrote them: a bare
// 500 added by hand under api/ fails the range with the file, the line,
// the constraint and the message; the same line outside the rule's paths,
// and a range that removes it again, pass; a rule whose check does not
// compile is named.
func TestCheck_RuleFindings(t *testing.T) {
	dir := newWorkspace(t)
	gitInit(t, dir)
	writeFile(t, filepath.Join(dir, ".clumsies", "rules", "api", "HANDLERS.md"), checkedRuleBody)
	mustRun(t, dir, "publish")
	gitIn(t, dir, "add", "-A")
	gitIn(t, dir, "commit", "-q", "-m", "base")
	gitIn(t, dir, "checkout", "-q", "-b", "feature")
	writeFile(t, filepath.Join(dir, "api", "h.go"), badHandler)
	writeFile(t, filepath.Join(dir, "web", "h.go"), badHandler)
	gitIn(t, dir, "add", "api", "web")
	gitIn(t, dir, "commit", "-q", "-m", "handlers")

	r := run(t, dir, "check", "--json", "main..feature")
	var res attest.Result
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil || r.code != 1 {
		t.Fatalf("check --json main..feature: exit %d (want 1), stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	if res.OK || res.Findings != 1 {
		t.Fatalf("check --json: ok %v, %d findings; want the api file's bare 500 alone\n%s", res.OK, res.Findings, r.stdout)
	}
	for _, f := range res.Files {
		switch f.Path {
		case "api/h.go":
			if len(f.Findings) != 1 || f.Findings[0].Line != 4 || f.Findings[0].ConstraintID != "Errors/2" || f.Findings[0].Message != "never return a bare 500" {
				t.Errorf("api/h.go: findings %+v, want line 4, Errors/2, never return a bare 500", f.Findings)
			}
		case "web/h.go":
			if len(f.Findings) != 0 {
				t.Errorf("web/h.go is in no rule's paths: findings %+v", f.Findings)
			}
		}
	}
	md := run(t, dir, "check", "main..feature")
	if md.code != 1 || !strings.Contains(md.stdout, "`api/h.go:4`") || !strings.Contains(md.stdout, "never return a bare 500") {
		t.Errorf("check main..feature: exit %d, want 1 and the finding in the summary:\n%s", md.code, md.stdout)
	}

	writeFile(t, filepath.Join(dir, "api", "h.go"), strings.ReplaceAll(badHandler, "http.StatusInternalServerError", "http.StatusServiceUnavailable"))
	gitIn(t, dir, "commit", "-q", "-am", "no bare 500")
	if r := run(t, dir, "check", "main..feature"); r.code != 0 || !strings.Contains(r.stdout, "passes") {
		t.Errorf("check after the fix: exit %d\n%s%s; want it to pass", r.code, r.stdout, r.stderr)
	}

	writeFile(t, filepath.Join(dir, ".clumsies", "rules", "api", "HANDLERS.md"), strings.Replace(checkedRuleBody, "'StatusInternalServerError'", "'(unclosed'", 1))
	if r := run(t, dir, "check", "main..feature"); r.code == 0 || !strings.Contains(r.stderr, "rules/api/HANDLERS.md") {
		t.Errorf("check with a check that does not compile: exit %d, stderr %q; want the file named", r.code, r.stderr)
	}
}
