package natsjs

import (
	"context"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// fitDedupeWindow sets the dedupe window of stream, made by clumsies, to
// window when it has another: a stream created by an earlier version
// keeps the window it was created with otherwise (10 minutes before
// 2 minutes was the default), and the server holds every id of the
// window in memory. The rest of the stream's configuration is left as it
// is.
func fitDedupeWindow(ctx context.Context, js jetstream.JetStream, stream jetstream.Stream, window time.Duration) (jetstream.Stream, error) {
	cfg := stream.CachedInfo().Config
	if cfg.Duplicates == window {
		return stream, nil
	}
	was := cfg.Duplicates
	cfg.Duplicates = window
	updated, err := js.UpdateStream(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("set the dedupe window of stream %s from %s to %s: %w", cfg.Name, was, window, err)
	}
	return updated, nil
}
