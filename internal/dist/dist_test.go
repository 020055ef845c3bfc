package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/clumsies/clumsies/internal/testbin"
)

// fullEnv makes TestDist_HostArchiveRuns build the binary as make dist
// does (make test-dist sets it). Without it the test builds as the other
// tests do and reuses their build cache: a release build compiles every
// dependency again with -trimpath, minutes on a cold cache.
const fullEnv = "CLUMSIES_TEST_DIST"

// The host's archive, built as make dist builds it, unpacks into a folder
// of its own whose binary runs: it reports the stamped version and plays
// the demo with nothing else installed beside it.
func TestDist_HostArchiveRuns(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	out := t.TempDir()
	const version = "v0.0.0-disttest"
	host := runtime.GOOS + "/" + runtime.GOARCH
	full := os.Getenv(fullEnv) != ""
	if !full {
		t.Logf("building as the tests do (reusing their build cache); %s=1 (make test-dist) builds as make dist does", fullEnv)
	}
	files, err := Run(ctx, Options{Root: "../..", Out: out, Version: version, Targets: []string{host}, Dev: !full})
	if err != nil {
		t.Fatal(err)
	}
	name := "clumsies-" + version + "-" + runtime.GOOS + "-" + runtime.GOARCH
	archive := filepath.Join(out, name+archiveExt(runtime.GOOS))
	want := []string{archive, filepath.Join(out, name+".go-version-m.txt"), filepath.Join(out, "SHA256SUMS")}
	if strings.Join(files, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got files %q, want %q", files, want)
	}
	if sha, err := exec.LookPath("sha256sum"); err == nil {
		check := exec.CommandContext(ctx, sha, "-c", "SHA256SUMS")
		check.Dir = out
		if o, errs, code, err := testbin.Run(check); err != nil || code != 0 {
			t.Fatalf("sha256sum -c SHA256SUMS: %d %v\n%s%s", code, err, o, errs)
		}
	}
	info, err := os.ReadFile(want[1])
	if err != nil {
		t.Fatal(err)
	}
	settings := []string{"GOOS=" + runtime.GOOS, "GOARCH=" + runtime.GOARCH}
	if full {
		settings = append(settings, "CGO_ENABLED=0", "-trimpath=true")
	}
	for _, setting := range settings {
		if !strings.Contains(string(info), setting) {
			t.Errorf("go version -m does not say %s:\n%s", setting, info)
		}
	}

	unpacked := t.TempDir()
	if o, errs, code, err := testbin.Run(exec.CommandContext(ctx, "tar", "-xzf", archive, "-C", unpacked)); err != nil || code != 0 {
		t.Fatalf("tar -xzf: %d %v\n%s%s", code, err, o, errs)
	}
	entries, err := os.ReadDir(filepath.Join(unpacked, name))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if strings.Join(got, " ") != "LICENSE README.md clumsies" {
		t.Fatalf("the archive holds %q, want LICENSE, README.md and clumsies in %s/", got, name)
	}
	licence, err := os.ReadFile(filepath.Join(unpacked, name, "LICENSE"))
	if err != nil || !strings.Contains(string(licence), "Apache License") || !strings.Contains(string(licence), "Version 2.0, January 2004") {
		t.Fatalf("the archive's LICENSE: %v, want the Apache License 2.0", err)
	}

	bin := filepath.Join(unpacked, name, "clumsies")
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.CommandContext(ctx, bin, args...)
		cmd.Dir = t.TempDir()
		// Only the unpacked folder: nothing else of the build is found.
		cmd.Env = append(os.Environ(), "PATH=/usr/bin:/bin", "TMPDIR="+t.TempDir())
		o, errs, code, err := testbin.Run(cmd)
		if err != nil || code != 0 {
			t.Fatalf("clumsies %s: exit %d %v\nstdout: %s\nstderr: %s", strings.Join(args, " "), code, err, o, errs)
		}
		return o
	}
	if v := run("version"); !strings.Contains(v, version) {
		t.Fatalf("clumsies version: %q, want %s", v, version)
	}
	var demo struct {
		Calls  []json.RawMessage `json:"calls"`
		Events []json.RawMessage `json:"events"`
	}
	if err := json.Unmarshal([]byte(run("demo", "--json")), &demo); err != nil {
		t.Fatalf("clumsies demo --json: %v", err)
	}
	if len(demo.Calls) == 0 || len(demo.Events) == 0 {
		t.Fatalf("clumsies demo --json: %d calls, %d events; want some of each", len(demo.Calls), len(demo.Events))
	}
}
