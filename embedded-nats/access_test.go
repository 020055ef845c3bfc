package embeddednats

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// TestServer_ReaderAccess checks what a client with the external token may
// do: read the stream through a durable consumer and subscribe to
// ReadSubjects, but not publish into the stream, delete it, or reach other
// subjects; the in-process connection keeps every permission.
func TestServer_ReaderAccess(t *testing.T) {
	s := startServer(t, &Server{Dir: t.TempDir(), Listen: "127.0.0.1:0", Token: "reader-token", ReadSubjects: []string{testSubject}, ReaderStreams: []string{testStream}})
	owner := connect(t, s)
	defer owner.Close()
	publishN(t, owner, 5)

	errs := make(chan error, 16)
	reader, err := nats.Connect("nats://"+s.NATS().Addr().String(), nats.Token("reader-token"),
		nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) { errs <- err }))
	if err != nil {
		t.Fatalf("connect as a reader: %v", err)
	}
	defer reader.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	js, err := jetstream.New(reader)
	if err != nil {
		t.Fatal(err)
	}

	t.Run("ReadsWithADurableConsumer", func(t *testing.T) {
		stream, err := js.Stream(ctx, testStream)
		if err != nil {
			t.Fatalf("stream info as a reader: %v", err)
		}
		cons, err := stream.CreateOrUpdateConsumer(ctx, jetstream.ConsumerConfig{Durable: "analytics", AckPolicy: jetstream.AckExplicitPolicy})
		if err != nil {
			t.Fatalf("create a durable consumer as a reader: %v", err)
		}
		// A fetch may end with fewer messages than asked on a loaded
		// machine: fetch again until all five came or ctx ends.
		n := 0
		for n < 5 && ctx.Err() == nil {
			batch, err := cons.Fetch(5-n, jetstream.FetchMaxWait(5*time.Second))
			if err != nil {
				t.Fatal(err)
			}
			for msg := range batch.Messages() {
				if err := msg.DoubleAck(ctx); err != nil {
					t.Fatalf("ack as a reader: %v", err)
				}
				n++
			}
		}
		if n != 5 {
			t.Fatalf("got %d messages, want 5", n)
		}
	})

	t.Run("CannotPublishIntoTheStream", func(t *testing.T) {
		short, cancel := context.WithTimeout(ctx, 2*time.Second)
		defer cancel()
		if _, err := js.Publish(short, testSubject, []byte("forged")); err == nil {
			t.Fatal("a reader published into the stream, want a permissions violation")
		}
		if got := streamMsgs(t, owner); got != 5 {
			t.Fatalf("stream holds %d messages after a reader's publish, want 5", got)
		}
	})

	t.Run("CannotDeleteTheStream", func(t *testing.T) {
		short, cancel := context.WithTimeout(ctx, 2*time.Second)
		defer cancel()
		if err := js.DeleteStream(short, testStream); err == nil {
			t.Fatal("a reader deleted the stream")
		}
		if got := streamMsgs(t, owner); got != 5 {
			t.Fatalf("stream holds %d messages, want 5", got)
		}
	})

	t.Run("SubscribesOnlyToReadSubjects", func(t *testing.T) {
		reader.Flush()
		for len(errs) > 0 {
			<-errs // from the refused publish above
		}
		if _, err := reader.SubscribeSync(testSubject); err != nil {
			t.Fatal(err)
		}
		if _, err := reader.SubscribeSync("clumsiesrpc.ws-x.view"); err != nil {
			t.Fatal(err)
		}
		reader.Flush()
		deadline := time.After(5 * time.Second)
		for {
			select {
			case err := <-errs:
				if errors.Is(err, nats.ErrPermissionViolation) && strings.Contains(err.Error(), testSubject) {
					t.Fatalf("subscribing to a ReadSubject was refused: %v", err)
				}
				if errors.Is(err, nats.ErrPermissionViolation) && strings.Contains(err.Error(), "clumsiesrpc") {
					return
				}
			case <-deadline:
				t.Fatal("subscribing to a subject outside ReadSubjects raised no permissions violation")
			}
		}
	})
}
