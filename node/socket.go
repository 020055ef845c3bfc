package node

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
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

// SocketPath returns the unix socket through which the owner of the
// workspace whose state folder is stateDir serves the other processes:
// stateDir/owner.sock, or, when that path is too long for a socket, a
// socket named after stateDir in a private per-user folder of the system's
// temporary folder. Every process computes the same path.
func SocketPath(stateDir string) string {
	p := filepath.Join(stateDir, socketName)
	if len(p) <= maxSocketPath {
		return p
	}
	real, err := filepath.EvalSymlinks(stateDir)
	if err != nil {
		real = stateDir
	}
	sum := sha256.Sum256([]byte(real))
	return filepath.Join(privateTempDir(), hex.EncodeToString(sum[:10])+".sock")
}

func privateTempDir() string {
	return filepath.Join(os.TempDir(), "clumsies-"+strconv.Itoa(os.Getuid()))
}

// checkPrivateDir makes sure dir exists, is a folder (not a link) and only
// its owner can enter it.
func checkPrivateDir(dir string) error {
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
		return err
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	// A folder another user made would not let us bind in it; one open to
	// others must not be used.
	if !fi.IsDir() || fi.Mode().Perm() != 0o700 {
		return fmt.Errorf("%s must be a folder with mode 0700", dir)
	}
	return nil
}

// listenSocket binds the owner's socket at path with mode 0600, replacing
// a stale one. Only the lock holder calls it, so nobody else is bound
// there. The socket is bound under a temporary name, restricted, then
// renamed into place, so that nobody can connect before it is private.
func listenSocket(path string) (*net.UnixListener, error) {
	if filepath.Dir(path) == privateTempDir() {
		if err := checkPrivateDir(filepath.Dir(path)); err != nil {
			return nil, fmt.Errorf("owner socket folder: %w", err)
		}
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
// asks for and connects to the owner's unix socket.
type socketDialer struct{ path string }

func (d socketDialer) Dial(_, _ string) (net.Conn, error) {
	return net.DialTimeout("unix", d.path, dialTimeout)
}

// bridge carries the connections accepted on the owner's socket to the
// embedded server, each over its own in-process connection, so the other
// processes speak the ordinary NATS client protocol. The socket itself is
// the credential: when the server requires a token (it has a TCP listener),
// bridge adds it to the client's CONNECT.
type bridge struct {
	ln    *net.UnixListener
	path  string
	ns    *server.Server
	token string

	mu     sync.Mutex
	conns  map[net.Conn]struct{}
	closed bool
	wg     sync.WaitGroup
}

func newBridge(ln *net.UnixListener, path string, ns *server.Server, token string) *bridge {
	b := &bridge{ln: ln, path: path, ns: ns, token: token, conns: map[net.Conn]struct{}{}}
	b.wg.Add(1)
	go b.accept()
	return b
}

func (b *bridge) accept() {
	defer b.wg.Done()
	for {
		c, err := b.ln.Accept()
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
	conns := b.conns
	b.conns = map[net.Conn]struct{}{}
	b.mu.Unlock()
	b.ln.Close()
	os.Remove(b.path)
	for c := range conns {
		c.Close()
	}
	b.wg.Wait()
}
