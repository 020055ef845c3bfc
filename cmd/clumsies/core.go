package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
)

// coreEnv names the core binary explicitly (for installs that keep it
// elsewhere).
const coreEnv = "CLUMSIES_CORE"

// coreName is the core binary's file name.
func coreName() string {
	if runtime.GOOS == "windows" {
		return "clumsies-core.exe"
	}
	return "clumsies-core"
}

// findCore returns the path of clumsies-core: $CLUMSIES_CORE, else the one
// beside this binary, else the one on PATH.
func findCore() (string, error) {
	if p := os.Getenv(coreEnv); p != "" {
		if err := executable(p); err != nil {
			return "", fmt.Errorf("$%s: %w", coreEnv, err)
		}
		return p, nil
	}
	var beside string
	if self, err := os.Executable(); err == nil {
		beside = filepath.Join(filepath.Dir(self), coreName())
		if executable(beside) == nil {
			return beside, nil
		}
	}
	if p, err := exec.LookPath(coreName()); err == nil {
		return p, nil
	}
	return "", fmt.Errorf("%s was not found (looked at %s and on PATH): clumsies is two binaries; build both into one folder (make build, or go build -o DIR/ ./cmd/clumsies ./cmd/clumsies-core) or set $%s to the core's path", coreName(), beside, coreEnv)
}

// executable returns an error unless p is a regular file someone may run.
func executable(p string) error {
	fi, err := os.Stat(p)
	switch {
	case err != nil:
		return err
	case !fi.Mode().IsRegular():
		return fmt.Errorf("%s is not a file", p)
	case runtime.GOOS != "windows" && fi.Mode().Perm()&0o111 == 0:
		return errors.New(p + " is not executable")
	}
	return nil
}
