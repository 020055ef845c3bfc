package hublink

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// OutcomesStream is the workspace's mirror of the hub ledger's events
// about its workspace (the outcomes of its drafts' reviews).
const OutcomesStream = "HUB_OUTCOMES"

// OutcomesConfig is the configuration of the mirror of the hub ledger's
// events about workspace ws of team in node nodeID's server.
func OutcomesConfig(nodeID, team, ws string) jetstream.StreamConfig {
	return jetstream.StreamConfig{
		Name:        OutcomesStream,
		Description: "clumsies: the hub's events about this workspace (review outcomes)",
		Storage:     jetstream.FileStorage,
		Mirror: &jetstream.StreamSource{
			Name:          hubwire.LedgerStream,
			FilterSubject: hubwire.LedgerSubject(team, ws, ">"),
			External: &jetstream.ExternalStream{
				APIPrefix:     hubwire.APIPrefix,
				DeliverPrefix: hubwire.CatalogDeliverPrefix(nodeID),
			},
		},
	}
}

// FollowOutcomes creates the mirror of the hub's events about the
// workspace (or opens it) and hands each event it holds, from the first,
// then each new one, to apply, in order, until ctx ends. apply is retried
// with the same event while it fails; it must be idempotent (a restart
// hands every event again).
func FollowOutcomes(ctx context.Context, js jetstream.JetStream, nodeID, team, ws string, logger *slog.Logger, apply func(context.Context, hubwire.LedgerEvent) error) {
	for ctx.Err() == nil {
		// Every (re)start hands the events from the first: a kick makes
		// the mirror again, and apply is idempotent.
		var last uint64
		err := func() error {
			st, err := js.CreateOrUpdateStream(ctx, OutcomesConfig(nodeID, team, ws))
			if err != nil {
				return fmt.Errorf("open the mirror of the hub's outcomes: %w", err)
			}
			cons, err := st.OrderedConsumer(ctx, jetstream.OrderedConsumerConfig{
				DeliverPolicy: jetstream.DeliverByStartSequencePolicy, OptStartSeq: last + 1})
			if err != nil {
				return err
			}
			it, err := cons.Messages()
			if err != nil {
				return err
			}
			defer it.Stop()
			stop := context.AfterFunc(ctx, it.Stop)
			defer stop()
			for {
				msg, err := it.Next()
				if err != nil {
					return err
				}
				md, err := msg.Metadata()
				if err != nil {
					return err
				}
				var ev hubwire.LedgerEvent
				if err := json.Unmarshal(msg.Data(), &ev); err != nil {
					logger.Warn("skipped an unreadable event of the hub", "seq", md.Sequence.Stream, "err", err)
				} else {
					for ctx.Err() == nil {
						if err := apply(ctx, ev); err == nil {
							break
						} else {
							logger.Warn("record an outcome of the hub; retrying", "id", ev.ID, "err", err)
						}
						select {
						case <-ctx.Done():
						case <-time.After(time.Second):
						}
					}
				}
				last = md.Sequence.Stream
			}
		}()
		if ctx.Err() != nil {
			return
		}
		logger.Warn("following the hub's outcomes failed; retrying", "err", err)
		select {
		case <-ctx.Done():
		case <-time.After(time.Second):
		}
	}
}

// KickOutcomes makes the mirror of the hub's outcomes again, so that it
// asks the hub at once (see Mirror.Kick); its follower starts over.
func KickOutcomes(ctx context.Context, js jetstream.JetStream, nodeID, team, ws string) error {
	if err := js.DeleteStream(ctx, OutcomesStream); err != nil && !errors.Is(err, jetstream.ErrStreamNotFound) {
		return fmt.Errorf("kick the mirror of the hub's outcomes: %w", err)
	}
	if _, err := js.CreateOrUpdateStream(ctx, OutcomesConfig(nodeID, team, ws)); err != nil {
		return fmt.Errorf("kick the mirror of the hub's outcomes: %w", err)
	}
	return nil
}
