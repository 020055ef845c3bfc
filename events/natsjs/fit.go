package natsjs

import (
	"context"
	"fmt"

	"github.com/nats-io/nats.go/jetstream"
)

// fitStream sets the dedupe window and the limit per subject of stream,
// made by clumsies, to want's when it has others: a stream created by an
// earlier version keeps its settings otherwise (a dedupe window of 10
// minutes, whose ids the server holds in memory, and no limit, so 8 MB
// blocks; see blockSizeLimit). The rest of its configuration is left as
// it is. A new block size applies from the server's next start.
func fitStream(ctx context.Context, js jetstream.JetStream, stream jetstream.Stream, want jetstream.StreamConfig) (jetstream.Stream, error) {
	cfg := stream.CachedInfo().Config
	if cfg.Duplicates == want.Duplicates && cfg.MaxMsgsPerSubject == want.MaxMsgsPerSubject {
		return stream, nil
	}
	was := cfg
	cfg.Duplicates, cfg.MaxMsgsPerSubject = want.Duplicates, want.MaxMsgsPerSubject
	updated, err := js.UpdateStream(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("set the dedupe window of stream %s from %s to %s and its limit per subject from %d to %d: %w",
			cfg.Name, was.Duplicates, cfg.Duplicates, was.MaxMsgsPerSubject, cfg.MaxMsgsPerSubject, err)
	}
	return updated, nil
}
