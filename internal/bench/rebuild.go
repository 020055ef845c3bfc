package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	embeddednats "github.com/clumsies/clumsies/embedded-nats"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/events/natsjs"
	"github.com/clumsies/clumsies/projections"
)

// benchRebuild fills a stream with a million events of a realistic mix and
// compares a rebuild of every read model (replay, decode, project, write
// pebble) with a raw ordered-consumer read of the same stream that decodes
// nothing.
func benchRebuild(ctx context.Context, b *bench) error {
	n := 1_000_000
	if b.quick {
		n = 50_000
	}
	s, err := newStore(ctx, b.tempDir("rebuild"), embeddednats.SyncInterval)
	if err != nil {
		return err
	}
	defer s.close()
	fillStart := time.Now()
	if err := fill(ctx, s.nc, s.ws, 0, n); err != nil {
		return err
	}
	fillTook := time.Since(fillStart)

	raw1, err := rawRead(ctx, s, uint64(n))
	if err != nil {
		return err
	}
	stopProfile, err := b.startProfile()
	if err != nil {
		return err
	}
	start := time.Now()
	st, err := projections.Rebuild(ctx, s.log, filepath.Join(b.tempDir("rebuild-pebble"), "projections"), projections.Options{}, nil)
	took := time.Since(start)
	stopProfile()
	if err != nil {
		return err
	}
	got := st.Checkpoint()
	digest, _ := st.Digest()
	st.Close()
	if got != uint64(n) {
		return fmt.Errorf("rebuild applied %d events, want %d", got, n)
	}
	raw2, err := rawRead(ctx, s, uint64(n))
	if err != nil {
		return err
	}
	rawRate := float64(n) / ((raw1 + raw2).Seconds() / 2)
	ours := float64(n) / took.Seconds()
	ratio := ours / rawRate
	b.printf("## Rebuild (issue: ledger core)\n\n%d events (70%% refer, the rest load/discover/setup/report; filled in %s). Ours: `projections.Rebuild` = ordered replay + decode + project + pebble batches of 1000. Baseline: a raw ordered-consumer read of the same stream, no decoding (mean of one read before and one after).\n\n", n, fillTook.Round(time.Millisecond))
	b.printf("| | seconds | events/s |\n|---|---|---|\n")
	b.printf("| rebuild (ours) | %.2f | %.0f |\n| raw ordered read | %.2f | %.0f |\n\n", took.Seconds(), ours, (raw1+raw2).Seconds()/2, rawRate)
	b.printf("Ratio %.2fx (target ≥ 0.5x: %s); %.2f s for %d events (target < 10 s: %s). Digest %s.\n\n",
		ratio, verdict(ratio >= 0.5), took.Seconds(), n, verdict(took < 10*time.Second || n < 1_000_000), digest)
	return nil
}

// startProfile starts the CPU profile asked for with -cpuprofile, if any,
// and returns the function that stops it.
func (b *bench) startProfile() (stop func(), err error) {
	if b.profile == "" {
		return func() {}, nil
	}
	f, err := os.Create(b.profile)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}

// fill appends events [from, to) of workspace ws with asynchronous
// publishes on nc.
func fill(ctx context.Context, nc *nats.Conn, ws string, from, to int) error {
	js, err := jetstream.New(nc, jetstream.WithPublishAsyncMaxPending(4096))
	if err != nil {
		return err
	}
	for i := from; i < to; i++ {
		ev := sampleEvent(ws, i)
		b, err := events.Encode(ev)
		if err != nil {
			return err
		}
		if _, err := js.PublishAsync(ev.Subject(), b, jetstream.WithMsgID(ev.ID)); err != nil {
			return fmt.Errorf("publish %d: %w", i, err)
		}
	}
	select {
	case <-js.PublishAsyncComplete():
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(5 * time.Minute):
		return fmt.Errorf("fill: publishes did not complete")
	}
	return nil
}

// rawRead reads the whole stream with an ordered consumer, decoding nothing.
func rawRead(ctx context.Context, s *store, last uint64) (time.Duration, error) {
	stream, err := s.js.Stream(ctx, natsjs.StreamName(s.ws))
	if err != nil {
		return 0, err
	}
	start := time.Now()
	cons, err := stream.OrderedConsumer(ctx, jetstream.OrderedConsumerConfig{})
	if err != nil {
		return 0, err
	}
	msgs, err := cons.Messages(jetstream.PullMaxMessages(2000))
	if err != nil {
		return 0, err
	}
	defer msgs.Stop()
	for {
		msg, err := msgs.Next()
		if err != nil {
			return 0, err
		}
		meta, err := msg.Metadata()
		if err != nil {
			return 0, err
		}
		if meta.Sequence.Stream >= last {
			return time.Since(start), nil
		}
	}
}
