package main_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/clumsies/clumsies/mcp"
)

// The command line's promises: stray arguments are refused, flags mean
// the same and read the same on every command, mistakes get exit status 2
// and a message that says what to do, and every data command has --json.

func TestCLI_StrayArguments(t *testing.T) {
	dir := newWorkspace(t)
	other := t.TempDir()
	for _, args := range [][]string{
		{"stats", other},
		{"serve", other},
		{"events", "attest.refer"},
		{"publish", "now"},
		{"rebuild", "x"},
		{"verify", "x"},
		{"demo", "x"},
		{"version", "x"},
		{"stats", "--json", other, "--workspace", dir},
		{"init", "a", "b"},
		{"drafts", "list", "x"},
		{"drafts", "--json", "x"},
	} {
		t.Run(strings.Join(args, "_"), func(t *testing.T) {
			r := run(t, dir, args...)
			if r.code != 2 || !strings.Contains(r.stderr, "takes") || r.stdout != "" {
				t.Fatalf("got exit %d, stdout %q, stderr %q; want exit 2 refusing the arguments", r.code, r.stdout, r.stderr)
			}
		})
	}
	for _, args := range [][]string{
		{"drafts", "show", "a", "b"},
		{"drafts", "diff", "a", "b"},
		{"drafts", "apply", "a", "b"},
		{"drafts", "decline", "a", "b", "--reason", "r"},
		{"drafts", "show"},
		{"drafts", "apply"},
		{"drafts", "frob"},
	} {
		t.Run(strings.Join(args, "_"), func(t *testing.T) {
			r := run(t, dir, args...)
			if r.code != 2 || !strings.Contains(r.stderr, "drafts") || r.stdout != "" {
				t.Fatalf("got exit %d, stdout %q, stderr %q; want exit 2 saying what drafts takes", r.code, r.stdout, r.stderr)
			}
		})
	}
	t.Run("FolderSuggestsWorkspaceFlag", func(t *testing.T) {
		r := run(t, dir, "stats", other)
		if !strings.Contains(r.stderr, "--workspace "+other) {
			t.Fatalf("stderr %q: want the --workspace flag suggested", r.stderr)
		}
	})
}

// singleDash finds a flag printed with one dash ("  -sync always").
var singleDash = regexp.MustCompile(`(?m)^\s+-[a-z]`)

func TestCLI_Help(t *testing.T) {
	dir := t.TempDir()
	help := mustRun(t, dir, "help")
	if strings.Contains(help, "Every command takes --workspace") {
		t.Errorf("help claims every command takes --workspace:\n%s", help)
	}
	workspaceCommands := []string{"serve", "publish", "events", "stats", "rebuild", "verify", "init"}
	writesEvents := map[string]bool{"serve": true, "publish": true}
	for _, cmd := range []string{"serve", "publish", "events", "stats", "rebuild", "verify", "init", "demo", "version"} {
		t.Run(cmd, func(t *testing.T) {
			r := run(t, dir, cmd, "-h")
			if r.code != 0 {
				t.Fatalf("%s -h: exit %d, want 0", cmd, r.code)
			}
			if m := singleDash.FindString(r.stderr); m != "" {
				t.Errorf("%s -h prints a flag with one dash (%q); flags are typed --name:\n%s", cmd, m, r.stderr)
			}
			hasWorkspace := strings.Contains(r.stderr, "--workspace DIR")
			if want := contains(workspaceCommands, cmd); hasWorkspace != want {
				t.Errorf("%s -h: lists --workspace %v, want %v:\n%s", cmd, hasWorkspace, want, r.stderr)
			}
			if got := strings.Contains(r.stderr, "--sync"); got != writesEvents[cmd] {
				t.Errorf("%s -h: lists --sync %v, want %v:\n%s", cmd, got, writesEvents[cmd], r.stderr)
			}
			if writesEvents[cmd] && !strings.Contains(r.stderr, "--sync always|interval") {
				t.Errorf("%s -h: want --sync shown with its values:\n%s", cmd, r.stderr)
			}
			if cmd != "serve" && !strings.Contains(r.stderr, "--json") {
				t.Errorf("%s -h: no --json:\n%s", cmd, r.stderr)
			}
		})
	}
	t.Run("SyncRefusedWhereMeaningless", func(t *testing.T) {
		r := run(t, dir, "stats", "--sync", "interval")
		if r.code != 2 || !strings.Contains(r.stderr, "sync") {
			t.Fatalf("got exit %d, stderr %q; want exit 2", r.code, r.stderr)
		}
	})
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestCLI_WorkspaceFlag(t *testing.T) {
	dir := t.TempDir()
	t.Run("DoesNotExist", func(t *testing.T) {
		missing := filepath.Join(dir, "no-such-folder")
		for _, cmd := range []string{"stats", "serve", "events"} {
			r := run(t, dir, cmd, "--workspace", missing)
			if r.code != 2 || !strings.Contains(r.stderr, "no such folder") || strings.Contains(r.stderr, "clumsies init") {
				t.Fatalf("%s: got exit %d, stderr %q; want exit 2 saying the folder does not exist", cmd, r.code, r.stderr)
			}
		}
	})
	t.Run("IsAFile", func(t *testing.T) {
		file := filepath.Join(dir, "notes.txt")
		os.WriteFile(file, []byte("x"), 0o644)
		r := run(t, dir, "stats", "--workspace", file)
		if r.code != 2 || !strings.Contains(r.stderr, "is a file") || strings.Contains(r.stderr, "fix") {
			t.Fatalf("got exit %d, stderr %q; want exit 2 saying it is a file", r.code, r.stderr)
		}
	})
	t.Run("NotAWorkspace", func(t *testing.T) {
		r := run(t, dir, "stats", "--workspace", dir)
		if r.code != 1 || !strings.Contains(r.stderr, "clumsies init") {
			t.Fatalf("got exit %d, stderr %q; want exit 1 advising clumsies init", r.code, r.stderr)
		}
	})
	t.Run("InitTakesIt", func(t *testing.T) {
		target := filepath.Join(dir, "project")
		mustRun(t, dir, "init", "--workspace", target)
		if _, err := os.Stat(filepath.Join(target, ".clumsies", "config.toml")); err != nil {
			t.Fatalf("init --workspace %s made no workspace there: %v", target, err)
		}
		if r := run(t, dir, "init", "--workspace", target, filepath.Join(dir, "elsewhere")); r.code != 2 {
			t.Fatalf("init with two different folders: got exit %d, want 2", r.code)
		}
	})
}

func TestCLI_InitInsideWorkspace(t *testing.T) {
	dir := newWorkspace(t)
	sub := filepath.Join(dir, "services", "api")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	r := run(t, sub, "init")
	if r.code != 1 || !strings.Contains(r.stderr, dir) || !strings.Contains(r.stderr, "--nested") {
		t.Fatalf("got exit %d, stderr %q; want exit 1 naming the outer workspace and --nested", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(sub, ".clumsies")); err == nil {
		t.Fatal("the refused init made a workspace anyway")
	}
	mustRun(t, sub, "init", "--nested")
	if _, err := os.Stat(filepath.Join(sub, ".clumsies", "config.toml")); err != nil {
		t.Fatalf("init --nested made no workspace: %v", err)
	}
	// Running init again at a workspace's own root is fine.
	mustRun(t, dir, "init")
}

func TestServe_PortInUse(t *testing.T) {
	dir := newWorkspace(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	r := run(t, dir, "serve", "--http", port)
	if r.code != 1 || !strings.Contains(r.stderr, "in use") || strings.Contains(r.stderr, "usage") {
		t.Fatalf("got exit %d, stderr %q; want exit 1 saying the address is in use", r.code, r.stderr)
	}
	if r := run(t, dir, "serve", "--http", "not-an-address"); r.code != 2 {
		t.Fatalf("a bad --http address: got exit %d, want 2", r.code)
	}
}

// TestServe_JunkOnStdin checks that a line that is not JSON-RPC is
// reported once, as the JSON-RPC parse error on stdout, and not again on
// stderr; serve reads on and ends cleanly with its input.
func TestServe_JunkOnStdin(t *testing.T) {
	dir := newWorkspace(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, "serve", "--workspace", dir)
	cmd.Stdin = strings.NewReader("this is not JSON-RPC\n")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("got %v, want exit 0 at the end of the input; stderr:\n%s", err, stderr.String())
	}
	if n := strings.Count(stdout.String(), `"code":-32700`); n != 1 {
		t.Fatalf("stdout %q: got %d parse errors, want 1", stdout.String(), n)
	}
	for _, s := range []string{"invalid character", "not JSON", "ended with error"} {
		if strings.Contains(stderr.String(), s) {
			t.Fatalf("stderr repeats the bad line's error (%q):\n%s", s, stderr.String())
		}
	}
}

// serveStderr starts `clumsies serve` on dir, connects a real MCP client
// and keeps what the process writes on stderr: close the client and wait
// for cmd before reading it whole.
func serveStderr(tb testing.TB, dir string, args ...string) (*exec.Cmd, *mcp.Client, *syncWriter) {
	tb.Helper()
	cmd := exec.Command(binary, append([]string{"serve", "--workspace", dir}, args...)...)
	stderr := &syncWriter{}
	cmd.Stderr = stderr
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cl, err := mcp.ConnectCommand(ctx, cmd)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		cl.Close()
		if cmd.Process != nil {
			cmd.Process.Kill()
		}
	})
	return cmd, cl, stderr
}

func TestServe_Stderr(t *testing.T) {
	dir := newWorkspace(t)
	addr := freeAddr(t)
	cmd, cl, stderr := serveStderr(t, dir, "--log-level", "info", "--nats-listen", addr, "--nats-token", "stderr-test")
	setup(t, cl, "stderr")
	cl.Close()
	cmd.Wait()
	s := stderr.String()
	if strings.Contains(s, "nats-server") || strings.Contains(s, "Starting") {
		t.Errorf("--log-level info shows nats-server's start-up notices:\n%s", s)
	}
	if !strings.Contains(s, "this process owns the workspace") {
		t.Errorf("--log-level info shows no clumsies info line:\n%s", s)
	}
	if !strings.Contains(s, "NATS listener at nats://"+addr) {
		t.Errorf("serve did not say where its NATS listener is:\n%s", s)
	}
}

func TestCLI_Version(t *testing.T) {
	var v struct {
		Version  string `json:"version"`
		Revision string `json:"revision"`
		Modified *bool  `json:"modified"`
		Go       string `json:"go"`
	}
	if err := json.Unmarshal([]byte(mustRun(t, t.TempDir(), "version", "--json")), &v); err != nil {
		t.Fatal(err)
	}
	if v.Version == "" || v.Version == "dev" || v.Go != runtime.Version() || v.Modified == nil {
		t.Fatalf("version --json: got %+v, want the module version and %s", v, runtime.Version())
	}
	text := mustRun(t, t.TempDir(), "--version")
	if !strings.HasPrefix(text, "clumsies "+v.Version) {
		t.Fatalf("--version: got %q, want it to start with clumsies %s", text, v.Version)
	}
	if v.Revision != "" && !strings.Contains(text, "commit "+v.Revision[:12]) {
		t.Fatalf("--version: got %q, want the commit %s", text, v.Revision)
	}

	t.Run("Stamped", func(t *testing.T) {
		bin := filepath.Join(t.TempDir(), "clumsies")
		build := exec.Command("go", "build", "-o", bin, "-ldflags", "-X main.ldVersion=v9.8.7", ".")
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("build: %v\n%s", err, out)
		}
		out, err := exec.Command(bin, "version").Output()
		if err != nil || !strings.HasPrefix(string(out), "clumsies v9.8.7") {
			t.Fatalf("got %q (%v), want clumsies v9.8.7", out, err)
		}
	})
}

func TestCLI_JSONEverywhere(t *testing.T) {
	dir := t.TempDir()
	var in struct {
		WorkspaceID string   `json:"workspaceId"`
		Root        string   `json:"root"`
		Created     []string `json:"created"`
	}
	if err := json.Unmarshal([]byte(mustRun(t, dir, "init", "--json")), &in); err != nil {
		t.Fatalf("init --json: %v", err)
	}
	if !strings.HasPrefix(in.WorkspaceID, "ws-") || len(in.Created) == 0 {
		t.Fatalf("init --json: got %+v", in)
	}
	if err := json.Unmarshal([]byte(mustRun(t, dir, "init", "--json")), &in); err != nil || len(in.Created) != 0 || in.Created == nil {
		t.Fatalf("init --json again: got %+v (%v), want created []", in, err)
	}

	var demo struct {
		Calls []struct {
			Tool    string `json:"tool"`
			IsError bool   `json:"isError"`
		} `json:"calls"`
		Events []map[string]any `json:"events"`
		Stats  struct {
			Events int `json:"events"`
		} `json:"stats"`
	}
	if err := json.Unmarshal([]byte(mustRun(t, dir, "demo", "--json")), &demo); err != nil {
		t.Fatalf("demo --json: %v", err)
	}
	if len(demo.Calls) == 0 || len(demo.Events) != demo.Stats.Events {
		t.Fatalf("demo --json: got %d calls, %d events, stats of %d events", len(demo.Calls), len(demo.Events), demo.Stats.Events)
	}
}
