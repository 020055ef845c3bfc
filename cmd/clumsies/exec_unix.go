//go:build unix

package main

import (
	"fmt"
	"os"
	"strings"
	"syscall"

	"github.com/clumsies/clumsies/internal/front"
)

// canExec: the front can replace itself with the core, keeping stdin and
// stdout, so it may answer initialize first.
const canExec = true

// runCore replaces this process with the core, handing it handover (the
// value of front.Env; none when empty). It returns only if exec fails.
func runCore(core string, args []string, handover string) error {
	env := withoutHandover(os.Environ())
	if handover != "" {
		env = append(env, front.Env+"="+handover)
	}
	if err := syscall.Exec(core, append([]string{os.Args[0]}, args...), env); err != nil {
		return fmt.Errorf("start %s: %w", core, err)
	}
	return nil
}

// withoutHandover drops a handover this process inherited: only the one
// it writes counts.
func withoutHandover(env []string) []string {
	out := env[:0:0]
	for _, kv := range env {
		if !strings.HasPrefix(kv, front.Env+"=") {
			out = append(out, kv)
		}
	}
	return out
}
