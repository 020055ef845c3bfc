package testbin

import (
	"os/exec"
	"testing"
)

func TestRun(t *testing.T) {
	for _, tc := range []struct {
		name, script, stdout, stderr string
		code                         int
	}{
		{"Success", "echo out; echo err >&2", "out\n", "err\n", 0},
		{"ExitStatus", "echo out; exit 3", "out\n", "", 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errs, code, err := Run(exec.Command("sh", "-c", tc.script))
			if err != nil || out != tc.stdout || errs != tc.stderr || code != tc.code {
				t.Fatalf("Run: %q, %q, %d, %v; want %q, %q, %d", out, errs, code, err, tc.stdout, tc.stderr, tc.code)
			}
		})
	}
	if _, _, _, err := Run(exec.Command("/nonexistent/program")); err == nil {
		t.Fatal("Run of a missing program returned no error")
	}
}
