package natsjs_test

import (
	"testing"
	"time"

	embeddednats "github.com/clumsies/clumsies/embedded-nats"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/events/eventstest"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

func BenchmarkExp(b *testing.B) {
	total := benchEvents(b)
	srv := &embeddednats.Server{Dir: b.TempDir(), Sync: embeddednats.SyncInterval, Listen: "127.0.0.1:0", Token: "t"}
	if err := srv.Start(); err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	inproc, _ := srv.Connect()
	tcp, _ := nats.Connect("nats://"+srv.NATS().Addr().String(), nats.Token("t"))
	sp, err := nats.Connect("", nats.InProcessServer(spProvider{srv.NATS()}), nats.Token("t"))
	if err != nil {
		b.Fatal(err)
	}
	(&node{srv: srv, nc: inproc}).open(b)
	js := jetStream(b, inproc)
	for i := range total {
		ev := eventstest.Event(b, i)
		payload, _ := events.Encode(ev)
		if _, err := js.PublishAsync(ev.Subject(), payload, jetstream.WithMsgID(ev.ID)); err != nil {
			b.Fatal(err)
		}
	}
	<-js.PublishAsyncComplete()
	for _, c := range []struct {
		name string
		nc   *nats.Conn
	}{{"inproc", inproc}, {"tcp", tcp}, {"sockpair", sp}, {"inproc2", inproc}, {"tcp2", tcp}, {"sockpair2", sp}} {
		for _, batch := range []int{500} {
			b.Run(c.name+"/messages/"+itoa(batch), func(b *testing.B) {
				js := jetStream(b, c.nc)
				ctx := testCtx(b)
				start := time.Now()
				for b.Loop() {
					cons, _ := js.OrderedConsumer(ctx, streamName(), jetstream.OrderedConsumerConfig{})
					msgs, _ := cons.Messages(jetstream.PullMaxMessages(batch))
					for range total {
						if _, err := msgs.Next(); err != nil {
							b.Fatal(err)
						}
					}
					msgs.Stop()
				}
				reportRate(b, total, time.Since(start))
			})
			b.Run(c.name+"/consume/"+itoa(batch), func(b *testing.B) {
				js := jetStream(b, c.nc)
				ctx := testCtx(b)
				start := time.Now()
				for b.Loop() {
					cons, _ := js.OrderedConsumer(ctx, streamName(), jetstream.OrderedConsumerConfig{})
					done := make(chan struct{})
					n := 0
					cc, _ := cons.Consume(func(jetstream.Msg) {
						n++
						if n == total {
							close(done)
						}
					}, jetstream.PullMaxMessages(batch))
					<-done
					cc.Stop()
				}
				reportRate(b, total, time.Since(start))
			})
		}
	}
}

func itoa(i int) string { return time.Duration(i).String()[:len(time.Duration(i).String())-2] }
