package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Targets are the GOOS/GOARCH pairs make dist builds.
var Targets = []string{"linux/amd64", "linux/arm64", "darwin/amd64", "darwin/arm64", "windows/amd64"}

// Options say what Run builds and where.
type Options struct {
	Root    string   // the module's root
	Out     string   // the folder that receives the archives
	Version string   // stamped into the binary and named in the archives; may be empty
	Targets []string // GOOS/GOARCH pairs
	// Dev builds the binary as a plain `go build` does (no -trimpath, the
	// environment's cgo setting), so that it reuses what the tests'
	// builds put in the build cache instead of compiling every
	// dependency again: for the default test run. A release never sets it.
	Dev bool
}

// Run builds one archive per target into o.Out, each with its binary's
// `go version -m` beside it, then SHA256SUMS over them. It returns the
// files written, SHA256SUMS last.
func Run(ctx context.Context, o Options) ([]string, error) {
	if err := os.MkdirAll(o.Out, 0o755); err != nil {
		return nil, fmt.Errorf("make the output folder: %w", err)
	}
	if err := clean(o.Out); err != nil {
		return nil, err
	}
	stage, err := os.MkdirTemp("", "clumsies-dist-")
	if err != nil {
		return nil, fmt.Errorf("make a staging folder: %w", err)
	}
	defer os.RemoveAll(stage)
	var files []string
	for _, t := range o.Targets {
		goos, goarch, ok := strings.Cut(t, "/")
		if !ok {
			return nil, fmt.Errorf("target %q is not GOOS/GOARCH", t)
		}
		written, err := release(ctx, o, stage, goos, goarch)
		if err != nil {
			return nil, fmt.Errorf("release %s: %w", t, err)
		}
		files = append(files, written...)
	}
	sums, err := writeSums(o.Out, files)
	if err != nil {
		return nil, err
	}
	return append(files, sums), nil
}

// release builds the binary for one target and writes its archive and
// its `go version -m` into o.Out.
func release(ctx context.Context, o Options, stage, goos, goarch string) ([]string, error) {
	name := archiveName(o.Version, goos, goarch)
	dir := filepath.Join(stage, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("make the staging folder: %w", err)
	}
	bin := filepath.Join(dir, binaryName(goos))
	if err := build(ctx, o.Root, bin, o.Version, goos, goarch, o.Dev); err != nil {
		return nil, err
	}
	info, err := versionM(ctx, bin)
	if err != nil {
		return nil, err
	}
	entries := []entry{{path: bin, name: name + "/" + filepath.Base(bin), mode: 0o755}}
	// Every archive carries the licence and the README: a release
	// without them is not made.
	for _, doc := range []string{"LICENSE", "README.md"} {
		p := filepath.Join(o.Root, doc)
		if _, err := os.Stat(p); err != nil {
			return nil, fmt.Errorf("pack %s: %w", doc, err)
		}
		entries = append(entries, entry{path: p, name: name + "/" + doc, mode: 0o644})
	}
	archive := filepath.Join(o.Out, name+archiveExt(goos))
	if err := writeArchive(archive, entries); err != nil {
		return nil, err
	}
	infoFile := filepath.Join(o.Out, name+".go-version-m.txt")
	if err := os.WriteFile(infoFile, info, 0o644); err != nil {
		return nil, fmt.Errorf("write go version -m: %w", err)
	}
	return []string{archive, infoFile}, nil
}

// archiveName is the archive's name without its extension, and the
// folder it unpacks into: clumsies-VERSION-GOOS-GOARCH.
func archiveName(version, goos, goarch string) string {
	parts := []string{"clumsies"}
	if version != "" {
		parts = append(parts, version)
	}
	return strings.Join(append(parts, goos, goarch), "-")
}

func archiveExt(goos string) string {
	if goos == "windows" {
		return ".zip"
	}
	return ".tar.gz"
}

func binaryName(goos string) string {
	if goos == "windows" {
		return "clumsies.exe"
	}
	return "clumsies"
}

// clean removes what an earlier run wrote into out, and nothing else.
func clean(out string) error {
	old, err := filepath.Glob(filepath.Join(out, "clumsies-*"))
	if err != nil {
		return fmt.Errorf("list earlier archives: %w", err)
	}
	for _, f := range append(old, filepath.Join(out, sumsFile)) {
		if err := os.Remove(f); err != nil && !os.IsNotExist(err) {
			return fmt.Errorf("remove an earlier archive: %w", err)
		}
	}
	return nil
}
