package embeddednats

import (
	"errors"
	"fmt"
)

// lockName is the lock file's name inside the state folder.
const lockName = "owner.lock"

// ErrLocked reports that another Server, in this process or another one,
// owns the workspace's state folder. Start returns it as a *LockedError.
var ErrLocked = errors.New("embeddednats: workspace is locked by another process")

// LockedError is returned by Start when the state folder's lock is held by
// another Server. It matches ErrLocked with errors.Is.
type LockedError struct {
	// Path is the lock file, <Dir>/owner.lock.
	Path string
	// PID is the owner's process id as written in the lock file, or 0 if
	// the owner has not written it yet.
	PID int
}

// Error names the lock file and the owner and says what to do about it.
func (e *LockedError) Error() string {
	owner := "another process"
	if e.PID > 0 {
		owner = fmt.Sprintf("process %d", e.PID)
	}
	return fmt.Sprintf("embeddednats: workspace is locked by %s (lock file %s): "+
		"stop that process, or talk to it instead of starting a second server", owner, e.Path)
}

// Is reports whether target is ErrLocked.
func (e *LockedError) Is(target error) bool { return target == ErrLocked }
