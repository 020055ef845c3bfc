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

func bindAndDial(tb testing.TB, path string) error {
	tb.Helper()
	ln, err := listenSocket(path)
	if err != nil {
		return err
	}
	defer ln.Close()
	c, err := socketDialer{path}.Dial("", "")
	if err != nil {
		return err
	}
	c.Close()
	return nil
}

func TestSocket_XDGRuntimeDir(t *testing.T) {
	run, err := os.MkdirTemp("", "run")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(run) })
	privateEnv(t, run)
	state := longState(t)
	p := SocketPath(state)
	if filepath.Dir(p) != filepath.Join(run, "clumsies") {
		t.Fatalf("SocketPath: got %s, want it in $XDG_RUNTIME_DIR/clumsies", p)
	}
	if err := bindAndDial(t, p); err != nil {
		t.Fatal(err)
	}
	t.Run("OwnerWithoutXDG", func(t *testing.T) {
		// An owner started without XDG_RUNTIME_DIR binds under TMPDIR; a
		// process with it looks there too.
		t.Setenv("XDG_RUNTIME_DIR", "")
		inTmp := SocketPath(state)
		ln, err := listenSocket(inTmp)
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		t.Setenv("XDG_RUNTIME_DIR", run)
		c, err := socketDialer{SocketPath(state)}.Dial("", "")
		if err != nil {
			t.Fatalf("dial with XDG_RUNTIME_DIR set, owner in %s: %v", inTmp, err)
		}
		c.Close()
	})
	t.Run("OpenRuntimeDirNotUsed", func(t *testing.T) {
		open := t.TempDir()
		if err := os.Chmod(open, 0o755); err != nil {
			t.Fatal(err)
		}
		tmp := privateEnv(t, open)
		if got := SocketPath(state); !strings.HasPrefix(got, tmp) {
			t.Fatalf("XDG_RUNTIME_DIR with mode 0755: got %s, want the socket under TMPDIR %s", got, tmp)
		}
	})
}

func TestSocket_FallbackFolder(t *testing.T) {
	t.Run("CreatedPrivate", func(t *testing.T) {
		privateEnv(t, "")
		p := SocketPath(longState(t))
		if err := bindAndDial(t, p); err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(filepath.Dir(p))
		if err != nil || fi.Mode().Perm() != 0o700 {
			t.Fatalf("socket folder: got %v, %v, want mode 0700", fi.Mode(), err)
		}
	})
	t.Run("OpenToOthers", func(t *testing.T) {
		tmp := privateEnv(t, "")
		p := SocketPath(longState(t))
		if err := os.Mkdir(filepath.Dir(p), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(filepath.Dir(p), 0o777); err != nil {
			t.Fatal(err)
		}
		err := bindAndDial(t, p)
		if err == nil || !strings.Contains(err.Error(), "open to other users") || !strings.HasPrefix(p, tmp) {
			t.Fatalf("bind in a folder with mode 0777: got %v, want an error saying it is open to other users", err)
		}
	})
	t.Run("SymlinkedFolder", func(t *testing.T) {
		privateEnv(t, "")
		p := SocketPath(longState(t))
		if err := os.Symlink(t.TempDir(), filepath.Dir(p)); err != nil {
			t.Fatal(err)
		}
		if err := bindAndDial(t, p); err == nil || !strings.Contains(err.Error(), "not a folder") {
			t.Fatalf("bind in a symlinked folder: got %v, want an error", err)
		}
	})
	t.Run("OwnedByAnotherUser", func(t *testing.T) {
		privateEnv(t, "")
		p := SocketPath(longState(t))
		dir := filepath.Dir(p)
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		asOtherUser(t, dir)
		err := bindAndDial(t, p)
		if err == nil || !strings.Contains(err.Error(), "belongs to user 65534") || !strings.Contains(err.Error(), "impersonate") {
			t.Fatalf("bind in another user's folder: got %v, want an error naming the other user", err)
		}
		// The impersonator's own socket there is never dialled.
		ln, lerr := net.ListenUnix("unix", &net.UnixAddr{Name: p, Net: "unix"})
		if lerr != nil {
			t.Fatal(lerr)
		}
		defer ln.Close()
		if c, err := (socketDialer{p}).Dial("", ""); err == nil {
			c.Close()
			t.Fatal("dialled a socket in another user's folder")
		}
	})
	t.Run("SocketOwnedByAnotherUser", func(t *testing.T) {
		privateEnv(t, "")
		p := SocketPath(longState(t))
		ln, err := listenSocket(p)
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		asOtherUser(t, p)
		_, err = socketDialer{p}.Dial("", "")
		if err == nil || !strings.Contains(err.Error(), "socket "+p+" belongs to user 65534") {
			t.Fatalf("dial another user's socket: got %v, want an error naming the other user", err)
		}
	})
	t.Run("Missing", func(t *testing.T) {
		privateEnv(t, "")
		p := SocketPath(longState(t))
		if _, err := (socketDialer{p}).Dial("", ""); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("dial with no owner: got %v, want os.ErrNotExist", err)
		}
	})
}

func TestSocket_StateFolder(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state")
	if err := os.Mkdir(state, 0o700); err != nil {
		t.Fatal(err)
	}
	p := SocketPath(state)
	if p != filepath.Join(state, socketName) {
		t.Fatalf("got %s, want the socket in the state folder", p)
	}
	if err := bindAndDial(t, p); err != nil {
		t.Fatal(err)
	}
	t.Run("Symlinked", func(t *testing.T) {
		link := filepath.Join(t.TempDir(), "state")
		if err := os.Symlink(state, link); err != nil {
			t.Fatal(err)
		}
		if err := bindAndDial(t, SocketPath(link)); err != nil {
			t.Fatalf("a state folder reached through a symlink: %v", err)
		}
	})
	t.Run("OwnedByAnotherUser", func(t *testing.T) {
		asOtherUser(t, state)
		if err := bindAndDial(t, p); err == nil || !strings.Contains(err.Error(), "belongs to user 65534") {
			t.Fatalf("bind in another user's state folder: got %v, want an error naming the other user", err)
		}
	})
}
