package main

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/events/natsjs"
)

// TestAppendAgain_TimedOutAppendStoredOnce appends an event whose first
// attempt ends without an answer (its bound passed) to a real ledger
// stream: the append is made again with the same event, and the stream
// holds it once.
func TestAppendAgain_TimedOutAppendStoredOnce(t *testing.T) {
	s, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: -1, JetStream: true, StoreDir: t.TempDir(), NoLog: true, NoSigs: true})
	if err != nil {
		t.Fatal(err)
	}
	go s.Start()
	defer s.Shutdown()
	if !s.ReadyForConnections(10 * time.Second) {
		t.Fatal("the server did not start")
	}
	nc, err := nats.Connect(s.ClientURL())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	ctx := t.Context()
	l, err := natsjs.Open(ctx, nc, "ws-again", natsjs.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		ev := sampleEvent("ws-again", i)
		calls := 0
		seq, err := appendAgain(ctx, appendTries, func(ctx context.Context) (uint64, error) {
			calls++
			if calls == 1 {
				// The first attempt's bound passes once the publish is
				// on its way or before: either way no answer is read.
				short, cancel := context.WithTimeout(ctx, time.Duration(i)*50*time.Microsecond)
				defer cancel()
				if seq, err := l.Append(short, ev); err == nil {
					return seq, nil
				}
				return 0, fmt.Errorf("append: %w", context.DeadlineExceeded)
			}
			return l.Append(ctx, ev)
		})
		if err != nil {
			t.Fatalf("event %d: %v", i, err)
		}
		if seq != uint64(i+1) {
			t.Errorf("event %d stored at %d, want %d: stored twice or lost", i, seq, i+1)
		}
	}
	last, err := l.LastSeq(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if last != 3 {
		t.Errorf("the stream holds %d messages, want 3", last)
	}
}

// TestAppendAgain_RefusalNotAskedAgain gives up on a refusal at once.
func TestAppendAgain_RefusalNotAskedAgain(t *testing.T) {
	calls := 0
	_, err := appendAgain(t.Context(), appendTries, func(context.Context) (uint64, error) {
		calls++
		return 0, fmt.Errorf("append: %w", events.ErrRefused)
	})
	if !errors.Is(err, events.ErrRefused) || calls != 1 {
		t.Errorf("err %v after %d calls, want the refusal after 1", err, calls)
	}
}
