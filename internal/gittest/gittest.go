// Package gittest runs git for tests that need a real repository: with an
// identity of its own and no signing, whatever the machine's git
// configuration says. It imports only the standard library.
package gittest

import (
	"os/exec"
	"strings"
	"testing"
)

// Need skips tb when git is not installed.
func Need(tb testing.TB) {
	tb.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		tb.Skip("git is not installed")
	}
}

// Git runs git with args in dir and returns its trimmed output; it fails
// tb when git does.
func Git(tb testing.TB, dir string, args ...string) string {
	tb.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		tb.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// Init makes a new repository in a temporary folder of tb with branch as
// its first branch and returns the folder; it skips tb when git is not
// installed.
func Init(tb testing.TB, branch string) string {
	tb.Helper()
	Need(tb)
	dir := tb.TempDir()
	Git(tb, dir, "init", "-q", "-b", branch)
	return dir
}
