package embeddednats

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
)

func TestServer_Start(t *testing.T) {
	t.Run("ConnectPublishClose", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "state")
		s := startServer(t, &Server{Dir: dir})
		nc := connect(t, s)
		publishN(t, nc, 10)
		if got, want := streamMsgs(t, nc), uint64(10); got != want {
			t.Errorf("stream holds %d messages, want %d", got, want)
		}
		if got, want := s.NATS().StoreDir(), filepath.Join(dir, "jetstream"); got != want {
			t.Errorf("got store dir %q, want %q", got, want)
		}
		fi, err := os.Stat(dir)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := fi.Mode().Perm(), os.FileMode(0o700); got != want {
			t.Errorf("got state folder mode %v, want %v", got, want)
		}
		nc.Close()
		if err := s.Close(); err != nil {
			t.Errorf("got Close error %v, want nil", err)
		}
	})

	t.Run("CloseTwice", func(t *testing.T) {
		s := startServer(t, &Server{Dir: t.TempDir()})
		if err := s.Close(); err != nil {
			t.Fatalf("got first Close error %v, want nil", err)
		}
		if err := s.Close(); !errors.Is(err, net.ErrClosed) {
			t.Errorf("got second Close error %v, want one wrapping net.ErrClosed", err)
		}
	})

	t.Run("StartTwice", func(t *testing.T) {
		s := startServer(t, &Server{Dir: t.TempDir()})
		if err := s.Start(); err == nil {
			t.Errorf("got second Start error nil, want an error")
		}
	})

	t.Run("StartAfterClose", func(t *testing.T) {
		s := startServer(t, &Server{Dir: t.TempDir()})
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		if err := s.Start(); !errors.Is(err, net.ErrClosed) {
			t.Errorf("got Start after Close error %v, want one wrapping net.ErrClosed", err)
		}
		if _, err := s.Connect(); !errors.Is(err, net.ErrClosed) {
			t.Errorf("got Connect after Close error %v, want one wrapping net.ErrClosed", err)
		}
	})

	t.Run("NoTCPListener", func(t *testing.T) {
		s := startServer(t, &Server{Dir: t.TempDir()})
		if addr := s.NATS().Addr(); addr != nil {
			t.Errorf("got listener address %v, want none", addr)
		}
		// Nothing may answer on the port nats-server would default to either.
		if nc, err := nats.Connect("nats://127.0.0.1:4222", nats.Timeout(200*time.Millisecond)); err == nil {
			nc.Close()
			t.Errorf("got a TCP connection on the default port, want none")
		}
	})

	t.Run("SecondServerSameProcess", func(t *testing.T) {
		dir := t.TempDir()
		startServer(t, &Server{Dir: dir})
		err := (&Server{Dir: dir}).Start()
		var locked *LockedError
		if !errors.As(err, &locked) {
			t.Fatalf("got error %v, want a *LockedError", err)
		}
		if !errors.Is(err, ErrLocked) {
			t.Errorf("got error %v, want one matching ErrLocked", err)
		}
		if got, want := locked.PID, os.Getpid(); got != want {
			t.Errorf("got owner pid %d, want %d", got, want)
		}
		if got, want := locked.Path, filepath.Join(dir, "owner.lock"); got != want {
			t.Errorf("got lock path %q, want %q", got, want)
		}
		msg := err.Error()
		for _, want := range []string{filepath.Join(dir, "owner.lock"), strconv.Itoa(os.Getpid())} {
			if !strings.Contains(msg, want) {
				t.Errorf("got message %q, want it to contain %q", msg, want)
			}
		}
	})

	t.Run("LockReleasedAfterClose", func(t *testing.T) {
		dir := t.TempDir()
		first := startServer(t, &Server{Dir: dir})
		publishN(t, connect(t, first), 5)
		if err := first.Close(); err != nil {
			t.Fatal(err)
		}
		second := startServer(t, &Server{Dir: dir})
		if got, want := streamMsgs(t, connect(t, second)), uint64(5); got != want {
			t.Errorf("got %d messages after reopen, want %d", got, want)
		}
	})

	t.Run("DirIsFile", func(t *testing.T) {
		file := filepath.Join(t.TempDir(), "state")
		if err := os.WriteFile(file, []byte("not a folder"), 0o600); err != nil {
			t.Fatal(err)
		}
		for _, dir := range []string{file, filepath.Join(file, "nested")} {
			err := (&Server{Dir: dir}).Start()
			if err == nil {
				t.Fatalf("Start on %s: got nil error, want one", dir)
			}
			if !strings.Contains(err.Error(), dir) {
				t.Errorf("got error %q, want it to name %q", err, dir)
			}
		}
	})

	t.Run("UnwritableDir", func(t *testing.T) {
		if os.Geteuid() == 0 {
			t.Skip("root can write into a read-only folder")
		}
		parent := t.TempDir()
		if err := os.Chmod(parent, 0o500); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(parent, 0o700) })
		dir := filepath.Join(parent, "state")
		err := (&Server{Dir: dir}).Start()
		if err == nil || !strings.Contains(err.Error(), dir) {
			t.Errorf("got error %v, want one naming %q", err, dir)
		}
	})

	t.Run("FailureReleasesLock", func(t *testing.T) {
		dir := t.TempDir()
		err := (&Server{Dir: dir, Domain: "bad.domain"}).Start()
		if err == nil {
			t.Fatal("got nil error for a bad domain, want one")
		}
		if pid, locked, err := Owner(dir); locked || err != nil {
			t.Errorf("after a failed Start: got Owner (%d, %v, %v), want (0, false, nil)", pid, locked, err)
		}
		startServer(t, &Server{Dir: dir})
	})

	t.Run("EmptyDir", func(t *testing.T) {
		if err := (&Server{}).Start(); err == nil {
			t.Errorf("got nil error for an empty Dir, want one")
		}
	})

	t.Run("SyncModes", func(t *testing.T) {
		for _, tc := range []struct {
			sync SyncMode
			want bool
		}{{SyncAlways, true}, {SyncInterval, false}} {
			s := startServer(t, &Server{Dir: t.TempDir(), Sync: tc.sync})
			if got := s.NATS().JetStreamConfig().SyncAlways; got != tc.want {
				t.Errorf("Sync %v: got JetStream SyncAlways %v, want %v", tc.sync, got, tc.want)
			}
		}
	})

	t.Run("ServerName", func(t *testing.T) {
		for domain, want := range map[string]string{"": "clumsies", "ws1": "clumsies-ws1"} {
			s := startServer(t, &Server{Dir: t.TempDir(), Domain: domain})
			if got := s.NATS().Name(); got != want {
				t.Errorf("Domain %q: got server name %q, want %q", domain, got, want)
			}
		}
	})
}

func TestServer_Listen(t *testing.T) {
	t.Run("NeedsToken", func(t *testing.T) {
		err := (&Server{Dir: t.TempDir(), Listen: "127.0.0.1:0"}).Start()
		if err == nil {
			t.Errorf("got nil error for Listen without Token, want one")
		}
	})

	t.Run("RequiresToken", func(t *testing.T) {
		s := startServer(t, &Server{Dir: t.TempDir(), Listen: "127.0.0.1:0", Token: "s3cret"})
		addr := s.NATS().Addr()
		if addr == nil {
			t.Fatal("got no listener address, want one")
		}
		url := "nats://" + addr.String()
		if nc, err := nats.Connect(url); err == nil {
			nc.Close()
			t.Errorf("got a connection without token, want an authorization error")
		}
		if nc, err := nats.Connect(url, nats.Token("wrong")); err == nil {
			nc.Close()
			t.Errorf("got a connection with a wrong token, want an authorization error")
		}
		nc, err := nats.Connect(url, nats.Token("s3cret"))
		if err != nil {
			t.Fatalf("got error %v with the right token, want a connection", err)
		}
		nc.Close()
		// The in-process connection supplies the token itself.
		connect(t, s).Close()
	})
}
