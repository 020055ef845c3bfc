package node

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// socketName is the owner's socket in the state folder.
const socketName = "owner.sock"

// maxSocketPath is the longest socket path used as is: sun_path holds 108
// bytes on Linux and 104 on macOS, the terminating NUL included.
const maxSocketPath = 100

// checkOwnDir returns an error unless dir is a folder (not a symlink)
// owned by this user with none of the permission bits in forbidden.
func checkOwnDir(dir string, forbidden os.FileMode) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a folder", dir)
	}
	if err := checkOwner(dir, fi); err != nil {
		return err
	}
	if perm := fi.Mode().Perm(); perm&forbidden != 0 {
		return fmt.Errorf("%s has mode %04o, open to other users; run `chmod 700 %s`", dir, perm, dir)
	}
	return nil
}

// checkOwner returns an error if the file belongs to another user.
func checkOwner(path string, fi os.FileInfo) error {
	if uid, ok := fileOwner(fi); ok && uid != os.Getuid() {
		return fmt.Errorf("%s belongs to user %d, not to you (user %d): another user may be trying to impersonate the workspace owner; remove it, or set XDG_RUNTIME_DIR to a private folder", path, uid, os.Getuid())
	}
	return nil
}

// checkSocketDir checks the folder of a socket path before it is bound or
// dialled: a private socket folder must be a folder of this user closed to
// others; the state folder, which the embedded server creates with mode
// 0700 and which may be a symlink or on a file system without modes, must
// be this user's.
func checkSocketDir(path string, private bool) error {
	dir := filepath.Dir(path)
	if private {
		return checkOwnDir(dir, 0o077)
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return err
	}
	return checkOwner(dir, fi)
}

// checkSocket checks a socket before it is dialled: its folder (see
// checkSocketDir), and the socket itself, which must be this user's.
func checkSocket(path string, private bool) error {
	if err := checkSocketDir(path, private); err != nil {
		return err
	}
	fi, err := os.Lstat(path)
	if err != nil {
		return err
	}
	if fi.Mode().Type() != os.ModeSocket {
		return fmt.Errorf("%s is not a socket; remove it", path)
	}
	return checkOwner("socket "+path, fi)
}

// listenSocket binds the owner's socket at path with mode 0600, replacing
// a stale one. Only the lock holder calls it, so nobody else is bound
// there. The socket is bound under a temporary name, restricted, then
// renamed into place, so that nobody can connect before it is private. It
// refuses a folder another user owns or can write to.
func listenSocket(path string, private bool) (*net.UnixListener, error) {
	if err := checkSocketDir(path, private); err != nil {
		return nil, fmt.Errorf("owner socket folder: %w", err)
	}
	tmp := path + "." + strconv.Itoa(os.Getpid())
	_ = os.Remove(tmp)
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: tmp, Net: "unix"})
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", tmp, err)
	}
	ln.SetUnlinkOnClose(false)
	err = os.Chmod(tmp, 0o600)
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		ln.Close()
		os.Remove(tmp)
		return nil, fmt.Errorf("bind owner socket %s: %w", path, err)
	}
	return ln, nil
}

// dialTimeout bounds connecting to the owner's socket.
const dialTimeout = 2 * time.Second

// socketDialer is a nats.CustomDialer that ignores the address nats.go
// asks for and connects to the socket of the owner of the workspace whose
// state folder is stateDir.
type socketDialer struct{ stateDir string }

// Dial finds the socket (see SocketPath) and checks it (see checkSocket)
// before it connects.
func (d socketDialer) Dial(_, _ string) (net.Conn, error) {
	p, private := SocketPath(d.stateDir), isLong(d.stateDir)
	if p == "" {
		return nil, fmt.Errorf("no owner socket recorded in %s: %w", d.stateDir, os.ErrNotExist)
	}
	if err := checkSocket(p, private); err != nil {
		return nil, err
	}
	return net.DialTimeout("unix", p, dialTimeout)
}

// bridge carries the connections accepted on the owner's socket to the
// embedded server, each over its own in-process connection, so the other
// processes speak the ordinary NATS client protocol. The socket itself is
// the credential: when the server requires a token (it has a TCP listener),
// bridge adds it to the client's CONNECT.
type bridge struct {
	stateDir string
	ns       *server.Server
	token    string

	mu     sync.Mutex
	path   string // where ln is bound
	ln     *net.UnixListener
	bound  os.FileInfo // the socket file ln was bound at
	conns  map[net.Conn]struct{}
	closed bool
	wg     sync.WaitGroup
}

func newBridge(ln *net.UnixListener, stateDir, path string, ns *server.Server, token string) *bridge {
	b := &bridge{ln: ln, stateDir: stateDir, path: path, ns: ns, token: token, conns: map[net.Conn]struct{}{}}
	b.bound, _ = os.Stat(path)
	b.wg.Add(1)
	go b.accept(ln)
	return b
}

// boundPath returns where the bridge listens.
func (b *bridge) boundPath() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.path
}

// intact reports whether the socket file at the bridge's path is still
// the one it listens on, and the other processes find it there.
func (b *bridge) intact() bool {
	b.mu.Lock()
	path, bound := b.path, b.bound
	b.mu.Unlock()
	fi, err := os.Stat(path)
	return err == nil && bound != nil && os.SameFile(fi, bound) && SocketPath(b.stateDir) == path
}

// relisten binds the socket again (someone removed or replaced the file,
// its folder or its record: new processes could not reach the owner) and
// accepts on the new one; the connections already bridged go on.
func (b *bridge) relisten() error {
	path, err := ownSocketPath(b.stateDir)
	if err != nil {
		return err
	}
	ln, err := listenSocket(path, isLong(b.stateDir))
	if err != nil {
		return err
	}
	fi, _ := os.Stat(path)
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		ln.Close()
		return net.ErrClosed
	}
	old := b.ln
	b.ln, b.bound, b.path = ln, fi, path
	b.wg.Add(1)
	b.mu.Unlock()
	go b.accept(ln)
	old.Close()
	return nil
}

func (b *bridge) accept(ln *net.UnixListener) {
	defer b.wg.Done()
	for {
		c, err := ln.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			time.Sleep(5 * time.Millisecond) // e.g. out of descriptors
			continue
		}
		ic, err := b.ns.InProcessConn()
		if err != nil {
			c.Close()
			continue
		}
		if !b.track(c, ic) {
			c.Close()
			ic.Close()
			return
		}
		b.wg.Add(2)
		go func() {
			defer b.wg.Done()
			b.clientToServer(c, ic)
			b.drop(c, ic)
		}()
		go func() {
			defer b.wg.Done()
			io.Copy(c, ic)
			b.drop(c, ic)
		}()
	}
}

// clientToServer copies what the client sends, adding the token to its
// first line (CONNECT) when there is one.
func (b *bridge) clientToServer(c, ic net.Conn) {
	if b.token == "" {
		io.Copy(ic, c)
		return
	}
	r := bufio.NewReaderSize(c, 4096)
	line, err := readLine(r, 64<<10)
	if err != nil {
		return
	}
	if _, err := ic.Write(withToken(line, b.token)); err != nil {
		return
	}
	io.Copy(ic, r)
}

// readLine reads up to and including "\n", at most limit bytes.
func readLine(r *bufio.Reader, limit int) ([]byte, error) {
	var line []byte
	for {
		part, err := r.ReadSlice('\n')
		line = append(line, part...)
		switch {
		case err == nil:
			return line, nil
		case !errors.Is(err, bufio.ErrBufferFull):
			return nil, err
		case len(line) > limit:
			return nil, errors.New("line too long")
		}
	}
}

// withToken returns a CONNECT line with auth_token set to token. Any other
// line is returned as is (the server will refuse it).
func withToken(line []byte, token string) []byte {
	body, ok := bytes.CutPrefix(bytes.TrimRight(line, "\r\n"), []byte("CONNECT "))
	if !ok {
		return line
	}
	var opts map[string]any
	if err := json.Unmarshal(body, &opts); err != nil {
		return line
	}
	opts["auth_token"] = token
	out, err := json.Marshal(opts)
	if err != nil {
		return line
	}
	return append(append([]byte("CONNECT "), out...), "\r\n"...)
}

func (b *bridge) track(c, ic net.Conn) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return false
	}
	b.conns[c], b.conns[ic] = struct{}{}, struct{}{}
	return true
}

func (b *bridge) drop(c, ic net.Conn) {
	c.Close()
	ic.Close()
	b.mu.Lock()
	delete(b.conns, c)
	delete(b.conns, ic)
	b.mu.Unlock()
}

// close stops accepting, removes the socket file and cuts every bridged
// connection, so that the other processes notice at once. It does not
// wait for them.
func (b *bridge) close() {
	b.mu.Lock()
	b.closed = true
	conns, ln, path := b.conns, b.ln, b.path
	b.conns = map[net.Conn]struct{}{}
	b.mu.Unlock()
	ln.Close()
	os.Remove(path)
	for c := range conns {
		c.Close()
	}
	b.wg.Wait()
}
