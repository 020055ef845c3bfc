package rulecheck

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// git runs git in dir, failing the test on error, and returns its output.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v: %s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func write(t *testing.T, dir, name, body string) {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestRange(t *testing.T) {
	repo := t.TempDir()
	git(t, repo, "init", "-q", "-b", "main")
	write(t, repo, "src/api/h.go", "// errors: mapped\nold(StatusInternalServerError)\n")
	write(t, repo, "src/api/gone.go", "StatusInternalServerError\n")
	git(t, repo, "add", "-A")
	git(t, repo, "commit", "-q", "-m", "base")
	base := git(t, repo, "rev-parse", "HEAD")
	write(t, repo, "src/api/h.go", "// errors: mapped\nold(StatusInternalServerError)\nfine()\nnew(StatusInternalServerError)\n")
	write(t, repo, "src/api/café.go", "// errors: x\nStatusInternalServerError\n")
	write(t, repo, "web/x.go", "StatusInternalServerError\n")
	if err := os.Remove(filepath.Join(repo, "src/api/gone.go")); err != nil {
		t.Fatal(err)
	}
	git(t, repo, "add", "-A")
	git(t, repo, "commit", "-q", "-m", "head")
	got, err := Range(context.Background(), repo, base, "HEAD", []Rule{apiRule()})
	if err != nil {
		t.Fatal(err)
	}
	var brief []string
	for _, r := range got {
		s := r.File + " " + r.Constraint + " "
		if r.Pass {
			s += "pass"
		} else {
			s += "fail@" + strconv.Itoa(r.Line)
		}
		brief = append(brief, s)
	}
	want := []string{
		"src/api/café.go Errors/2 fail@2", "src/api/café.go Errors/1 pass",
		"src/api/h.go Errors/2 fail@4", "src/api/h.go Errors/1 fail@3",
	}
	if strings.Join(brief, "; ") != strings.Join(want, "; ") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(brief, "\n"), strings.Join(want, "\n"))
	}
	if f := Findings(got); len(f) != 3 || f[0].File != "src/api/café.go" || f[2].Constraint != "Errors/1" {
		t.Errorf("findings %+v", f)
	}
	if _, err := Range(context.Background(), repo, "--output=x", "HEAD", []Rule{apiRule()}); err == nil {
		t.Error("an option as a revision was taken")
	}
	if _, err := Range(context.Background(), repo, "nosuch", "HEAD", []Rule{apiRule()}); err == nil || !strings.Contains(err.Error(), "nosuch") {
		t.Errorf("an unknown revision: %v", err)
	}
}
