package embeddednats

import (
	"os"
	"path/filepath"
	"testing"
)

func TestOwner(t *testing.T) {
	t.Run("NoLockFile", func(t *testing.T) {
		pid, locked, err := Owner(t.TempDir())
		if pid != 0 || locked || err != nil {
			t.Errorf("got (%d, %v, %v), want (0, false, nil)", pid, locked, err)
		}
	})

	t.Run("Running", func(t *testing.T) {
		dir := t.TempDir()
		s := startServer(t, &Server{Dir: dir})
		pid, locked, err := Owner(dir)
		if pid != os.Getpid() || !locked || err != nil {
			t.Errorf("got (%d, %v, %v), want (%d, true, nil)", pid, locked, err, os.Getpid())
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		pid, locked, err = Owner(dir)
		if pid != 0 || locked || err != nil {
			t.Errorf("after Close: got (%d, %v, %v), want (0, false, nil)", pid, locked, err)
		}
		b, err := os.ReadFile(filepath.Join(dir, "owner.lock"))
		if err != nil || len(b) != 0 {
			t.Errorf("after Close: got lock file %q (%v), want it empty", b, err)
		}
	})

	t.Run("ProbeDoesNotBlockStart", func(t *testing.T) {
		dir := t.TempDir()
		stop := make(chan struct{})
		done := make(chan struct{})
		go func() {
			defer close(done)
			for {
				select {
				case <-stop:
					return
				default:
					Owner(dir)
				}
			}
		}()
		defer func() { close(stop); <-done }()
		for i := range 10 {
			s := &Server{Dir: dir}
			if err := s.Start(); err != nil {
				t.Fatalf("Start %d while probing: %v", i, err)
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
		}
	})
}
