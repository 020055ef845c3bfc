package natsjs

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/clumsies/clumsies/events"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Log is an events.Log stored in a workspace's JetStream stream. It does not
// own the connection it was opened on; close that when done. A Log is safe
// for concurrent use.
type Log struct {
	js          jetstream.JetStream
	stream      jetstream.Stream
	name        string
	layout      Layout
	workspaceID string // "" for a log of another layout
	sync        Syncer // nil: the server's ack is durable enough
	appending   func() // Options.Appending; nil when not set
	tail        tail   // the newest event this Log appended on a condition
	// replicated is set for a stream of more than one replica, whose
	// appends on a condition always go through the aggregate's check
	// (see tail).
	replicated bool
}

var _ events.Log = (*Log)(nil)

// Open returns the log of workspaceID on nc, creating the workspace's stream
// if it does not exist. It fails with an error wrapping
// events.ErrIncompatible if the stream exists but was made by a newer
// clumsies, by something else, or for other subjects.
func Open(ctx context.Context, nc *nats.Conn, workspaceID string, opts Options) (*Log, error) {
	if !events.ValidWorkspaceID(workspaceID) {
		return nil, fmt.Errorf("open log: %w: workspace id %q", events.ErrMalformed, workspaceID)
	}
	l, err := OpenLayout(ctx, nc, WorkspaceLayout(workspaceID), opts)
	if err != nil {
		return nil, err
	}
	l.workspaceID = workspaceID
	return l, nil
}

// OpenLayout returns the log of layout l on nc, creating its stream if it
// does not exist, as Open does for a workspace's.
func OpenLayout(ctx context.Context, nc *nats.Conn, l Layout, opts Options) (*Log, error) {
	want := StreamConfig(l, opts)
	js, err := newJetStream(nc, opts.Domain)
	if err != nil {
		return nil, fmt.Errorf("open log %s: %w", want.Name, err)
	}
	stream, err := createOrBind(ctx, js, want)
	if err != nil {
		return nil, fmt.Errorf("open log %s: %w", want.Name, err)
	}
	if err := checkCompatible(stream.CachedInfo().Config, want); err != nil {
		return nil, fmt.Errorf("open log %s: %w", want.Name, err)
	}
	if stream, err = fitStream(ctx, js, stream, want); err != nil {
		return nil, fmt.Errorf("open log %s: %w", want.Name, err)
	}
	return &Log{js: js, stream: stream, name: want.Name, layout: l, sync: opts.Sync, appending: opts.Appending,
		replicated: stream.CachedInfo().Config.Replicas > 1}, nil
}

func newJetStream(nc *nats.Conn, domain string) (jetstream.JetStream, error) {
	if domain != "" {
		return jetstream.NewWithDomain(nc, domain)
	}
	return jetstream.New(nc)
}

// createOrBind binds to the stream named in cfg, creating it if missing.
func createOrBind(ctx context.Context, js jetstream.JetStream, cfg jetstream.StreamConfig) (jetstream.Stream, error) {
	stream, err := js.Stream(ctx, cfg.Name)
	if err == nil {
		return stream, nil
	}
	if !errors.Is(err, jetstream.ErrStreamNotFound) {
		return nil, fmt.Errorf("bind stream %s: %w", cfg.Name, err)
	}
	stream, err = js.CreateStream(ctx, cfg)
	if errors.Is(err, jetstream.ErrStreamNameAlreadyInUse) {
		// Someone else created it meanwhile, maybe with other settings.
		stream, err = js.Stream(ctx, cfg.Name)
	}
	if err != nil {
		return nil, fmt.Errorf("create stream %s: %w", cfg.Name, err)
	}
	return stream, nil
}

// Stream returns the name of the log's stream.
func (l *Log) Stream() string { return l.name }

// Append implements events.Log. The event is stored under ev.Subject() with
// its id as Nats-Msg-Id, and Append returns once JetStream has acknowledged
// it. An id already stored within the dedupe window returns the original
// sequence. It fails with an error wrapping events.ErrMalformed if ev does
// not validate or belongs to another workspace.
func (l *Log) Append(ctx context.Context, ev events.Event) (uint64, error) {
	b, err := l.encode(ev)
	if err != nil {
		return 0, err
	}
	return l.publish(ctx, ev, b, jetstream.WithMsgID(ev.ID))
}

// encode encodes ev for this log (its layout).
func (l *Log) encode(ev events.Event) ([]byte, error) { return l.layout.Encode(ev) }

// AppendExpecting implements events.Log with JetStream's own check, made
// by the server as it stores the message: the expected last sequence of
// the aggregate's subjects (Nats-Expected-Last-Subject-Sequence with
// Nats-Expected-Last-Subject-Sequence-Subject). The server makes that
// check before it looks up the message id, so on a conflict the log looks
// for an earlier attempt of the same event among the aggregate's newer
// events: a retried append returns its original sequence, as the contract
// asks.
func (l *Log) AppendExpecting(ctx context.Context, ev events.Event, exp events.Expectation) (uint64, error) {
	seq, _, err := l.appendExpecting(ctx, ev, exp)
	return seq, err
}

// AppendExpectingStored is AppendExpecting that returns the event as it
// was stored, as Replay delivers it: Seq set, Raw the stored bytes, the
// rest decoded from them. A writer that applies its own events to read
// models gives them what they would have read.
func (l *Log) AppendExpectingStored(ctx context.Context, ev events.Event, exp events.Expectation) (events.Event, error) {
	seq, b, err := l.appendExpecting(ctx, ev, exp)
	if err != nil {
		return events.Event{}, err
	}
	var stored events.Event
	if err := l.layout.DecodeStoredInto(&stored, b); err != nil {
		return events.Event{}, &events.StoredError{Seq: seq, Err: err}
	}
	stored.Seq = seq
	return stored, nil
}

// appendExpecting is AppendExpecting returning the bytes it stored too.
func (l *Log) appendExpecting(ctx context.Context, ev events.Event, exp events.Expectation) (uint64, []byte, error) {
	filter, err := l.layout.AggregateSubjects(ev, exp)
	if err != nil {
		return 0, nil, err
	}
	b, err := l.encode(ev)
	if err != nil {
		return 0, nil, err
	}
	if !l.replicated && l.tail.is(filter, exp.LastSeq) {
		// The expectation names the event this Log appended last for the
		// aggregate: if it is still the stream's newest, it is the
		// aggregate's newest too, and the server can tell without reading
		// a message (see tail). Otherwise the aggregate's own check says.
		seq, err := l.publish(ctx, ev, b, jetstream.WithMsgID(ev.ID), jetstream.WithExpectLastSequence(exp.LastSeq))
		if _, wrong := wrongLast(err); !wrong {
			if err == nil {
				l.tail.set(filter, seq)
			}
			return seq, b, err
		}
	}
	seq, err := l.publish(ctx, ev, b, jetstream.WithMsgID(ev.ID),
		jetstream.WithExpectLastSequenceForSubject(exp.LastSeq, filter))
	apiErr, wrong := wrongLast(err)
	if !wrong {
		if err == nil {
			l.tail.set(filter, seq)
		}
		return seq, b, err
	}
	actual := lastFromDescription(apiErr.Description)
	// The server checks the expectation before it looks up the message id,
	// so a retry of an append that was stored conflicts with its own
	// first attempt: look for it among the aggregate's newer events.
	if seq, found, ferr := l.findSince(ctx, ev.ID, exp.LastSeq, filter); ferr != nil {
		return 0, nil, fmt.Errorf("append %s %s: look for an earlier attempt after a conflict: %w", ev.Type, ev.ID, ferr)
	} else if found {
		// The first attempt may have been acknowledged but not synced.
		if err := l.durable(ctx, ev); err != nil {
			return 0, nil, err
		}
		return seq, b, nil // the same event: the same bytes
	}
	return 0, nil, fmt.Errorf("append %s %s: %w", ev.Type, ev.ID, &events.ConflictError{
		Aggregate: exp.Aggregate, Expected: exp.LastSeq, Actual: actual})
}

// wrongLast tells whether err is the server's answer that an expected
// last sequence did not hold.
func wrongLast(err error) (*jetstream.APIError, bool) {
	var apiErr *jetstream.APIError
	if !errors.As(err, &apiErr) {
		return nil, false
	}
	return apiErr, apiErr.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequence ||
		apiErr.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequenceConstant
}

// findSince looks for the event with this id among the events of the
// aggregate's subjects filter after seq last. Only the aggregate's events
// are read, one direct get each: a decision conflicts with few of them.
func (l *Log) findSince(ctx context.Context, id string, last uint64, filter string) (uint64, bool, error) {
	for next := last + 1; ; {
		msg, err := l.stream.GetMsg(ctx, next, jetstream.WithGetMsgSubject(filter))
		if errors.Is(err, jetstream.ErrMsgNotFound) {
			return 0, false, nil
		}
		if err != nil {
			return 0, false, err
		}
		if msg.Header.Get(jetstream.MsgIDHeader) == id {
			return msg.Sequence, true, nil
		}
		next = msg.Sequence + 1
	}
}

// lastFromDescription reads the sequence the server names in its "wrong
// last sequence: N" answer; 0 when it names none.
func lastFromDescription(desc string) uint64 {
	_, num, ok := strings.Cut(desc, ": ")
	if !ok {
		return 0
	}
	n, err := strconv.ParseUint(strings.TrimSpace(num), 10, 64)
	if err != nil {
		return 0
	}
	return n
}

func (l *Log) publish(ctx context.Context, ev events.Event, b []byte, opts ...jetstream.PublishOpt) (uint64, error) {
	if l.appending != nil {
		l.appending()
	}
	ack, err := l.js.Publish(ctx, l.layout.Subject(ev), b, opts...)
	if err != nil {
		if refused(err) {
			return 0, fmt.Errorf("append %s %s: %w: %w", ev.Type, ev.ID, events.ErrRefused, err)
		}
		return 0, fmt.Errorf("append %s %s: %w", ev.Type, ev.ID, err)
	}
	if ack.Stream != l.name {
		return 0, fmt.Errorf("append %s %s: acknowledged by stream %s, want %s", ev.Type, ev.ID, ack.Stream, l.name)
	}
	l.tail.acked(ack.Sequence)
	if err := l.durable(ctx, ev); err != nil {
		return 0, err
	}
	return ack.Sequence, nil
}

// refused reports whether err, of a publish, is an answer that the
// message was not stored: the server's error reply (a full store, a limit,
// a failed expectation) or nobody listening on the subject. A timeout or a
// lost connection is not: the server may have stored the message.
func refused(err error) bool {
	var apiErr *jetstream.APIError
	return errors.As(err, &apiErr) || errors.Is(err, nats.ErrNoResponders) || errors.Is(err, jetstream.ErrNoStreamResponse)
}

// durable makes the acknowledged ev durable through the log's Syncer, if
// it has one.
func (l *Log) durable(ctx context.Context, ev events.Event) error {
	if l.sync == nil {
		return nil
	}
	if err := l.sync.Sync(ctx); err != nil {
		return fmt.Errorf("append %s %s: make it durable: %w", ev.Type, ev.ID, err)
	}
	return nil
}

// LastSeq implements events.Log with one stream info request.
func (l *Log) LastSeq(ctx context.Context) (uint64, error) {
	info, err := l.stream.Info(ctx)
	if err != nil {
		return 0, fmt.Errorf("read last sequence of %s: %w", l.name, err)
	}
	return info.State.LastSeq, nil
}
