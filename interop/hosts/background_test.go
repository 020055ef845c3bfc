package hosts

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"
)

// freePort returns a loopback port free a moment ago.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("find a free port: %v", err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// startHost starts a host program (a server) in the workspace in its own
// process group and returns a function that stops the group and logs
// what it printed, once however often it is called.
func (p *project) startHost(t *testing.T, extra []string, bin string, args ...string) (stop func()) {
	t.Helper()
	out := filepath.Join(t.TempDir(), filepath.Base(bin)+".out")
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir, cmd.Env = p.dir, append(append([]string(nil), p.env...), extra...)
	cmd.Stdout, cmd.Stderr = f, f
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		f.Close()
		t.Fatalf("start %s: %v", filepath.Base(bin), err)
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
			reap(-cmd.Process.Pid)
			cmd.Wait()
			f.Close()
			b, _ := os.ReadFile(out)
			t.Logf("%s %v printed:\n%s", filepath.Base(bin), args, b)
		})
	}
}

// waitListening waits, bounded generously, until something listens on
// the loopback port.
func waitListening(t *testing.T, port int) {
	t.Helper()
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	for end := time.Now().Add(2 * time.Minute); time.Now().Before(end); time.Sleep(250 * time.Millisecond) {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return
		}
	}
	t.Fatalf("nothing listens on %s after 2 minutes", addr)
}
