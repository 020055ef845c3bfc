package embeddednats

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// TestServer_Limits: the server takes messages up to MaxPayload (nats-
// server's default of 1 MiB refused the largest events), and its store
// limit is the configured one, not a share of the disk free at start.
func TestServer_Limits(t *testing.T) {
	t.Run("LargeMessage", func(t *testing.T) {
		s := startServer(t, &Server{Dir: t.TempDir()})
		nc := connect(t, s)
		publishN(t, nc, 1) // creates the stream
		if got := nc.MaxPayload(); got != MaxPayload {
			t.Fatalf("client sees max payload %d, want %d", got, MaxPayload)
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		js, err := jetstream.New(nc)
		if err != nil {
			t.Fatal(err)
		}
		big := bytes.Repeat([]byte("<"), 7<<20)
		if _, err := js.Publish(ctx, testSubject, big); err != nil {
			t.Fatalf("publish %d bytes: %v", len(big), err)
		}
		if got, want := streamMsgs(t, nc), uint64(2); got != want {
			t.Fatalf("stream holds %d messages, want %d", got, want)
		}
	})
	t.Run("DefaultStoreLimit", func(t *testing.T) {
		s := startServer(t, &Server{Dir: t.TempDir()})
		if got := s.NATS().JetStreamConfig().MaxStore; got != DefaultMaxStore {
			t.Fatalf("got store limit %d, want %d", got, DefaultMaxStore)
		}
	})
	t.Run("StoreLimit", func(t *testing.T) {
		const limit = 4 << 20
		s := startServer(t, &Server{Dir: t.TempDir(), MaxStore: limit, Sync: SyncInterval})
		if got := s.NATS().JetStreamConfig().MaxStore; got != limit {
			t.Fatalf("got store limit %d, want %d", got, limit)
		}
		nc := connect(t, s)
		publishN(t, nc, 1)
		js, err := jetstream.New(nc)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		chunk := bytes.Repeat([]byte("x"), 1<<20)
		var perr error
		for i := 0; i < 8 && perr == nil; i++ {
			_, perr = js.Publish(ctx, testSubject, chunk)
		}
		if perr == nil {
			t.Fatalf("8 MiB went into a store limited to 4 MiB")
		}
	})
	t.Run("NegativeStoreLimit", func(t *testing.T) {
		s := &Server{Dir: t.TempDir(), MaxStore: -1}
		if err := s.Start(); err == nil {
			s.Close()
			t.Fatal("Start with MaxStore -1: got nil, want an error")
		}
	})
}
