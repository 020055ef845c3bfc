package hosts

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/clumsies/clumsies/internal/testbin"
)

// enabled is the variable `make test-hosts` sets.
const enabled = "CLUMSIES_TEST_HOSTS"

// hostTimeout bounds one run of a host program; generous, the machine is
// shared.
const hostTimeout = 5 * time.Minute

// binDir holds the clumsies binaries built for the run, put on the hosts'
// PATH as an installed clumsies is: built from this tree, or taken from
// $CLUMSIES_HOSTS_BIN.
var binDir string

func TestMain(m *testing.M) {
	if os.Getenv(enabled) == "" {
		os.Exit(m.Run()) // every test skips
	}
	if dir := os.Getenv("CLUMSIES_HOSTS_BIN"); dir != "" {
		binDir = dir // binaries built elsewhere, e.g. from another branch
		os.Exit(m.Run())
	}
	dir, err := os.MkdirTemp("", "clumsies-hosts-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binDir = dir
	if err := testbin.Build(filepath.Join(dir, "clumsies"), "../../cmd/clumsies"); err != nil {
		fmt.Fprintln(os.Stderr, "build clumsies:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// requireEnabled skips t outside `make test-hosts`.
func requireEnabled(t *testing.T) {
	t.Helper()
	if os.Getenv(enabled) == "" {
		t.Skipf("the real host programs run only under `make test-hosts` (%s=1): they are large downloads", enabled)
	}
}

// project is a throw-away workspace wired for one host, with a
// throw-away HOME for the host's user files.
type project struct {
	dir, home string
	env       []string // the environment every program of the run gets
}

// newProject makes a workspace with `clumsies init`, wired with
// `clumsies adapt host`.
func newProject(t *testing.T, host string) *project {
	t.Helper()
	root := t.TempDir()
	p := &project{dir: filepath.Join(root, "project"), home: filepath.Join(root, "home")}
	// api/ exists, as in a real project: the script's edit creates a
	// file in it, and a host's create tool may want its folder (Copilot
	// CLI's does).
	for _, d := range []string{p.dir, p.home, filepath.Join(p.dir, "api")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("the hosts need Node.js on PATH: %v", err)
	}
	p.env = []string{
		"HOME=" + p.home,
		"PATH=" + binDir + string(os.PathListSeparator) + filepath.Dir(node) + string(os.PathListSeparator) + "/usr/local/bin:/usr/bin:/bin",
		"TMPDIR=" + os.TempDir(),
		"LANG=C.UTF-8",
		"TERM=dumb",
		"NO_COLOR=1",
	}
	p.clumsies(t, "init")
	// Keep the prompts' text, to show what a host sent when it is not the
	// user's prompt.
	config := filepath.Join(p.dir, ".clumsies", "config.toml")
	b, err := os.ReadFile(config)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, config, strings.Replace(string(b), "record_prompts = false", "record_prompts = true", 1))
	p.clumsies(t, "adapt", host)
	return p
}

// clumsies runs the built binary in the workspace, failing t on a non-zero
// exit, and returns its stdout.
func (p *project) clumsies(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command(filepath.Join(binDir, "clumsies"), args...)
	cmd.Dir, cmd.Env = p.dir, p.env
	out, errs, code, err := testbin.Run(cmd)
	if err != nil || code != 0 {
		t.Fatalf("clumsies %s: exit %d, %v\n%s%s", strings.Join(args, " "), code, err, out, errs)
	}
	return out
}

// writeFile writes a file under the project or the home folder.
func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// runHost runs a host program in the workspace with the run's environment
// and extra, in its own process group (killed whole when the run ends or
// times out), and returns what it printed.
func (p *project) runHost(t *testing.T, extra []string, bin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hostTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir, cmd.Env = p.dir, append(append([]string(nil), p.env...), extra...)
	cmd.Stdin = strings.NewReader("")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 10 * time.Second
	stdout, stderr, code, err := testbin.Run(cmd)
	if cmd.Process != nil {
		reap(-cmd.Process.Pid)
	}
	if err != nil {
		t.Fatalf("run %s: %v", filepath.Base(bin), err)
	}
	if ctx.Err() != nil {
		t.Fatalf("%s did not finish within %v\nstdout:\n%s\nstderr:\n%s", filepath.Base(bin), hostTimeout, stdout, stderr)
	}
	t.Logf("%s exit %d\nstdout:\n%s\nstderr:\n%s", filepath.Base(bin), code, stdout, stderr)
	return stdout, stderr, code
}

// reap lets what a host left running in its process group (its MCP server
// winding down) finish, then kills what is left.
func reap(group int) {
	for end := time.Now().Add(30 * time.Second); time.Now().Before(end); time.Sleep(200 * time.Millisecond) {
		if syscall.Kill(group, 0) != nil {
			return
		}
	}
	syscall.Kill(group, syscall.SIGKILL)
}
