package notifytest

import (
	"errors"
	"syscall"
	"testing"
)

// Refused reports whether err, from setting up a file watch, says that
// the system refuses file notifications rather than that something is
// wrong:
//   - EMFILE: inotify_init1 past the user's inotify instances
//     (fs.inotify.max_user_instances, shared by every process of the
//     user) or the process's open files;
//   - ENOSPC: inotify_add_watch past the user's watches
//     (fs.inotify.max_user_watches);
//   - ENOSYS: a kernel built without inotify, or a sandbox that filters it;
//   - errors.ErrUnsupported: a system the watch has no notifications on.
//
// Any other error (a missing folder, a bad descriptor, a bug) is not.
func Refused(err error) bool {
	return errors.Is(err, syscall.EMFILE) || errors.Is(err, syscall.ENOSPC) ||
		errors.Is(err, syscall.ENOSYS) || errors.Is(err, errors.ErrUnsupported)
}

// Require skips tb when err, from setting up a file watch, is a refusal
// of notifications (Refused), and fails it on any other error.
func Require(tb testing.TB, err error) {
	tb.Helper()
	switch {
	case err == nil:
	case Refused(err):
		tb.Skipf("the system refuses file notifications (%v): the notification path is not tested here; "+
			"free or raise the user's inotify limits (fs.inotify.max_user_instances, max_user_watches) to test it", err)
	default:
		tb.Fatalf("set up file notifications: %v", err)
	}
}
