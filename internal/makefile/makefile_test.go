package makefile

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// root is the repository's folder, where the Makefile is.
const root = "../.."

func needMake(tb testing.TB) {
	tb.Helper()
	if _, err := exec.LookPath("make"); err != nil {
		tb.Skip("no make here")
	}
}

// TestHelp_Aligned: every target's description starts in the same
// column, the longest target names included.
func TestHelp_Aligned(t *testing.T) {
	needMake(t)
	out, err := exec.Command("make", "-s", "-C", root, "help").Output()
	if err != nil {
		t.Fatalf("make help: %v", err)
	}
	column := -1
	for _, line := range strings.Split(strings.TrimRight(string(out), "\n"), "\n") {
		fields := strings.Fields(line)
		if len(fields) < 2 {
			t.Fatalf("make help printed %q, want a target and its description", line)
		}
		at := strings.Index(line[len("  ")+len(fields[0]):], fields[1]) + len("  ") + len(fields[0])
		if column == -1 {
			column = at
		}
		if at != column {
			t.Errorf("make help: the description of %s starts at column %d, the first one's at %d:\n%s", fields[0], at, column, out)
		}
	}
}

// TestBuild_CountsAsItGoes runs `make build` with a go command that names
// three packages and then waits: the count reaches three while it waits,
// so the count is read as it comes, not when the build ends. make exits
// with the build's status.
func TestBuild_CountsAsItGoes(t *testing.T) {
	needMake(t)
	dir := t.TempDir()
	release := filepath.Join(dir, "release")
	fakeGo := filepath.Join(dir, "go")
	script := "#!/bin/sh\nprintf 'm/a\\nm/b\\nm/c\\n'\nwhile [ ! -e " + release + " ]; do sleep 0.05; done\nprintf 'm/d: a warning\\n'\nexit 3\n"
	if err := os.WriteFile(fakeGo, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "make", "-s", "-C", root, "build", "GO="+fakeGo)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	counted := make(chan bool, 1)
	var said strings.Builder
	go func() {
		r := bufio.NewReader(out)
		for {
			b, err := r.ReadByte()
			if err != nil {
				close(counted)
				return
			}
			said.WriteByte(b)
			if strings.HasSuffix(said.String(), "compiled 3 packages") {
				counted <- true
			}
		}
	}()
	select {
	case ok := <-counted:
		if !ok {
			t.Fatalf("make build ended without counting 3 packages:\n%s", said.String())
		}
	case <-time.After(time.Minute):
		os.WriteFile(release, nil, 0o644)
		for range counted { // until the reader is done with said
		}
		cmd.Wait()
		t.Fatalf("make build did not count the 3 packages named while the build ran:\n%q", said.String())
	}
	if err := os.WriteFile(release, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for range counted {
	}
	err = cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() == 0 {
		t.Errorf("make build with a failing build: %v, want a failure", err)
	}
	if !strings.Contains(said.String(), "\nm/d: a warning\n") {
		t.Errorf("make build: the go command's message is not on a line of its own:\n%q", said.String())
	}
}
