package testbin

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Build builds the main packages pkgs (as `go build` names them, from the
// test's folder) into out, the compiler's output going to stderr. out is
// what `go build -o` takes: the binary's path for one package, or a folder
// ending in the path separator for one binary each.
func Build(out string, pkgs ...string) error {
	build := exec.Command("go", append([]string{"build", "-o", out}, pkgs...)...)
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		return fmt.Errorf("go build %s: %w", strings.Join(pkgs, " "), err)
	}
	return nil
}

// Run runs cmd to completion and returns what it wrote on stdout and
// stderr (where the caller set neither) and its exit status. err is set
// only when cmd could not be run; a non-zero exit status is not an error.
func Run(cmd *exec.Cmd) (stdout, stderr string, code int, err error) {
	var out, errb strings.Builder
	if cmd.Stdout == nil {
		cmd.Stdout = &out
	}
	if cmd.Stderr == nil {
		cmd.Stderr = &errb
	}
	err = cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return out.String(), errb.String(), ee.ExitCode(), nil
	}
	return out.String(), errb.String(), 0, err
}

// HTTPToken returns the token `serve --http` and `ui` keep for the
// workspace in the folder dir when given none, read as a user reads it.
func HTTPToken(tb testing.TB, dir string) string {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join(dir, ".clumsies", "state", "http-token"))
	if err != nil {
		tb.Fatalf("read the HTTP token serve keeps: %v", err)
	}
	return strings.TrimSpace(string(b))
}
