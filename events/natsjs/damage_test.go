package natsjs_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	embeddednats "github.com/clumsies/clumsies/embedded-nats"
	"github.com/clumsies/clumsies/events"
)

// TestLog_DamagedStore cuts the message block of a stream in half with the
// server stopped, as a truncated file or a lost tail would: readers must
// stop with ErrDamaged and say how many messages are missing, never wait
// for a tail that is gone or skip the gap.
func TestLog_DamagedStore(t *testing.T) {
	dir := t.TempDir()
	n := startNode(t, dir, embeddednats.SyncAlways)
	appendN(t, n.open(t), 40)
	n.stop(t)

	blocks, _ := filepath.Glob(filepath.Join(dir, "jetstream", "*", "streams", "*", "msgs", "*.blk"))
	if len(blocks) == 0 {
		t.Fatal("no message block to damage")
	}
	info, err := os.Stat(blocks[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(blocks[0], info.Size()/2); err != nil {
		t.Fatal(err)
	}

	l := startNode(t, dir, embeddednats.SyncAlways).open(t)
	for name, read := range map[string]func(context.Context, uint64, func(events.Event) error) error{
		"Replay": l.Replay, "Subscribe": l.Subscribe,
	} {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			err := read(ctx, 1, func(events.Event) error { return nil })
			if !errors.Is(err, events.ErrDamaged) {
				t.Fatalf("got %v, want ErrDamaged", err)
			}
		})
	}
	// ReplayStored delivers what is left, in order, and returns.
	t.Run("ReplayStored", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		var seqs []uint64
		err := l.ReplayStored(ctx, 1, func(ev events.Event) error {
			if len(ev.Raw) == 0 {
				t.Errorf("seq %d: no stored bytes", ev.Seq)
			}
			seqs = append(seqs, ev.Seq)
			return nil
		})
		if err != nil || len(seqs) == 0 || len(seqs) >= 40 {
			t.Fatalf("got %d events (%v), want the ones left of 40", len(seqs), err)
		}
		for i, s := range seqs {
			if s != uint64(i+1) {
				t.Fatalf("event %d has seq %d, want %d", i, s, i+1)
			}
		}
	})
}
