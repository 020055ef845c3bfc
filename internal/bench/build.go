package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// buildEcho builds the echo baseline server into dir.
func buildEcho(dir string) (string, error) {
	out := filepath.Join(dir, "echo")
	cmd := exec.Command("go", "build", "-o", out, "./internal/bench/echo")
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("build the echo baseline: %w", err)
	}
	return out, nil
}
