package embeddednats

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// TestServer_ReadersConfined: a token holder, with a real nats.go client,
// tries what used to break the workspace: listing and deleting the owner's
// consumers, filling the consumer limit, reading the owner's inboxes and
// injecting into the mirror. None of it reaches the owner's account.
func TestServer_ReadersConfined(t *testing.T) {
	saved := ReaderLimits
	ReaderLimits.MaxConsumers = 4
	t.Cleanup(func() { ReaderLimits = saved })
	s := startServer(t, &Server{Dir: t.TempDir(), Listen: "127.0.0.1:0", Token: "reader-token", ReaderStreams: []string{testStream}})
	owner := connect(t, s)
	publishN(t, owner, 3)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ojs, err := jetstream.New(owner)
	if err != nil {
		t.Fatal(err)
	}
	ostream, err := ojs.Stream(ctx, testStream)
	if err != nil {
		t.Fatal(err)
	}
	projector, err := ostream.CreateOrUpdateConsumer(ctx, jetstream.ConsumerConfig{Durable: "projector"})
	if err != nil {
		t.Fatal(err)
	}

	errs := make(chan error, 64)
	reader, err := nats.Connect("nats://"+s.NATS().Addr().String(), nats.Token("reader-token"),
		nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) { errs <- err }))
	if err != nil {
		t.Fatalf("connect as a reader: %v", err)
	}
	defer reader.Close()
	rjs, err := jetstream.New(reader)
	if err != nil {
		t.Fatal(err)
	}
	rstream, err := rjs.Stream(ctx, testStream)
	if err != nil {
		t.Fatalf("a reader finds the stream by its name: %v", err)
	}

	t.Run("SeesNoOwnerConsumer", func(t *testing.T) {
		for name := range rstream.ConsumerNames(ctx).Name() {
			t.Fatalf("a reader lists consumer %q of the owner", name)
		}
	})
	t.Run("CannotDeleteOwnerConsumer", func(t *testing.T) {
		if err := rjs.DeleteConsumer(ctx, testStream, "projector"); err == nil {
			t.Fatal("a reader deleted the owner's consumer")
		}
		if _, err := projector.Info(ctx); err != nil {
			t.Fatalf("the owner's consumer after a reader tried to delete it: %v", err)
		}
	})
	t.Run("ConsumerLimitIsTheReaders", func(t *testing.T) {
		made := 0
		for i := range 10 {
			if _, err := rstream.CreateOrUpdateConsumer(ctx, jetstream.ConsumerConfig{Durable: "r" + string(rune('a'+i))}); err != nil {
				break
			}
			made++
		}
		if made != ReaderLimits.MaxConsumers {
			t.Fatalf("a reader made %d durable consumers, want the limit of %d", made, ReaderLimits.MaxConsumers)
		}
		// The owner is not held back by the readers' limit.
		if _, err := ostream.OrderedConsumer(ctx, jetstream.OrderedConsumerConfig{}); err != nil {
			t.Fatalf("the owner creates a consumer after the readers filled theirs: %v", err)
		}
		if _, err := ostream.CreateOrUpdateConsumer(ctx, jetstream.ConsumerConfig{Durable: "owner-2"}); err != nil {
			t.Fatalf("the owner creates a durable consumer after the readers filled theirs: %v", err)
		}
	})
	t.Run("InboxesAreTheirOwn", func(t *testing.T) {
		var ownerReplies, ownReplies atomic.Int64
		sub, err := reader.Subscribe("_INBOX.>", func(m *nats.Msg) {
			switch {
			case strings.Contains(string(m.Data), "stream_info_response"):
				ownerReplies.Add(1)
			case strings.Contains(string(m.Data), "account_info_response"):
				ownReplies.Add(1)
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		defer sub.Unsubscribe()
		if err := reader.Flush(); err != nil {
			t.Fatal(err)
		}
		for range 20 {
			if _, err := ostream.Info(ctx); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := rjs.AccountInfo(ctx); err != nil {
			t.Fatal(err)
		}
		if err := reader.Flush(); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(10 * time.Second)
		for ownReplies.Load() == 0 && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		if ownReplies.Load() == 0 {
			t.Fatal("the reader's _INBOX.> subscription saw not even its own reply")
		}
		if n := ownerReplies.Load(); n != 0 {
			t.Fatalf("a reader read %d of the owner's replies on _INBOX.>", n)
		}
	})
	t.Run("CannotInjectOrReachTheOwnerAPI", func(t *testing.T) {
		for len(errs) > 0 {
			<-errs
		}
		for _, subj := range []string{mirrorDeliver + ".x", mirrorAPI + ".CONSUMER.CREATE." + testStream + ".evil", "$JS.API.CONSUMER.DELETE." + testStream + ".projector"} {
			if err := reader.Publish(subj, []byte(`{}`)); err != nil {
				t.Fatal(err)
			}
		}
		reader.Flush()
		refused := 0
		for deadline := time.After(10 * time.Second); refused < 2; {
			select {
			case err := <-errs:
				if errors.Is(err, nats.ErrPermissionViolation) {
					refused++
				}
			case <-deadline:
				t.Fatalf("got %d permission violations for publishes into the mirror's subjects, want 2", refused)
			}
		}
		if _, err := projector.Info(ctx); err != nil {
			t.Fatalf("the owner's consumer: %v", err)
		}
	})
}

// TestServer_ReaderConnections: readers cannot exhaust the server's
// connections; the workspace's own processes still connect.
func TestServer_ReaderConnections(t *testing.T) {
	saved := MaxReaderConns
	MaxReaderConns = 3
	t.Cleanup(func() { MaxReaderConns = saved })
	s := startServer(t, &Server{Dir: t.TempDir(), Listen: "127.0.0.1:0", Token: "reader-token", ReaderStreams: []string{testStream}})
	url := "nats://" + s.NATS().Addr().String()
	var conns []*nats.Conn
	defer func() {
		for _, nc := range conns {
			nc.Close()
		}
	}()
	refused := false
	for range 10 {
		nc, err := nats.Connect(url, nats.Token("reader-token"), nats.NoReconnect())
		if err != nil {
			refused = errors.Is(err, nats.ErrAuthorization) || strings.Contains(err.Error(), "Authorization")
			break
		}
		conns = append(conns, nc)
	}
	if !refused || len(conns) != MaxReaderConns {
		t.Fatalf("readers opened %d connections (refused: %v), want %d and then a refusal", len(conns), refused, MaxReaderConns)
	}
	own := connect(t, s)
	if err := own.Flush(); err != nil {
		t.Fatalf("the owner's connection after readers hit their limit: %v", err)
	}
}
