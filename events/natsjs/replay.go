package natsjs

import (
	"context"
	"fmt"

	"github.com/clumsies/clumsies/events"
	"github.com/nats-io/nats.go/jetstream"
)

// pullBatch is how many messages the ordered consumer asks for at a time.
const pullBatch = 1000

// Replay implements events.Log. It reads with an ordered consumer from
// max(from, 1) up to the stream's last sequence when Replay starts. A stored
// message that does not decode stops the replay with an error naming its
// sequence.
func (l *Log) Replay(ctx context.Context, from uint64, fn func(events.Event) error) error {
	from = max(from, 1)
	last, err := l.LastSeq(ctx)
	if err != nil {
		return fmt.Errorf("replay: %w", err)
	}
	if last < from {
		return nil
	}
	return l.read(ctx, from, last, fn)
}

// Subscribe implements events.Log: it delivers from max(from, 1) on, in
// order, until ctx ends (returning ctx.Err()) or fn fails.
func (l *Log) Subscribe(ctx context.Context, from uint64, fn func(events.Event) error) error {
	return l.read(ctx, max(from, 1), 0, fn)
}

// read delivers events from sequence from on, through until (0: forever).
func (l *Log) read(ctx context.Context, from, until uint64, fn func(events.Event) error) error {
	cons, err := l.stream.OrderedConsumer(ctx, jetstream.OrderedConsumerConfig{
		DeliverPolicy: jetstream.DeliverByStartSequencePolicy,
		OptStartSeq:   from,
	})
	if err != nil {
		return fmt.Errorf("read %s from %d: %w", l.name, from, err)
	}
	msgs, err := cons.Messages(jetstream.PullMaxMessages(pullBatch))
	if err != nil {
		return fmt.Errorf("read %s from %d: %w", l.name, from, err)
	}
	defer msgs.Stop()
	for {
		msg, err := msgs.Next(jetstream.NextContext(ctx))
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return fmt.Errorf("read %s: %w", l.name, err)
		}
		ev, err := decode(msg)
		if err != nil {
			return err
		}
		if err := fn(ev); err != nil {
			return err
		}
		if until != 0 && ev.Seq >= until {
			return nil
		}
	}
}

// decode turns a stream message into an event with Seq set.
func decode(msg jetstream.Msg) (events.Event, error) {
	meta, err := msg.Metadata()
	if err != nil {
		return events.Event{}, fmt.Errorf("read message metadata: %w", err)
	}
	seq := meta.Sequence.Stream
	ev, err := events.Decode(msg.Data())
	if err != nil {
		return events.Event{}, fmt.Errorf("decode event at seq %d: %w", seq, err)
	}
	ev.Seq = seq
	return ev, nil
}
