// Package projectionstest gives tests of the packages above projections a
// real read-model store without a disk.
package projectionstest

import (
	"context"
	"log/slog"
	"testing"

	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections"
)

// Following opens a real pebble store on vfs.NewMem() and keeps it
// applying log until the test ends, when it stops and closes it.
func Following(tb testing.TB, log events.Log) *projections.Store {
	tb.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	store, err := projections.Open("/projections", projections.Options{FS: vfs.NewMem(), Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		cancel()
		tb.Fatalf("open projections: %v", err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = store.Run(ctx, log)
	}()
	tb.Cleanup(func() {
		cancel()
		<-done
		_ = store.Close()
	})
	return store
}
