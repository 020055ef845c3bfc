package natsjs_test

import (
	"context"
	"errors"
	"strconv"
	"testing"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	embeddednats "github.com/clumsies/clumsies/embedded-nats"
	"github.com/clumsies/clumsies/events/natsjs"
)

// TestSource_ReplayAndSubscribe reads a stream natsjs did not make: Replay
// gives what it held at the start, Subscribe goes on with what comes
// after, each message once, in order, with its subject and headers.
func TestSource_ReplayAndSubscribe(t *testing.T) {
	n := startNode(t, t.TempDir(), embeddednats.SyncAlways)
	ctx := testCtx(t)
	js, err := jetstream.New(n.nc)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := natsjs.OpenSource(ctx, n.nc, "OTHER", natsjs.Options{}); !errors.Is(err, jetstream.ErrStreamNotFound) {
		t.Fatalf("OpenSource of a missing stream: %v, want ErrStreamNotFound", err)
	}
	if _, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: "OTHER", Subjects: []string{"other.>"}}); err != nil {
		t.Fatal(err)
	}
	publish := func(from, to int) {
		for i := from; i <= to; i++ {
			msg := &nats.Msg{Subject: "other." + strconv.Itoa(i), Data: []byte(strconv.Itoa(i)), Header: nats.Header{}}
			msg.Header.Set("From", "test")
			if _, err := js.PublishMsg(ctx, msg, jetstream.WithMsgID("id-"+strconv.Itoa(i))); err != nil {
				t.Fatal(err)
			}
		}
	}
	publish(1, 5)
	src, err := natsjs.OpenSource(ctx, n.nc, "OTHER", natsjs.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []natsjs.Message
	if err := src.Replay(ctx, 2, func(m natsjs.Message) error { got = append(got, m); return nil }); err != nil {
		t.Fatalf("Replay: %v", err)
	}
	if len(got) != 4 || got[0].Seq != 2 || got[3].Seq != 5 || got[3].Pending != 0 || got[0].Pending != 3 {
		t.Fatalf("Replay from 2 gave %+v, want seqs 2 to 5, the last with nothing pending", got)
	}
	for _, m := range got {
		want := strconv.FormatUint(m.Seq, 10)
		if m.Subject != "other."+want || string(m.Data) != want || m.Header.Get("From") != "test" || m.Header.Get(nats.MsgIdHdr) != "id-"+want {
			t.Fatalf("message %d: subject %q, data %q, headers %v", m.Seq, m.Subject, m.Data, m.Header)
		}
	}

	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var next uint64 = 4
	done := make(chan error, 1)
	go func() {
		done <- src.Subscribe(sctx, next, func(m natsjs.Message) error {
			if m.Seq != next {
				return errors.New("out of order: " + strconv.FormatUint(m.Seq, 10))
			}
			if next++; next > 9 {
				cancel()
			}
			return nil
		})
	}()
	publish(6, 9)
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Subscribe: %v, want it to run until cancelled", err)
	}
	if next != 10 {
		t.Fatalf("Subscribe delivered up to %d, want 9", next-1)
	}
}
