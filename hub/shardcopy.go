package hub

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/clumsies/clumsies/events/natsjs"
	"github.com/clumsies/clumsies/hub/hubwire"
)

// A message the aggregate sourced from a shard carries the shard's source
// header, not the node's: nats-server replaces the header at each hop of
// sourcing (its stream.go: "If we are daisy chained here make sure to
// remove the original one"). The node's header, which says the message's
// sequence in the node's ledger and which the projector checks, is on
// the message's copy in its shard, at the sequence the aggregate's header
// names. The projector reads those copies for each batch.

// shardRef names a message of a shard stream.
type shardRef struct {
	shard int
	seq   uint64
}

// shardCopy is what the projector needs of a message in its shard.
type shardCopy struct {
	subject string
	msgID   string // its Nats-Msg-Id: the event's id
	header  string // its Nats-Stream-Source: the node's source
}

// shardRefOf reads the aggregate's source header h of a message sourced
// from a shard ("<shard stream> <seq> ..."); false for any other header
// (a message sourced from a node directly, before the shards).
func shardRefOf(h string) (shardRef, bool) {
	f := strings.Fields(h)
	if len(f) < 2 {
		return shardRef{}, false
	}
	name, _, _ := strings.Cut(f[0], ":")
	k, ok := hubwire.ShardOf(name)
	if !ok {
		return shardRef{}, false
	}
	seq, err := strconv.ParseUint(f[1], 10, 64)
	if err != nil {
		return shardRef{}, false
	}
	return shardRef{shard: k, seq: seq}, true
}

// How the shard copies of a batch are read.
const (
	// shardReads bounds the reads of one batch in flight.
	shardReads = 16
	// shardReadTimeout bounds the reads of one batch.
	shardReadTimeout = 30 * time.Second
)

// shardReader reads messages of the shard streams, each from its
// stream's leader.
type shardReader struct {
	js      jetstream.JetStream
	streams sync.Map // stream name -> jetstream.Stream
}

// copies reads the shard copy of every message of msgs that the
// aggregate sourced from a shard; nil if there is none. A copy its shard
// does not hold (a shard made again after it was lost: shardlost.go) is
// left out of the map; any other failed read fails the batch, read
// again.
func (r *shardReader) copies(msgs []natsjs.Message) (map[shardRef]shardCopy, error) {
	var refs []shardRef
	for _, m := range msgs {
		if ref, ok := shardRefOf(m.Header.Get(streamSourceHeader)); ok {
			refs = append(refs, ref)
		}
	}
	if len(refs) == 0 {
		return nil, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), shardReadTimeout)
	defer cancel()
	got := make([]shardCopy, len(refs))
	errs := make([]error, len(refs))
	slots := make(chan struct{}, shardReads)
	var wg sync.WaitGroup
	for i, ref := range refs {
		slots <- struct{}{}
		wg.Go(func() {
			defer func() { <-slots }()
			got[i], errs[i] = r.read(ctx, ref)
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil && !errors.Is(err, jetstream.ErrMsgNotFound) {
			return nil, err // the first: the others are likely the same
		}
	}
	out := make(map[shardRef]shardCopy, len(refs))
	for i, ref := range refs {
		if errs[i] == nil {
			out[ref] = got[i]
		}
	}
	return out, nil
}

// read reads one message of a shard.
func (r *shardReader) read(ctx context.Context, ref shardRef) (shardCopy, error) {
	name := hubwire.ShardStream(ref.shard)
	var msg *jetstream.RawStreamMsg
	err := retry(ctx, func(ctx context.Context) error {
		st, err := r.stream(ctx, name)
		if err != nil {
			return err
		}
		msg, err = st.GetMsg(ctx, ref.seq)
		return err
	})
	if err != nil {
		return shardCopy{}, fmt.Errorf("read message %d of %s: %w", ref.seq, name, err)
	}
	return shardCopy{subject: msg.Subject, msgID: msg.Header.Get(nats.MsgIdHdr), header: msg.Header.Get(streamSourceHeader)}, nil
}

// stream returns the handle of the named stream, bound once.
func (r *shardReader) stream(ctx context.Context, name string) (jetstream.Stream, error) {
	if st, ok := r.streams.Load(name); ok {
		return st.(jetstream.Stream), nil
	}
	st, err := r.js.Stream(ctx, name)
	if err != nil {
		return nil, err
	}
	r.streams.Store(name, st)
	return st, nil
}
