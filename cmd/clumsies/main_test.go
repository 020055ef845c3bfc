package main_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clumsies/clumsies/internal/testbin"
)

// binary is the clumsies binary built once for the end-to-end tests.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "clumsies-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "clumsies")
	if err := testbin.Build(binary, "."); err != nil {
		fmt.Fprintln(os.Stderr, "build clumsies:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// result is one finished run of the binary.
type result struct {
	stdout, stderr string
	code           int
}

// run runs the binary to completion with a deadline.
func run(tb testing.TB, dir string, args ...string) result {
	tb.Helper()
	return runStdin(tb, dir, nil, args...)
}

// runStdin is run with stdin given to the process (none when nil).
func runStdin(tb testing.TB, dir string, stdin []byte, args ...string) result {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Dir = dir
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	out, errs, code, err := testbin.Run(cmd)
	if err != nil {
		tb.Fatalf("run clumsies %v: %v", args, err)
	}
	return result{out, errs, code}
}

// mustRun runs the binary and fails tb unless it exits 0.
func mustRun(tb testing.TB, dir string, args ...string) string {
	tb.Helper()
	r := run(tb, dir, args...)
	if r.code != 0 {
		tb.Fatalf("clumsies %s: exit %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
	}
	return r.stdout
}

// newWorkspace runs clumsies init in a fresh folder and returns it.
func newWorkspace(tb testing.TB) string {
	tb.Helper()
	dir := tb.TempDir()
	mustRun(tb, dir, "init")
	return dir
}
