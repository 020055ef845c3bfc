package embeddednats

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nkeys"
)

// TestServer_RefusalsAtDebug: what a reader is refused (a publish it may
// not make, a wrong token) does not reach the owner's log at its default
// level; it is counted by Refused.
func TestServer_RefusalsAtDebug(t *testing.T) {
	var log syncBuffer
	s := startServer(t, &Server{Dir: t.TempDir(), Listen: "127.0.0.1:0", Token: "reader-token", ReaderStreams: []string{testStream},
		Logger: slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{Level: slog.LevelWarn}))})
	publishN(t, connect(t, s), 1)
	url := "nats://" + s.NATS().Addr().String()

	errs := make(chan error, 64)
	reader, err := nats.Connect(url, nats.Token("reader-token"),
		nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) { errs <- err }))
	if err != nil {
		t.Fatalf("connect as a reader: %v", err)
	}
	defer reader.Close()
	const tries = 20
	for range tries {
		if err := reader.Publish(mirrorDeliver+".x", []byte(`{}`)); err != nil {
			t.Fatal(err)
		}
	}
	reader.Flush()
	for got := 0; got < tries; got++ {
		select {
		case err := <-errs:
			if !errors.Is(err, nats.ErrPermissionViolation) {
				t.Fatalf("got %v, want a permission violation", err)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("got %d permission violations, want %d", got, tries)
		}
	}
	if _, err := nats.Connect(url, nats.Token("wrong")); err == nil {
		t.Fatal("a wrong token connected")
	}
	deadline := time.Now().Add(30 * time.Second)
	for s.Refused() < tries+1 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if got := s.Refused(); got != tries+1 {
		t.Errorf("Refused() = %d, want %d (the publishes and the wrong token)", got, tries+1)
	}
	if out := log.String(); out != "" {
		t.Errorf("the owner's log at warn level got:\n%s\nwant nothing", out)
	}
}

// TestServer_HubDownSaidOnce: a server whose hub does not answer says so
// in one line of clumsies' words, not in nats-server's; with Quiet, not
// at all.
func TestServer_HubDownSaidOnce(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close() // nothing listens there now
	for _, quiet := range []bool{false, true} {
		t.Run(fmt.Sprintf("Quiet=%v", quiet), func(t *testing.T) {
			var log syncBuffer
			kp, _ := nkeys.CreateUser()
			seed, _ := kp.Seed()
			leaf := &Leaf{URL: fmt.Sprintf("nats-leaf://127.0.0.1:%d", port), Seed: string(seed), Quiet: quiet}
			s := startServer(t, &Server{Dir: t.TempDir(), Domain: "n-0123456789abcdef", Leaf: leaf,
				Logger: slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{Level: slog.LevelDebug}))})
			// nats-server reports the first failed dial (and then only
			// every so many), here at debug level.
			deadline := time.Now().Add(time.Minute)
			for !strings.Contains(log.String(), "Error trying to connect as leafnode") && time.Now().Before(deadline) {
				time.Sleep(50 * time.Millisecond)
			}
			s.Close()
			var warned []string
			for _, line := range strings.Split(log.String(), "\n") {
				if strings.Contains(line, "level=WARN") || strings.Contains(line, "level=ERROR") {
					warned = append(warned, line)
				}
			}
			want := 1
			if quiet {
				want = 0
			}
			if len(warned) != want || (want == 1 && !strings.Contains(warned[0], "the hub at "+leaf.URL+" cannot be reached")) {
				t.Fatalf("got warnings %q, want %d saying the hub cannot be reached; the log:\n%s", warned, want, log.String())
			}
		})
	}
}

// syncBuffer is a log the server's goroutines write while the test reads.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
