//go:build unix

package main

import (
	"io"
	"os"
	"syscall"
)

// interruptible returns stdin in a form whose Close interrupts a pending
// Read, so that a signal can end `serve` while it waits for the client.
// os.Stdin inherited as a blocking pipe is read with blocking system calls
// that Close does not interrupt; made non-blocking, the runtime's poller
// reads it and Close wakes the reader. Anything else is returned as is.
func interruptible(r io.Reader) io.Reader {
	if r != os.Stdin {
		return r
	}
	if err := syscall.SetNonblock(0, true); err != nil {
		return r
	}
	return os.NewFile(0, "/dev/stdin")
}
