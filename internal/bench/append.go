package main

import (
	"context"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	embeddednats "github.com/clumsies/clumsies/embedded-nats"
	"github.com/clumsies/clumsies/events"
)

// benchAppend compares sequential appends through our log with raw
// js.Publish calls of the same encoded events (with Nats-Msg-Id) into the
// same kind of stream, under the same sync setting. Rounds alternate and
// the median rate of each side is reported.
func benchAppend(ctx context.Context, b *bench) error {
	b.printf("## Append throughput (issue: ledger core)\n\nSequential appends, one at a time (a tool call appends one event and waits for its ack). Baseline: raw `js.Publish` of the same encoded bytes with `Nats-Msg-Id`, same stream config, same sync. Median of %d alternating rounds.\n\n", rounds(b))
	b.printf("| sync | events/round | ours (events/s) | raw js.Publish (events/s) | ratio | target ≥ 0.8x |\n|---|---|---|---|---|---|\n")
	for _, mode := range []embeddednats.SyncMode{embeddednats.SyncAlways, embeddednats.SyncInterval} {
		n := 2000
		if mode == embeddednats.SyncInterval {
			n = 20000
		}
		if b.quick {
			n /= 10
		}
		var ours, raw []float64
		for r := 0; r < rounds(b); r++ {
			o, err := appendRound(ctx, b, mode, n, false)
			if err != nil {
				return err
			}
			w, err := appendRound(ctx, b, mode, n, true)
			if err != nil {
				return err
			}
			ours, raw = append(ours, o), append(raw, w)
		}
		ratio := median(ours) / median(raw)
		b.printf("| %s | %d | %.0f | %.0f | %.2fx | %s |\n", mode, n, median(ours), median(raw), ratio, verdict(ratio >= 0.8))
	}
	b.printf("\n")
	return nil
}

func rounds(b *bench) int {
	if b.quick {
		return 1
	}
	return 3
}

// appendRound appends n events to a fresh store and returns events/s.
func appendRound(ctx context.Context, b *bench, mode embeddednats.SyncMode, n int, raw bool) (float64, error) {
	s, err := newStore(ctx, b.tempDir("append"), mode)
	if err != nil {
		return 0, err
	}
	defer s.close()
	evs := make([]events.Event, n)
	payloads := make([][]byte, n)
	for i := range evs {
		evs[i] = sampleEvent(s.ws, i)
		if payloads[i], err = events.Encode(evs[i]); err != nil {
			return 0, err
		}
	}
	start := time.Now()
	for i := range evs {
		if raw {
			_, err = s.js.Publish(ctx, evs[i].Subject(), payloads[i], jetstream.WithMsgID(evs[i].ID))
		} else {
			_, err = s.log.Append(ctx, evs[i])
		}
		if err != nil {
			return 0, fmt.Errorf("append %d: %w", i, err)
		}
	}
	return float64(n) / time.Since(start).Seconds(), nil
}
