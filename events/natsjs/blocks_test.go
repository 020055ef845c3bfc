package natsjs_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	embeddednats "github.com/clumsies/clumsies/embedded-nats"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/events/eventstest"
	"github.com/nats-io/nats.go/jetstream"
)

// TestOpen_BlocksOfAtMost4MiB: the server writes a workspace's stream in
// files of at most 4 MiB, since it holds the last one in memory while it
// writes into it; a stream without limits would have 8 MiB files.
func TestOpen_BlocksOfAtMost4MiB(t *testing.T) {
	dir := t.TempDir()
	n := startNode(t, dir, embeddednats.SyncInterval)
	l := n.open(t)
	js, err := jetstream.New(n.nc)
	if err != nil {
		t.Fatal(err)
	}
	subject := eventstest.Event(t, 0).Subject()
	body := []byte(strings.Repeat("x", 64<<10))
	const total = 6 << 20
	for range total / len(body) {
		if _, err := js.Publish(testCtx(t), subject, body, jetstream.WithMsgID(events.NewID())); err != nil {
			t.Fatal(err)
		}
	}
	blocks, err := filepath.Glob(filepath.Join(embeddednats.StreamDir(dir, l.Stream()), "msgs", "*.blk"))
	if err != nil || len(blocks) == 0 {
		t.Fatalf("the stream's files: %v, %v", blocks, err)
	}
	var sum int64
	for _, b := range blocks {
		info, err := os.Stat(b)
		if err != nil {
			t.Fatal(err)
		}
		sum += info.Size()
		if info.Size() > 4<<20 {
			t.Errorf("%s holds %d bytes, more than 4 MiB", filepath.Base(b), info.Size())
		}
	}
	if sum < total {
		t.Errorf("the files hold %d bytes, want at least the %d published", sum, total)
	}
}
