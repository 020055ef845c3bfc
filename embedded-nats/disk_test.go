//go:build linux

package embeddednats

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// smallDisk mounts a tmpfs of size bytes and returns its folder; it skips
// when the test may not mount (not root, no mount privilege).
func smallDisk(tb testing.TB, size string) string {
	tb.Helper()
	dir := filepath.Join(tb.TempDir(), "disk")
	if err := os.Mkdir(dir, 0o700); err != nil {
		tb.Fatal(err)
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput(); err != nil {
		tb.Skipf("mount a tmpfs: %v: %s", err, bytes.TrimSpace(out))
	}
	tb.Cleanup(func() { _ = exec.Command("umount", dir).Run() })
	return dir
}

// TestServer_NearlyFullDisk: an owner that starts on a nearly full disk
// still writes. nats-server's own limit (75% of the space free at start,
// plus three quarters of the store it finds) fell below what the store
// already held, and the first write failed even with space left.
func TestServer_NearlyFullDisk(t *testing.T) {
	disk := smallDisk(t, "32m")
	dir := filepath.Join(disk, "state")
	first := startServer(t, &Server{Dir: dir, Sync: SyncInterval})
	nc := connect(t, first)
	publishN(t, nc, 1)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	chunk := bytes.Repeat([]byte("x"), 1<<20)
	for i := range 20 {
		if _, err := js.Publish(ctx, testSubject, chunk); err != nil {
			t.Fatalf("publish %d MiB: %v", i+1, err)
		}
	}
	nc.Close()
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	// Leave about 3 MiB free.
	if err := os.WriteFile(filepath.Join(disk, "junk"), bytes.Repeat([]byte("j"), 9<<20), 0o600); err != nil {
		t.Fatal(err)
	}

	again := startServer(t, &Server{Dir: dir, Sync: SyncInterval})
	if got := again.NATS().JetStreamConfig().MaxStore; got != DefaultMaxStore {
		t.Fatalf("store limit %d, want %d whatever the disk holds", got, DefaultMaxStore)
	}
	nc = connect(t, again)
	js, err = jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := js.Publish(ctx, testSubject, []byte("one more event")); err != nil {
		t.Fatalf("publish on a nearly full disk with space left: %v", err)
	}
}
