package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"runtime/pprof"
	"slices"
	"syscall"
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

	// Alternating rounds, medians: other work on the machine moves single
	// runs by tens of percent. CPU time is this process's (it hosts the
	// embedded server too), so it counts the server's side of both reads.
	rounds := 3
	if b.quick {
		rounds = 1
	}
	var raws, ours, rawCPU, ourCPU []time.Duration
	var rawPeak, ourPeak []int64
	var digest string
	for r := range rounds {
		resetPeakRSS()
		cpu0 := selfCPU()
		raw, err := rawRead(ctx, s, uint64(n))
		if err != nil {
			return err
		}
		cpu1 := selfCPU()
		rawPeak = append(rawPeak, peakRSS(os.Getpid()))
		resetPeakRSS()
		stopProfile := func() {}
		if r == 0 {
			if stopProfile, err = b.startProfile(); err != nil {
				return err
			}
		}
		start := time.Now()
		st, err := projections.Rebuild(ctx, s.log, filepath.Join(b.tempDir("rebuild-pebble"), "projections"), projections.Options{}, nil)
		took := time.Since(start)
		cpu2 := selfCPU()
		ourPeak = append(ourPeak, peakRSS(os.Getpid()))
		stopProfile()
		if err != nil {
			return err
		}
		got := st.Checkpoint()
		digest, _ = st.Digest()
		st.Close()
		if got != uint64(n) {
			return fmt.Errorf("rebuild applied %d events, want %d", got, n)
		}
		raws, ours = append(raws, raw), append(ours, took)
		rawCPU, ourCPU = append(rawCPU, cpu1-cpu0), append(ourCPU, cpu2-cpu1)
	}
	raw, took := percentile(raws, 50), percentile(ours, 50)
	rawRate, ourRate := float64(n)/raw.Seconds(), float64(n)/took.Seconds()
	ratio := ourRate / rawRate
	b.printf("## Rebuild (issue: ledger core)\n\n%d events (70%% refer, the rest load/discover/setup/report; filled in %s). Ours: `projections.Rebuild` = ordered replay + decode + project in batches of 1000, committed to pebble 64 batches at a time. Baseline: a raw ordered-consumer read of the same stream, no decoding. Median of %d rounds, each a raw read then a rebuild; CPU is the user+system time of the whole process (which hosts the embedded server) during each; peak RSS is the process's during each (VmHWM, reset before it).\n\n", n, fillTook.Round(time.Millisecond), rounds)
	b.printf("| | seconds | events/s | CPU seconds | peak RSS MiB |\n|---|---|---|---|---|\n")
	b.printf("| rebuild (ours) | %.2f | %.0f | %.2f | %.0f |\n| raw ordered read | %.2f | %.0f | %.2f | %.0f |\n\n",
		took.Seconds(), ourRate, percentile(ourCPU, 50).Seconds(), mib(medianKiB(ourPeak)), raw.Seconds(), rawRate, percentile(rawCPU, 50).Seconds(), mib(medianKiB(rawPeak)))
	b.printf("Rounds (raw s, rebuild s, raw CPU s, rebuild CPU s):")
	for i := range raws {
		b.printf(" %.2f/%.2f/%.2f/%.2f", raws[i].Seconds(), ours[i].Seconds(), rawCPU[i].Seconds(), ourCPU[i].Seconds())
	}
	b.printf(".\n\n")
	b.printf("Ratio %.2fx (target ≥ 0.7x: %s); %.2f s for %d events (target < 5 s: %s). Digest %s.\n\n",
		ratio, verdict(ratio >= 0.7), took.Seconds(), n, verdict(took < 5*time.Second || n < 1_000_000), digest)
	return nil
}

// selfCPU returns the user and system time of this process so far.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// resetPeakRSS returns the heap's free memory to the system and resets
// the peak resident set of this process (VmHWM) to what remains, so that
// it measures what comes next.
func resetPeakRSS() {
	debug.FreeOSMemory()
	_ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
}

// medianKiB returns the median of xs (KiB), 0 for none.
func medianKiB(xs []int64) int64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

func mib(kib int64) float64 { return float64(kib) / 1024 }

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
		// A loaded machine can hold the acks back for longer than the
		// default stall wait (200 ms).
		if _, err := js.PublishAsync(ev.Subject(), b, jetstream.WithMsgID(ev.ID), jetstream.WithStallWait(30*time.Second)); err != nil {
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
