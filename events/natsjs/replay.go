package natsjs

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/clumsies/clumsies/events"
	"github.com/nats-io/nats.go/jetstream"
)

// pullBatch is how many messages the ordered consumer asks for at a time.
// Measured on a 2-core machine, 2000 replays a little faster than the
// library's default of 500; decoding, not reading, is the bottleneck.
const pullBatch = 2000

// Replays ask by count (they run to the end at full speed), subscriptions
// by bytes (their readers may be slow; see follow).
//
// followBytes bounds, in bytes, what a Subscribe asks for at a time, and so
// what a subscriber that does not keep up holds in memory: one pull of at
// most this much, which fits the largest event. A count of messages would
// not bound it (2000 events of several MiB each).
const followBytes = events.MaxEventSize + 1<<20

// followCount bounds, in events, what a Subscribe asks for at a time: a
// subscriber catching up with many small events holds at most this many
// (an 8 MiB pull of 1 KB events, decoded by nats.go, was 13 MB of heap).
const followCount = 256

// dropTimeout bounds the clean-up request after a replay.
const dropTimeout = 2 * time.Second

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
// It fails with an error wrapping events.ErrDamaged, naming the first
// missing sequence, when the stream has lost messages: before it starts
// (the stream's counts disagree with its sequences; a replay would wait
// for a tail that is gone) and as soon as a delivered sequence skips one.
func (l *Log) read(ctx context.Context, from, until uint64, fn func(events.Event) error) error {
	if err := l.checkIntact(ctx); err != nil {
		return err
	}
	return l.readStored(ctx, from, until, true, fn)
}

// ReplayStored is Replay of whatever the stream holds, damaged or not: it
// skips no sequence it has and fails on none it lacks, so that a check of
// the ledger (ledger.Check) can name the first one missing. Events come
// with Seq and Raw set; one that does not decode stops it with a
// *events.StoredError.
//
// It stops at the stream's last sequence or once it has delivered as many
// messages as the stream says it holds, whichever comes first, so that a
// lost tail does not keep it waiting. (With from > 1 the count is not
// known; a lost tail then waits until ctx ends.)
func (l *Log) ReplayStored(ctx context.Context, from uint64, fn func(events.Event) error) error {
	from = max(from, 1)
	info, err := l.stream.Info(ctx)
	if err != nil {
		return fmt.Errorf("replay: %w", err)
	}
	last, held := info.State.LastSeq, info.State.Msgs
	if last < from || held == 0 {
		return nil
	}
	var n uint64
	errHeld := errors.New("all held messages delivered")
	err = l.readStored(ctx, from, last, false, func(ev events.Event) error {
		if err := fn(ev); err != nil {
			return err
		}
		if n++; from == 1 && n >= held {
			return errHeld
		}
		return nil
	})
	if errors.Is(err, errHeld) {
		return nil
	}
	return err
}

// readStored delivers the stored events from sequence from on, through
// until (0: forever); with strict, a skipped sequence fails with an error
// wrapping events.ErrDamaged.
func (l *Log) readStored(ctx context.Context, from, until uint64, strict bool, fn func(events.Event) error) error {
	cons, err := l.stream.OrderedConsumer(ctx, jetstream.OrderedConsumerConfig{
		DeliverPolicy: jetstream.DeliverByStartSequencePolicy,
		OptStartSeq:   from,
	})
	if err != nil {
		return fmt.Errorf("read %s from %d: %w", l.name, from, err)
	}
	defer l.dropConsumer(ctx, cons)
	return l.follow(ctx, cons, from, until, strict, fn)
}

// checkIntact fails with an error wrapping events.ErrDamaged when the
// stream holds fewer messages than its sequences say: the ledger is
// append-only (DenyDelete, DenyPurge), so every sequence from 1 to the last
// must be there.
func (l *Log) checkIntact(ctx context.Context) error {
	info, err := l.stream.Info(ctx)
	if err != nil {
		return fmt.Errorf("read %s: %w", l.name, err)
	}
	st := info.State
	if st.LastSeq == 0 {
		return nil
	}
	if st.FirstSeq != 1 || st.Msgs != st.LastSeq {
		missing := st.LastSeq - st.Msgs
		if st.Msgs > st.LastSeq {
			missing = 0
		}
		return fmt.Errorf("read %s: %w: it holds %d messages for sequences %d to %d (%d missing); restore the stream's store from a backup",
			l.name, events.ErrDamaged, st.Msgs, st.FirstSeq, st.LastSeq, missing)
	}
	return nil
}

// dropConsumer deletes the server side of a finished ordered consumer, so
// that frequent replays do not pile up consumers. It is best effort: the
// server also removes an idle ordered consumer by itself after five minutes.
func (l *Log) dropConsumer(ctx context.Context, cons jetstream.Consumer) {
	dropConsumer(ctx, l.js, l.name, cons)
}

// dropConsumer deletes the server side of cons, a finished ordered
// consumer of stream name, best effort.
func dropConsumer(ctx context.Context, js jetstream.JetStream, name string, cons jetstream.Consumer) {
	info := cons.CachedInfo()
	if info == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), dropTimeout)
	defer cancel()
	_ = js.DeleteConsumer(ctx, name, info.Name)
}

// decode turns a stream message into an event with Seq and Raw set, in
// ev (overwritten whole).
func (l *Log) decode(msg jetstream.Msg, ev *events.Event) error {
	meta, err := msg.Metadata()
	if err != nil {
		*ev = events.Event{}
		return fmt.Errorf("read message metadata: %w", err)
	}
	seq := meta.Sequence.Stream
	// The message's bytes are its own (nats.go copies every payload it
	// reads) and stay the event's Raw: the event may share them.
	if err := l.layout.DecodeStoredInto(ev, msg.Data()); err != nil {
		return &events.StoredError{Seq: seq, Err: err}
	}
	ev.Seq = seq
	return nil
}
