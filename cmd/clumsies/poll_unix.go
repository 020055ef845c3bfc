//go:build unix

package main

import (
	"errors"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// errQuiet is a read that found nothing to read in time.
var errQuiet = errors.New("no input in time")

// pollReader reads a file only when it has something to read within a
// wait: first for the first read, then next for each after it. A client
// that sends nothing in time gets the core as it is, which serves it the
// same (and opens the workspace meanwhile).
type pollReader struct {
	f           *os.File
	first, next time.Duration
	started     bool
}

func (r *pollReader) Read(p []byte) (int, error) {
	wait := r.next
	if !r.started {
		wait, r.started = r.first, true
	}
	fds := []unix.PollFd{{Fd: int32(r.f.Fd()), Events: unix.POLLIN}}
	deadline := time.Now().Add(wait)
	for {
		left := time.Until(deadline)
		if left < 0 {
			left = 0
		}
		n, err := unix.Poll(fds, int(left.Milliseconds()))
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return 0, err
		}
		if n == 0 {
			return 0, errQuiet
		}
		return r.f.Read(p)
	}
}

// Waits for the client: its first bytes, then the rest of its first line.
// An agent host writes initialize as soon as it has spawned the server
// (within a few milliseconds); one that does not is served by the core,
// which meanwhile owns and opens the workspace as it always has.
const (
	firstWait = 100 * time.Millisecond
	lineWait  = time.Second
)

// input is stdin as the front reads it.
func input(f *os.File) *pollReader {
	return &pollReader{f: f, first: firstWait, next: lineWait}
}
