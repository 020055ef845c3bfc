package main_test

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/internal/testbin"
	"golang.org/x/sys/unix"
)

// TestCLI_ExportTerminal: export refuses a terminal on stdout and writes
// to any other file, /dev/null (a character device, no terminal) too.
func TestCLI_ExportTerminal(t *testing.T) {
	dir := newWorkspace(t)
	mustRun(t, dir, "publish")
	if r := exportTo(t, dir, os.DevNull); r.code != 0 {
		t.Fatalf("export > /dev/null: got exit %d, stderr %q; want 0", r.code, r.stderr)
	}

	tty := openPTY(t)
	cmd := exec.Command(binary, "export")
	cmd.Dir = dir
	cmd.Stdout = tty
	_, stderr, code, err := testbin.Run(cmd)
	if err != nil {
		t.Fatal(err)
	}
	if code != 2 || !strings.Contains(stderr, "redirect it to a file") {
		t.Fatalf("export to a terminal: got exit %d, stderr %q; want 2 and the redirection suggested", code, stderr)
	}
}

// openPTY opens a new pseudo-terminal and returns its terminal side.
func openPTY(tb testing.TB) *os.File {
	tb.Helper()
	ptm, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		tb.Skipf("no pseudo-terminals here: %v", err)
	}
	tb.Cleanup(func() { ptm.Close() })
	if err := unix.IoctlSetPointerInt(int(ptm.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		tb.Fatalf("unlock the pseudo-terminal: %v", err)
	}
	n, err := unix.IoctlGetInt(int(ptm.Fd()), unix.TIOCGPTN)
	if err != nil {
		tb.Fatalf("name the pseudo-terminal: %v", err)
	}
	pts, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		tb.Fatalf("open the pseudo-terminal: %v", err)
	}
	tb.Cleanup(func() { pts.Close() })
	return pts
}
