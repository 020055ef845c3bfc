package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// build builds cmd/clumsies for goos/goarch into bin: static (no cgo),
// without the build machine's paths, and with version stamped as make
// build stamps it. dev builds as a plain go build does instead
// (Options.Dev).
func build(ctx context.Context, root, bin, version, goos, goarch string, dev bool) error {
	args := []string{"build", "-trimpath", "-o", bin}
	env := append(os.Environ(), "CGO_ENABLED=0", "GOOS="+goos, "GOARCH="+goarch)
	if dev {
		args = []string{"build", "-o", bin}
		env = append(os.Environ(), "GOOS="+goos, "GOARCH="+goarch)
	}
	if version != "" {
		args = append(args, "-ldflags", "-X main.ldVersion="+version)
	}
	cmd := exec.CommandContext(ctx, "go", append(args, "./cmd/clumsies")...)
	cmd.Dir = root
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build: %w", err)
	}
	return nil
}

// versionM returns what `go version -m` says of bin: the Go release, the
// module and its dependencies, and the build settings.
func versionM(ctx context.Context, bin string) ([]byte, error) {
	var out bytes.Buffer
	// Named from its own folder, so that the output names the binary
	// and not the staging folder.
	cmd := exec.CommandContext(ctx, "go", "version", "-m", filepath.Base(bin))
	cmd.Dir = filepath.Dir(bin)
	cmd.Stdout, cmd.Stderr = &out, os.Stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("go version -m: %w", err)
	}
	return out.Bytes(), nil
}
