package otelcoltest

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
)

// The collector's sources, relative to the module's root.
const source = "interop/otelcol"

var (
	buildOnce sync.Once
	built     string
	buildErr  error
)

// Binary returns the path of the collector, building it first when the
// cache has no build of the current sources (a minute or two on 2 cores,
// once: the key is a hash of the sources and the Go version).
func Binary() (string, error) {
	buildOnce.Do(func() { built, buildErr = build() })
	if buildErr != nil {
		return "", fmt.Errorf("build the OpenTelemetry Collector: %w", buildErr)
	}
	return built, nil
}

func build() (string, error) {
	root, err := moduleRoot()
	if err != nil {
		return "", err
	}
	src := filepath.Join(root, filepath.FromSlash(source))
	key, err := sourceKey(src)
	if err != nil {
		return "", err
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("find the cache folder: %w", err)
	}
	dir := filepath.Join(cache, "clumsies", "otelcol", key)
	bin := filepath.Join(dir, "otelcol")
	if _, err := os.Stat(bin); err == nil {
		return bin, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("make the cache folder: %w", err)
	}
	tmp, err := os.CreateTemp(dir, "otelcol-*.tmp")
	if err != nil {
		return "", fmt.Errorf("make the build's file: %w", err)
	}
	tmp.Close()
	defer os.Remove(tmp.Name())
	fmt.Fprintf(os.Stderr, "otelcoltest: building the OpenTelemetry Collector into %s (once: a minute or two)\n", dir)
	cmd := exec.Command("go", "build", "-trimpath", "-buildvcs=false", "-o", tmp.Name(), ".")
	cmd.Dir = src
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build in %s: %w\n%s", src, err, out)
	}
	// A rename, so that a test running at the same time sees either no
	// binary or the whole of one.
	if err := os.Rename(tmp.Name(), bin); err != nil {
		return "", fmt.Errorf("move the build into the cache: %w", err)
	}
	return bin, nil
}

// sourceKey hashes the collector's sources and the toolchain.
func sourceKey(src string) (string, error) {
	var names []string
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			names = append(names, p)
		}
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("list the collector's sources: %w", err)
	}
	sort.Strings(names)
	h := sha256.New()
	fmt.Fprintf(h, "%s %s/%s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			return "", fmt.Errorf("read %s: %w", n, err)
		}
		rel, _ := filepath.Rel(src, n)
		fmt.Fprintf(h, "%s %d\n", filepath.ToSlash(rel), len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// moduleRoot is the folder of the go.mod of the test's module.
func moduleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		return "", errors.New("find the module's root: not inside a module")
	}
	return filepath.Dir(gomod), nil
}
