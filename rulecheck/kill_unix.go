//go:build unix

package rulecheck

import (
	"os/exec"
	"syscall"
)

// killGroup makes cmd run in its own process group and has its
// cancellation kill the whole group: a command's children do not outlive
// its timeout.
func killGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
