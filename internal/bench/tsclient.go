package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// tsclientFiles are the TypeScript client driver (tsclient/lean.mjs) and
// the npm packages it needs, pinned (package.json, package-lock.json).
//
//go:embed tsclient/package.json tsclient/package-lock.json tsclient/lean.mjs
var tsclientFiles embed.FS

// errNoTSClient is returned when node, npm or the driver's npm packages
// cannot be had: the TypeScript client's figures are then not measured.
var errNoTSClient = errors.New("the TypeScript client cannot run")

// tsPlan is what the driver runs (tsclient/lean.mjs documents it).
type tsPlan struct {
	Servers map[string]tsServer `json:"servers"`
	Spawns  int                 `json:"spawns"`
	Rounds  int                 `json:"rounds"`
	Phases  [][]tsStep          `json:"phases"`
	PeakOf  string              `json:"peakOf"`
}

// tsServer is a server the driver spawns, and the calls it makes once
// connected, before any timed one.
type tsServer struct {
	Command string   `json:"command"`
	Args    []string `json:"args"`
	Setup   []tsCall `json:"setup,omitempty"`
}

type tsCall struct {
	Tool string `json:"tool"`
	Args any    `json:"args"`
}

// tsStep is a kind of timed call: perBlock calls of tool on server in
// each round, under name.
type tsStep struct {
	Name     string `json:"name"`
	Server   string `json:"server"`
	Tool     string `json:"tool"`
	Args     any    `json:"args"`
	PerBlock int    `json:"perBlock"`
}

// tsResult is what the driver measured: latencies in nanoseconds by step
// name (and "spawn NAME" by server), each step's structured answer in
// bytes as the client decoded it (JSON.stringify), and the peak RSS in
// KiB of the plan's peakOf server at the end of each phase.
type tsResult struct {
	Node string             `json:"node"`
	Lat  map[string][]int64 `json:"lat"`
	Size map[string]int     `json:"size"`
	Peak []int64            `json:"peak"`
}

// lat returns the latencies of name.
func (r tsResult) lat(name string) []time.Duration {
	out := make([]time.Duration, len(r.Lat[name]))
	for i, ns := range r.Lat[name] {
		out[i] = time.Duration(ns)
	}
	return out
}

// tsSDKVersion is the version of @modelcontextprotocol/sdk the driver's
// package.json pins.
func tsSDKVersion() string {
	var pkg struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	raw, _ := tsclientFiles.ReadFile("tsclient/package.json")
	if err := json.Unmarshal(raw, &pkg); err != nil {
		return "unknown"
	}
	return pkg.Dependencies["@modelcontextprotocol/sdk"]
}

// runTSClient runs the driver on plan with node, its npm packages
// installed first when missing, and returns what it measured; node's and
// the servers' stderr go to stderr.
func runTSClient(ctx context.Context, plan tsPlan, stderr io.Writer) (tsResult, error) {
	var res tsResult
	node, err := exec.LookPath("node")
	if err != nil {
		return res, fmt.Errorf("%w: node is not on PATH (install Node.js 20 or later)", errNoTSClient)
	}
	dir, err := installTSClient(ctx, stderr)
	if err != nil {
		return res, err
	}
	script, err := placeTSScript(dir)
	if err != nil {
		return res, err
	}
	in, err := json.Marshal(plan)
	if err != nil {
		return res, fmt.Errorf("encode the TypeScript client's plan: %w", err)
	}
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, node, script)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = bytes.NewReader(in), &out, stderr
	if err := cmd.Run(); err != nil {
		return res, fmt.Errorf("the TypeScript client driver (node %s): %w", script, err)
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		return res, fmt.Errorf("read the TypeScript client driver's answer %q: %w", out.String(), err)
	}
	return res, nil
}

// tsCacheDir is where the driver's npm packages are installed, one folder
// per package-lock.json: $CLUMSIES_BENCH_CACHE, else
// ~/.cache/clumsies/bench.
func tsCacheDir() (string, error) {
	lock, _ := tsclientFiles.ReadFile("tsclient/package-lock.json")
	sum := sha256.Sum256(lock)
	root := os.Getenv("CLUMSIES_BENCH_CACHE")
	if root == "" {
		dir, err := os.UserCacheDir()
		if err != nil {
			return "", fmt.Errorf("find the user cache folder (or set CLUMSIES_BENCH_CACHE): %w", err)
		}
		root = filepath.Join(dir, "clumsies", "bench")
	}
	return filepath.Join(root, "tsclient-"+hex.EncodeToString(sum[:6])), nil
}

// installTSClient returns the folder holding the driver's node_modules,
// running npm ci there first when they are missing. The install goes to a
// temporary folder renamed into place, so an interrupted one is never
// reused.
func installTSClient(ctx context.Context, stderr io.Writer) (string, error) {
	dir, err := tsCacheDir()
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk", "package.json")); err == nil {
		return dir, nil
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		return "", fmt.Errorf("%w: npm is not on PATH (install npm to install @modelcontextprotocol/sdk)", errNoTSClient)
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return "", fmt.Errorf("make the bench's cache folder: %w", err)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), ".install-")
	if err != nil {
		return "", fmt.Errorf("make an install folder: %w", err)
	}
	defer os.RemoveAll(tmp)
	for _, f := range []string{"package.json", "package-lock.json"} {
		raw, _ := tsclientFiles.ReadFile("tsclient/" + f)
		if err := os.WriteFile(filepath.Join(tmp, f), raw, 0o644); err != nil {
			return "", fmt.Errorf("write %s for npm: %w", f, err)
		}
	}
	fmt.Fprintf(stderr, "installing @modelcontextprotocol/sdk@%s with npm into %s (once)\n", tsSDKVersion(), dir)
	cmd := exec.CommandContext(ctx, npm, "ci", "--no-audit", "--no-fund", "--loglevel=error")
	cmd.Dir = tmp
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("%w: npm ci of internal/bench/tsclient failed (is the npm registry reachable?): %v: %s", errNoTSClient, err, bytes.TrimSpace(out))
	}
	if err := os.Rename(tmp, dir); err != nil {
		if _, serr := os.Stat(filepath.Join(dir, "node_modules")); serr == nil {
			return dir, nil // installed meanwhile by another run
		}
		return "", fmt.Errorf("move the npm install into %s: %w", dir, err)
	}
	return dir, nil
}

// placeTSScript writes the driver into dir, beside the node_modules it
// imports from, and returns its path.
func placeTSScript(dir string) (string, error) {
	raw, _ := tsclientFiles.ReadFile("tsclient/lean.mjs")
	sum := sha256.Sum256(raw)
	path := filepath.Join(dir, "lean-"+hex.EncodeToString(sum[:6])+".mjs")
	if _, err := os.Stat(path); err == nil {
		return path, nil
	}
	tmp, err := os.CreateTemp(dir, ".lean-*.mjs")
	if err != nil {
		return "", fmt.Errorf("write the TypeScript client driver: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(raw); err != nil {
		tmp.Close()
		return "", fmt.Errorf("write the TypeScript client driver: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return "", fmt.Errorf("write the TypeScript client driver: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return "", fmt.Errorf("write the TypeScript client driver: %w", err)
	}
	return path, nil
}
