package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/events/natsjs"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Pull settings: at most batchSize events per pull, waiting at most
// pullWait for the first one, so that the loop notices a stop and can print
// between pulls.
const (
	batchSize  = 100
	pullWait   = time.Second
	ackTimeout = 5 * time.Second
)

// config says where the events are and how to report them.
type config struct {
	url     string        // NATS server URL
	token   string        // client token, if the server wants one
	ws      string        // workspace id; empty with stream set: every workspace in it
	stream  string        // stream name; empty: natsjs.StreamName(ws)
	durable string        // name of the durable consumer
	every   time.Duration // how often run prints the counts
	state   string        // file to keep the counts in; empty: memory only
}

func (c config) streamName() string {
	if c.stream != "" {
		return c.stream
	}
	return natsjs.StreamName(c.ws)
}

// filter is the subject filter of the consumer: the tool events (attest.*)
// of the workspace, or of every workspace when none is named.
func (c config) filter() string {
	ws := c.ws
	if ws == "" {
		ws = "*"
	}
	return events.SubjectPrefix + "." + ws + ".attest.>"
}

// consumer counts tool events read through a durable pull consumer. The
// server remembers which events were acknowledged, so a new consumer with
// the same durable name starts after the last acknowledged event.
type consumer struct {
	nc    *nats.Conn
	cons  jetstream.Consumer
	tally *tally
	state string
	wait  time.Duration // how long a pull waits for its first event
}

// openConsumer connects to the server, loads the saved counts and creates
// the durable consumer, or binds to it if it exists.
func openConsumer(ctx context.Context, cfg config) (*consumer, error) {
	t, err := loadTally(cfg.state)
	if err != nil {
		return nil, err
	}
	opts := []nats.Option{nats.Name("clumsies-analytics")}
	if cfg.token != "" {
		opts = append(opts, nats.Token(cfg.token))
	}
	nc, err := nats.Connect(cfg.url, opts...)
	if err != nil {
		return nil, fmt.Errorf("connect to %s: %w", cfg.url, err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		return nil, fmt.Errorf("use jetstream: %w", err)
	}
	cons, err := js.CreateOrUpdateConsumer(ctx, cfg.streamName(), jetstream.ConsumerConfig{
		Durable:       cfg.durable,
		Description:   "clumsies analytics example: tool call counts",
		FilterSubject: cfg.filter(),
		DeliverPolicy: jetstream.DeliverAllPolicy,
		AckPolicy:     jetstream.AckExplicitPolicy,
	})
	if err != nil {
		nc.Close()
		return nil, fmt.Errorf("create consumer %s on %s: %w", cfg.durable, cfg.streamName(), err)
	}
	if err := sayWhereItResumes(ctx, cons, cfg, t); err != nil {
		nc.Close()
		return nil, err
	}
	return &consumer{nc: nc, cons: cons, tally: t, state: cfg.state, wait: pullWait}, nil
}

// sayWhereItResumes logs where the durable consumer carries on: after the
// last event acknowledged under its name, by this program or by any other
// reader that used the same name.
func sayWhereItResumes(ctx context.Context, cons jetstream.Consumer, cfg config, t *tally) error {
	info, err := cons.Info(ctx)
	if err != nil {
		return fmt.Errorf("read consumer %s: %w", cfg.durable, err)
	}
	if info.AckFloor.Stream == 0 {
		log.Printf("consumer %s on %s starts at the beginning of the ledger; %d events wait", cfg.durable, cfg.streamName(), info.NumPending)
		return nil
	}
	log.Printf("consumer %s on %s resumes after stream seq %d, the last event acknowledged under that name (%d wait; counts kept through seq %d)",
		cfg.durable, cfg.streamName(), info.AckFloor.Stream, info.NumPending, t.LastSeq)
	return nil
}

// close drops the connection; the durable consumer stays on the server.
func (c *consumer) close() { c.nc.Close() }

// pull fetches one batch, counts it, saves the counts and then acks every
// message, in that order: an event is acknowledged only once its count is
// kept. It returns how many events it counted.
func (c *consumer) pull(ctx context.Context) (int, error) {
	fctx, cancel := context.WithTimeout(ctx, c.wait)
	defer cancel()
	batch, err := c.cons.Fetch(batchSize, jetstream.FetchContext(fctx))
	if err != nil {
		return 0, fmt.Errorf("fetch events: %w", err)
	}
	var done []jetstream.Msg
	counted := 0
	for msg := range batch.Messages() {
		ok, err := c.apply(msg)
		if err != nil {
			return counted, err // not acked: delivered again after the ack wait
		}
		if ok {
			counted++
		}
		done = append(done, msg)
	}
	if err := c.commit(ctx, done); err != nil {
		return counted, err
	}
	if err := batch.Error(); err != nil && fctx.Err() == nil {
		return counted, fmt.Errorf("fetch events: %w", err)
	}
	return counted, nil
}

// apply decodes msg and counts it. A message that is not an event, or whose
// payload does not decode, is reported, terminated (never delivered again)
// and not counted; an event of a newer clumsies stops the consumer, which
// needs an upgrade.
func (c *consumer) apply(msg jetstream.Msg) (bool, error) {
	meta, err := msg.Metadata()
	if err != nil {
		return false, fmt.Errorf("read message metadata: %w", err)
	}
	ev, err := events.Decode(msg.Data())
	switch {
	case errors.Is(err, events.ErrIncompatible):
		return false, fmt.Errorf("decode event at seq %d: %w", meta.Sequence.Stream, err)
	case err != nil:
		log.Printf("skip seq %d on %s: %v", meta.Sequence.Stream, msg.Subject(), err)
		return false, msg.Term()
	}
	ev.Seq = meta.Sequence.Stream
	ok, err := c.tally.apply(ev)
	if err != nil {
		log.Printf("skip seq %d on %s: %v", ev.Seq, msg.Subject(), err)
		return false, msg.Term()
	}
	return ok, nil
}

// commit saves the counts, if they are kept in a file, and then acks msgs
// and waits for the server to confirm, so that a restart right after does
// not see them again. It runs to the end even when ctx has just ended.
func (c *consumer) commit(ctx context.Context, msgs []jetstream.Msg) error {
	if len(msgs) == 0 {
		return nil
	}
	if c.state != "" {
		if err := saveTally(c.state, c.tally); err != nil {
			return err
		}
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), ackTimeout)
	defer cancel()
	for _, msg := range msgs {
		if err := msg.DoubleAck(ctx); err != nil {
			return fmt.Errorf("ack %s: %w", msg.Subject(), err)
		}
	}
	return nil
}
