//go:build unix

package node

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// longState returns a state folder whose socket path is too long to be
// used as is, so that its socket goes to a private socket folder.
func longState(tb testing.TB) string {
	tb.Helper()
	dir := filepath.Join(tb.TempDir(), strings.Repeat("a-long-folder-name/", 8), "state")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		tb.Fatal(err)
	}
	return dir
}

// privateEnv points TMPDIR at a fresh folder and unsets XDG_RUNTIME_DIR
// (or sets it to run, when not "").
func privateEnv(tb testing.TB, run string) (tmp string) {
	tb.Helper()
	// A short folder: socket paths are limited to about 100 bytes.
	tmp, err := os.MkdirTemp("", "cs")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { os.RemoveAll(tmp) })
	tb.Setenv("TMPDIR", tmp)
	tb.Setenv("XDG_RUNTIME_DIR", run)
	return tmp
}

// asOtherUser makes path belong to another user; it skips unless the test
// runs as root, the only user who can give files away.
func asOtherUser(tb testing.TB, path string) {
	tb.Helper()
	if os.Getuid() != 0 {
		tb.Skip("giving a file to another user needs root")
	}
	if err := os.Lchown(path, 65534, 65534); err != nil {
		tb.Fatal(err)
	}
}

// bindAndDial binds the owner's socket of the state folder state where
// the owner would, and dials it as another process would.
func bindAndDial(tb testing.TB, state string) error {
	tb.Helper()
	path, err := ownSocketPath(state)
	if err != nil {
		return err
	}
	ln, err := listenSocket(path, isLong(state))
	if err != nil {
		return err
	}
	defer ln.Close()
	c, err := socketDialer{state}.Dial("", "")
	if err != nil {
		return err
	}
	c.Close()
	return nil
}

// plantedFolder makes a folder with mode holding a socket someone
// listens on, and records it as the socket folder of state.
func plantedFolder(tb testing.TB, state string, mode os.FileMode) string {
	tb.Helper()
	dir := tb.TempDir()
	if err := os.Chmod(dir, mode); err != nil {
		tb.Fatal(err)
	}
	ln, err := net.Listen("unix", filepath.Join(dir, socketName))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { ln.Close() })
	recordSocketDir(tb, state, dir)
	return dir
}

// refusedThenReplaced checks that the socket in dir, the recorded
// socket folder of state, is never dialled (the error says why) and that
// the next owner binds in a new private folder instead.
func refusedThenReplaced(tb testing.TB, state, dir, why string) {
	tb.Helper()
	if _, err := (socketDialer{state}).Dial("", ""); err == nil || !strings.Contains(err.Error(), why) {
		tb.Fatalf("dial in %s: got %v, want an error saying %q", dir, err, why)
	}
	if err := bindAndDial(tb, state); err != nil || strings.HasPrefix(SocketPath(state), dir) {
		tb.Fatalf("owner with the recorded folder %s: got %s, %v, want a new folder", dir, SocketPath(state), err)
	}
}

// recordSocketDir records dir as the private socket folder of state.
func recordSocketDir(tb testing.TB, state, dir string) {
	tb.Helper()
	if err := writeStateFile(state, socketDirFile, socketDirRecord{Dir: dir}); err != nil {
		tb.Fatal(err)
	}
}

func TestSocket_XDGRuntimeDir(t *testing.T) {
	run, err := os.MkdirTemp("", "run")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(run) })
	privateEnv(t, run)
	state := longState(t)
	if err := bindAndDial(t, state); err != nil {
		t.Fatal(err)
	}
	if p := SocketPath(state); filepath.Dir(filepath.Dir(p)) != run {
		t.Fatalf("SocketPath: got %s, want it in a folder of $XDG_RUNTIME_DIR %s", p, run)
	}
	t.Run("OpenRuntimeDirNotUsed", func(t *testing.T) {
		open := t.TempDir()
		if err := os.Chmod(open, 0o755); err != nil {
			t.Fatal(err)
		}
		tmp := privateEnv(t, open)
		state := longState(t)
		if err := bindAndDial(t, state); err != nil {
			t.Fatal(err)
		}
		if got := SocketPath(state); !strings.HasPrefix(got, tmp) {
			t.Fatalf("XDG_RUNTIME_DIR with mode 0755: got %s, want the socket under TMPDIR %s", got, tmp)
		}
	})
}

func TestSocket_PrivateFolder(t *testing.T) {
	t.Run("CreatedPrivateAndReused", func(t *testing.T) {
		tmp := privateEnv(t, "")
		state := longState(t)
		if SocketPath(state) != "" {
			t.Fatalf("SocketPath before any owner: got %q, want none", SocketPath(state))
		}
		if err := bindAndDial(t, state); err != nil {
			t.Fatal(err)
		}
		p := SocketPath(state)
		fi, err := os.Stat(filepath.Dir(p))
		if err != nil || fi.Mode().Perm() != 0o700 || filepath.Dir(filepath.Dir(p)) != tmp {
			t.Fatalf("socket folder %s: got %v, %v, want a folder of TMPDIR with mode 0700", p, fi.Mode(), err)
		}
		if err := bindAndDial(t, state); err != nil || SocketPath(state) != p {
			t.Fatalf("next owner: got %s, %v, want the recorded folder %s again", SocketPath(state), err, p)
		}
		other := longState(t)
		if err := bindAndDial(t, other); err != nil || filepath.Dir(SocketPath(other)) == filepath.Dir(p) {
			t.Fatalf("another workspace: got %s, %v, want a folder of its own", SocketPath(other), err)
		}
	})
	t.Run("RecordedFolderOpenToOthers", func(t *testing.T) {
		privateEnv(t, "")
		state := longState(t)
		open := plantedFolder(t, state, 0o777)
		refusedThenReplaced(t, state, open, "open to other users")
	})
	t.Run("RecordedFolderSymlinked", func(t *testing.T) {
		tmp := privateEnv(t, "")
		state := longState(t)
		link := filepath.Join(tmp, "link")
		if err := os.Symlink(t.TempDir(), link); err != nil {
			t.Fatal(err)
		}
		recordSocketDir(t, state, link)
		refusedThenReplaced(t, state, link, "not a folder")
	})
	t.Run("RecordedFolderOfAnotherUser", func(t *testing.T) {
		privateEnv(t, "")
		state := longState(t)
		dir := plantedFolder(t, state, 0o700)
		asOtherUser(t, dir)
		refusedThenReplaced(t, state, dir, "belongs to user 65534, not to you (user 0): another user may be trying to impersonate")
	})
	t.Run("SocketOwnedByAnotherUser", func(t *testing.T) {
		privateEnv(t, "")
		state := longState(t)
		p, err := ownSocketPath(state)
		if err != nil {
			t.Fatal(err)
		}
		ln, err := listenSocket(p, true)
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		asOtherUser(t, p)
		_, err = socketDialer{state}.Dial("", "")
		if err == nil || !strings.Contains(err.Error(), "socket "+p+" belongs to user 65534") {
			t.Fatalf("dial another user's socket: got %v, want an error naming the other user", err)
		}
	})
	t.Run("Missing", func(t *testing.T) {
		privateEnv(t, "")
		if _, err := (socketDialer{longState(t)}).Dial("", ""); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("dial with no owner: got %v, want os.ErrNotExist", err)
		}
	})
}

func TestSocket_StateFolder(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state")
	if err := os.Mkdir(state, 0o700); err != nil {
		t.Fatal(err)
	}
	if p := SocketPath(state); p != filepath.Join(state, socketName) {
		t.Fatalf("got %s, want the socket in the state folder", p)
	}
	if err := bindAndDial(t, state); err != nil {
		t.Fatal(err)
	}
	t.Run("Symlinked", func(t *testing.T) {
		link := filepath.Join(t.TempDir(), "state")
		if err := os.Symlink(state, link); err != nil {
			t.Fatal(err)
		}
		if err := bindAndDial(t, link); err != nil {
			t.Fatalf("a state folder reached through a symlink: %v", err)
		}
	})
	t.Run("OwnedByAnotherUser", func(t *testing.T) {
		asOtherUser(t, state)
		if err := bindAndDial(t, state); err == nil || !strings.Contains(err.Error(), "belongs to user 65534") {
			t.Fatalf("bind in another user's state folder: got %v, want an error naming the other user", err)
		}
	})
}
