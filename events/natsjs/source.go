package natsjs

import (
	"context"
	"fmt"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Source reads a stream that this process does not write, such as the
// hub's aggregate, whose messages the server sources from the nodes'
// ledgers. Unlike a Log it creates nothing and decodes nothing: it hands
// over each message as stored, with its sequence, subject and headers, so
// that a reader can check where a message came from before it trusts its
// bytes (and go on past one it refuses). A Source is safe for concurrent
// use; it does not own its connection.
type Source struct {
	js     jetstream.JetStream
	stream jetstream.Stream
	name   string
}

// Message is one stored message of a Source.
type Message struct {
	Seq     uint64
	Subject string
	Header  nats.Header
	// Data is the message's bytes; the reader may keep them.
	Data []byte
	// Pending is how many messages the stream held after this one when
	// it was delivered: 0 at the end of what the stream holds.
	Pending uint64
}

// OpenSource binds the existing stream name on nc (in opts.Domain); it
// fails with an error wrapping jetstream.ErrStreamNotFound when there is
// none yet.
func OpenSource(ctx context.Context, nc *nats.Conn, name string, opts Options) (*Source, error) {
	js, err := newJetStream(nc, opts.Domain)
	if err != nil {
		return nil, fmt.Errorf("open source %s: %w", name, err)
	}
	stream, err := js.Stream(ctx, name)
	if err != nil {
		return nil, fmt.Errorf("open source %s: %w", name, err)
	}
	return &Source{js: js, stream: stream, name: name}, nil
}

// LastSeq returns the sequence of the stream's newest message, 0 when it
// holds none.
func (s *Source) LastSeq(ctx context.Context) (uint64, error) {
	info, err := s.stream.Info(ctx)
	if err != nil {
		return 0, fmt.Errorf("read last sequence of %s: %w", s.name, err)
	}
	return info.State.LastSeq, nil
}

// Replay calls fn, in order, for every message with Seq >= from that the
// stream holds when Replay starts, and stops at fn's first error,
// returning it.
func (s *Source) Replay(ctx context.Context, from uint64, fn func(Message) error) error {
	from = max(from, 1)
	last, err := s.LastSeq(ctx)
	if err != nil {
		return fmt.Errorf("replay: %w", err)
	}
	if last < from {
		return nil
	}
	return s.read(ctx, from, last, fn)
}

// Subscribe is Replay that keeps going: it delivers new messages in
// order until ctx ends (returning ctx.Err()), fn fails (returning its
// error) or the consumer stops.
func (s *Source) Subscribe(ctx context.Context, from uint64, fn func(Message) error) error {
	return s.read(ctx, max(from, 1), 0, fn)
}

// read delivers the messages from sequence from on, through until (0:
// forever).
func (s *Source) read(ctx context.Context, from, until uint64, fn func(Message) error) error {
	cons, err := s.stream.OrderedConsumer(ctx, jetstream.OrderedConsumerConfig{
		DeliverPolicy: jetstream.DeliverByStartSequencePolicy,
		OptStartSeq:   from,
	})
	if err != nil {
		return fmt.Errorf("read %s from %d: %w", s.name, from, err)
	}
	defer dropConsumer(ctx, s.js, s.name, cons)
	return consume(ctx, s.name, cons, askFor(until), func(msg jetstream.Msg) (bool, error) {
		meta, err := msg.Metadata()
		if err != nil {
			return false, fmt.Errorf("read %s: message metadata: %w", s.name, err)
		}
		m := Message{Seq: meta.Sequence.Stream, Subject: msg.Subject(), Header: msg.Headers(), Data: msg.Data(), Pending: meta.NumPending}
		if err := fn(m); err != nil {
			return false, err
		}
		return until != 0 && m.Seq >= until, nil
	})
}
