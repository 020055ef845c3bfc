package notifytest

import (
	"errors"
	"fmt"
	"syscall"
	"testing"
)

// TestRefused classifies the errno values the watches wrap as they wrap
// them: the limits and a missing inotify are refusals, anything else is
// a failure.
func TestRefused(t *testing.T) {
	for _, c := range []struct {
		err  error
		want bool
	}{
		{fmt.Errorf("inotify_init1: %w", syscall.EMFILE), true},
		{fmt.Errorf("watch /x: %w", syscall.ENOSPC), true},
		{fmt.Errorf("inotify_init1: %w", syscall.ENOSYS), true},
		{fmt.Errorf("contentwatch: no file notifications here: %w", errors.ErrUnsupported), true},
		{nil, false},
		{fmt.Errorf("watch /x: %w", syscall.ENOENT), false},
		{fmt.Errorf("watch /x: %w", syscall.EACCES), false},
		{fmt.Errorf("inotify_init1: %w", syscall.EINVAL), false},
		{fmt.Errorf("inotify_init1: %w", syscall.ENFILE), false}, // the whole system is out of files: not ours to skip
		{fmt.Errorf("read: %w", syscall.EBADF), false},
		{errors.New("the tree has more than 8192 folders"), false},
	} {
		if got := Refused(c.err); got != c.want {
			t.Errorf("Refused(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}
