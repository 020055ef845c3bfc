package main_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/clumsies/clumsies/internal/testbin"
	"github.com/clumsies/clumsies/workspace"
)

// dir holds the two binaries as they are installed: the front (clumsies)
// and the core (clumsies-core) side by side.
var (
	dir   string
	front string
	core  string
)

func TestMain(m *testing.M) {
	var err error
	if dir, err = os.MkdirTemp("", "clumsies-front-"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	front, core = filepath.Join(dir, "clumsies"), filepath.Join(dir, "clumsies-core")
	if err := testbin.Build(testbin.Dir(dir), ".", "../clumsies-core"); err != nil {
		fmt.Fprintln(os.Stderr, "build clumsies and clumsies-core:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// newWorkspace makes a workspace with `clumsies init`'s content.
func newWorkspace(tb testing.TB) string {
	tb.Helper()
	ws, _, err := workspace.Init(tb.TempDir())
	if err != nil {
		tb.Fatal(err)
	}
	return ws.Root
}

// result is one finished run of a binary.
type result struct {
	stdout, stderr string
	code           int
}

// run runs bin with args and stdin to completion.
func run(tb testing.TB, env []string, stdin string, bin string, args ...string) result {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin = strings.NewReader(stdin)
	out, errs, code, err := testbin.Run(cmd)
	if err != nil {
		tb.Fatalf("run %s %v: %v", bin, args, err)
	}
	return result{out, errs, code}
}

// session is a server process driven line by line over real pipes.
type session struct {
	tb     testing.TB
	cmd    *exec.Cmd
	in     io.WriteCloser
	lines  chan string
	stderr *bytes.Buffer
}

func start(tb testing.TB, bin string, args ...string) *session {
	tb.Helper()
	cmd := exec.Command(bin, args...)
	in, err := cmd.StdinPipe()
	if err != nil {
		tb.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	s := &session{tb: tb, cmd: cmd, in: in, lines: make(chan string, 64), stderr: &bytes.Buffer{}}
	cmd.Stderr = s.stderr
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	go func() {
		defer close(s.lines)
		sc := bufio.NewScanner(out)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			s.lines <- sc.Text()
		}
	}()
	tb.Cleanup(func() { s.close() })
	return s
}

// send writes text as it is (one write).
func (s *session) send(text string) {
	s.tb.Helper()
	if _, err := io.WriteString(s.in, text); err != nil {
		s.tb.Fatalf("write stdin: %v", err)
	}
}

// next returns the next line the server writes.
func (s *session) next() string {
	s.tb.Helper()
	select {
	case l, ok := <-s.lines:
		if !ok {
			s.tb.Fatalf("the server closed stdout; stderr:\n%s", s.stderr)
		}
		return l
	case <-time.After(time.Minute):
		s.tb.Fatalf("no answer within a minute; stderr:\n%s", s.stderr)
	}
	return ""
}

// close ends the session (stdin closed) and waits for the process.
func (s *session) close() string {
	s.in.Close()
	done := make(chan struct{})
	go func() { s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(time.Minute):
		s.cmd.Process.Kill()
		<-done
	}
	return s.stderr.String()
}

// sameJSON reports whether a and b are the same JSON values.
func sameJSON(tb testing.TB, a, b string) bool {
	tb.Helper()
	var x, y any
	if err := json.Unmarshal([]byte(a), &x); err != nil {
		tb.Fatalf("not JSON: %v: %s", err, a)
	}
	if err := json.Unmarshal([]byte(b), &y); err != nil {
		tb.Fatalf("not JSON: %v: %s", err, b)
	}
	return reflect.DeepEqual(x, y)
}
