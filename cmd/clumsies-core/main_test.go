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
	build := exec.Command("go", "build", "-o", binary, ".")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
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
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		tb.Fatalf("run clumsies %v: %v", args, err)
	}
	return result{out.String(), errb.String(), code}
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
