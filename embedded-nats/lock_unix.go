//go:build unix

package embeddednats

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// How often and how long a contended lock is tried again before Start gives
// up. The retries only cover short probes such as Owner's; a real owner keeps
// the lock far longer.
const (
	lockAttempts   = 5
	lockRetryDelay = 10 * time.Millisecond
)

// lockFile is an exclusive flock on the state folder's owner.lock. flock
// locks belong to the open file, so a second open of the same file conflicts
// even inside one process.
type lockFile struct {
	f *os.File
}

// acquireLock takes the exclusive lock on path without waiting for it and
// writes our pid into the file. It returns a *LockedError if another open
// file holds the lock.
func acquireLock(path string) (*lockFile, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open lock file: %w", err)
	}
	for attempt := 1; ; attempt++ {
		err = flock(f, syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			break
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			f.Close()
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		if attempt == lockAttempts {
			f.Close()
			return nil, &LockedError{Path: path, PID: readOwner(path)}
		}
		time.Sleep(lockRetryDelay)
	}
	if err := writePID(f, os.Getpid()); err != nil {
		f.Close()
		return nil, fmt.Errorf("write pid to %s: %w", path, err)
	}
	return &lockFile{f: f}, nil
}

// release clears the pid and drops the lock. The file itself stays: removing
// it would let two processes lock two different files of the same name.
func (l *lockFile) release() error {
	truncErr := l.f.Truncate(0)
	closeErr := l.f.Close() // closing the last descriptor drops the flock
	if err := errors.Join(truncErr, closeErr); err != nil {
		return fmt.Errorf("release lock %s: %w", l.f.Name(), err)
	}
	return nil
}

// stat returns the locked file's own information (fstat), whatever the
// path now names.
func (l *lockFile) stat() (os.FileInfo, error) { return l.f.Stat() }

// Owner reports whether the state folder dir is locked by a running Server
// and, if so, the owner's pid (0 if the owner has not written it yet). It
// takes and drops a shared lock to find out; a Start racing with it retries
// briefly, so the probe does not make it fail.
func Owner(dir string) (pid int, locked bool, err error) {
	path := LockPath(dir)
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("open lock file: %w", err)
	}
	defer f.Close()
	err = flock(f, syscall.LOCK_SH|syscall.LOCK_NB)
	switch {
	case err == nil:
		return 0, false, nil // closing f drops the probe lock
	case errors.Is(err, syscall.EWOULDBLOCK):
		return readOwner(path), true, nil
	default:
		return 0, false, fmt.Errorf("probe lock %s: %w", path, err)
	}
}

// flock calls flock(2), retrying when a signal interrupts it.
func flock(f *os.File, how int) error {
	for {
		err := syscall.Flock(int(f.Fd()), how)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}

// writePID replaces the file's content with pid.
func writePID(f *os.File, pid int) error {
	if err := f.Truncate(0); err != nil {
		return err
	}
	if _, err := f.WriteAt([]byte(strconv.Itoa(pid)+"\n"), 0); err != nil {
		return err
	}
	return f.Sync()
}

// readOwner returns the pid in the lock file at path. An owner writes its pid
// just after taking the lock, so an empty file is read again a few times
// before giving up with 0.
func readOwner(path string) int {
	for attempt := 1; ; attempt++ {
		b, err := os.ReadFile(path)
		if err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && pid > 0 {
				return pid
			}
		}
		if attempt == lockAttempts {
			return 0
		}
		time.Sleep(lockRetryDelay)
	}
}
