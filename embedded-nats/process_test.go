package embeddednats

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// helperDirEnv carries the state folder to TestHelperProcess.
const helperDirEnv = "EMBEDDEDNATS_HELPER_DIR"

// TestHelperProcess is not a test: run by TestServer_StartSecondProcess in a
// child process, it tries to start a Server on the folder named by
// helperDirEnv and prints "locked <pid>", "started" or "error <message>".
func TestHelperProcess(t *testing.T) {
	dir := os.Getenv(helperDirEnv)
	if dir == "" {
		t.Skip("helper process only")
	}
	s := &Server{Dir: dir}
	err := s.Start()
	var locked *LockedError
	switch {
	case errors.As(err, &locked):
		fmt.Printf("locked %d\n", locked.PID)
	case err != nil:
		fmt.Printf("error %v\n", err)
	default:
		s.Close()
		fmt.Println("started")
	}
}

func TestServer_StartSecondProcess(t *testing.T) {
	dir := t.TempDir()
	first := startServer(t, &Server{Dir: dir})
	publishN(t, connect(t, first), 100)

	out := runHelper(t, dir)
	if got, want := out, "locked "+strconv.Itoa(os.Getpid()); got != want {
		t.Errorf("second process: got %q, want %q", got, want)
	}

	pid, locked, err := Owner(dir)
	if err != nil || !locked || pid != os.Getpid() {
		t.Errorf("Owner: got (%d, %v, %v), want (%d, true, nil)", pid, locked, err, os.Getpid())
	}

	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	reopened := startServer(t, &Server{Dir: dir})
	if got, want := streamMsgs(t, connect(t, reopened)), uint64(100); got != want {
		t.Errorf("got %d messages after reopen, want %d", got, want)
	}
	if err := reopened.Close(); err != nil {
		t.Fatal(err)
	}

	if got, want := runHelper(t, dir), "started"; got != want {
		t.Errorf("second process after Close: got %q, want %q", got, want)
	}
}

// runHelper runs TestHelperProcess in a new process on dir and returns its
// report.
func runHelper(tb testing.TB, dir string) string {
	tb.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), helperDirEnv+"="+dir)
	out, err := cmd.Output()
	if err != nil {
		tb.Fatalf("helper process: %v", err)
	}
	// The test binary prints PASS after the helper's line.
	line, _, _ := strings.Cut(string(out), "\n")
	return line
}
