package natsjs_test

import (
	"os"
	"strconv"
	"testing"
	"time"

	embeddednats "github.com/clumsies/clumsies/embedded-nats"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/events/eventstest"
	"github.com/clumsies/clumsies/events/natsjs"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// syncModes are the store sync settings the append benchmarks compare.
var syncModes = []struct {
	name string
	mode embeddednats.SyncMode
}{{"sync=always", embeddednats.SyncAlways}, {"sync=interval", embeddednats.SyncInterval}}

// BenchmarkAppend measures Log.Append: encode, publish with Nats-Msg-Id,
// wait for the ack.
func BenchmarkAppend(b *testing.B) {
	for _, sm := range syncModes {
		b.Run(sm.name, func(b *testing.B) {
			l := startNode(b, b.TempDir(), sm.mode).open(b)
			ctx := testCtx(b)
			ev := eventstest.Event(b, 0)
			b.ReportAllocs()
			for b.Loop() {
				ev.ID = events.NewID()
				if _, err := l.Append(ctx, ev); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkRawPublish is BenchmarkAppend's baseline: a synchronous
// JetStream publish of the same bytes with a Nats-Msg-Id, no encoding.
func BenchmarkRawPublish(b *testing.B) {
	for _, sm := range syncModes {
		b.Run(sm.name, func(b *testing.B) {
			n := startNode(b, b.TempDir(), sm.mode)
			n.open(b) // creates the stream
			js := jetStream(b, n.nc)
			ctx := testCtx(b)
			ev := eventstest.Event(b, 0)
			payload, err := events.Encode(ev)
			if err != nil {
				b.Fatal(err)
			}
			subject := ev.Subject()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := js.Publish(ctx, subject, payload, jetstream.WithMsgID(events.NewID())); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkReplay measures Log.Replay of a pre-filled stream, decoding
// every event. Set CLUMSIES_BENCH_EVENTS to change the stream's size.
func BenchmarkReplay(b *testing.B) {
	n, total := filledNode(b)
	l := n.open(b)
	ctx := testCtx(b)
	b.ReportAllocs()
	start := time.Now()
	for b.Loop() {
		count := 0
		err := l.Replay(ctx, 1, func(events.Event) error { count++; return nil })
		if err != nil {
			b.Fatal(err)
		}
		if count != total {
			b.Fatalf("replayed %d events, want %d", count, total)
		}
	}
	reportRate(b, total, time.Since(start))
}

// BenchmarkRawOrderedRead is BenchmarkReplay's baseline: an ordered
// consumer reads the same stream without decoding anything.
func BenchmarkRawOrderedRead(b *testing.B) {
	n, total := filledNode(b)
	js := jetStream(b, n.nc)
	ctx := testCtx(b)
	b.ReportAllocs()
	start := time.Now()
	for b.Loop() {
		cons, err := js.OrderedConsumer(ctx, streamName(), jetstream.OrderedConsumerConfig{})
		if err != nil {
			b.Fatal(err)
		}
		msgs, err := cons.Messages()
		if err != nil {
			b.Fatal(err)
		}
		for range total {
			if _, err := msgs.Next(); err != nil {
				b.Fatal(err)
			}
		}
		msgs.Stop()
	}
	reportRate(b, total, time.Since(start))
}

// benchEvents is the number of events the replay benchmarks read.
func benchEvents(tb testing.TB) int {
	tb.Helper()
	s := os.Getenv("CLUMSIES_BENCH_EVENTS")
	if s == "" {
		return 100_000
	}
	v, err := strconv.Atoi(s)
	if err != nil || v < 1 {
		tb.Fatalf("CLUMSIES_BENCH_EVENTS=%q: want a positive number", s)
	}
	return v
}

// filledNode starts a server whose workspace stream holds benchEvents suite
// events, published asynchronously to keep the setup short.
func filledNode(b *testing.B) (*node, int) {
	b.Helper()
	total := benchEvents(b)
	n := startNode(b, b.TempDir(), embeddednats.SyncInterval)
	n.open(b) // creates the stream
	js := jetStream(b, n.nc)
	for i := range total {
		ev := eventstest.Event(b, i)
		payload, err := events.Encode(ev)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := js.PublishAsync(ev.Subject(), payload, jetstream.WithMsgID(ev.ID), jetstream.WithStallWait(30*time.Second)); err != nil {
			b.Fatal(err)
		}
	}
	select {
	case <-js.PublishAsyncComplete():
	case <-time.After(5 * time.Minute):
		b.Fatal("filling the stream took too long")
	}
	return n, total
}

func jetStream(tb testing.TB, nc *nats.Conn) jetstream.JetStream {
	tb.Helper()
	js, err := jetstream.New(nc)
	if err != nil {
		tb.Fatal(err)
	}
	return js
}

func streamName() string { return natsjs.StreamName(workspace) }

// reportRate adds an events/s metric over all loop iterations.
func reportRate(b *testing.B, perLoop int, elapsed time.Duration) {
	b.ReportMetric(float64(perLoop*b.N)/elapsed.Seconds(), "events/s")
}
