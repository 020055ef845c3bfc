//go:build !unix

package main

import (
	"errors"
	"os"
	"os/exec"
)

// canExec: without exec the core runs as a child on the same stdin and
// stdout, so the front reads nothing and answers nothing.
const canExec = false

// runCore runs the core with args on this process's stdio and exits with
// its status.
func runCore(core string, args []string, _ string) error {
	cmd := exec.Command(core, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		os.Exit(ee.ExitCode())
	}
	if err == nil {
		os.Exit(0)
	}
	return err
}

// input is stdin as the front reads it (never: canExec is false).
func input(f *os.File) *os.File { return f }
