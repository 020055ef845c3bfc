package notifytest

import (
	"fmt"
	"path/filepath"
	"syscall"
	"testing"
)

// TestRefused_Kernel classifies what the kernel answers: inotify_init1
// past the process's open files (the same EMFILE as past the user's
// inotify instances) is a refusal; a watch of a folder that does not
// exist is not.
func TestRefused_Kernel(t *testing.T) {
	var was syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &was); err != nil {
		t.Fatal(err)
	}
	none := syscall.Rlimit{Cur: 0, Max: was.Max}
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &none); err != nil {
		t.Fatal(err)
	}
	fd, err := syscall.InotifyInit1(syscall.IN_CLOEXEC)
	if rerr := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &was); rerr != nil {
		t.Fatalf("restore the open files limit: %v", rerr)
	}
	if err == nil {
		syscall.Close(fd)
		t.Fatal("inotify_init1 with no open files allowed succeeded")
	}
	if err != syscall.EMFILE {
		t.Fatalf("inotify_init1 with no open files allowed: got %v, want EMFILE", err)
	}
	if err := fmt.Errorf("inotify_init1: %w", err); !Refused(err) {
		t.Errorf("Refused(%v) = false, want true", err)
	}

	fd, err = syscall.InotifyInit1(syscall.IN_CLOEXEC)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(fd)
	_, err = syscall.InotifyAddWatch(fd, filepath.Join(t.TempDir(), "gone"), syscall.IN_CREATE)
	if err == nil {
		t.Fatal("a watch of a missing folder succeeded")
	}
	if err := fmt.Errorf("watch: %w", err); Refused(err) {
		t.Errorf("Refused(%v) = true, want false", err)
	}
}
