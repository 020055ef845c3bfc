package hub

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// sourcesSubject is where the hubs of a cluster ask the hub that writes
// the aggregate's sources for a write. Only the writer, the aggregate's
// stream leader (leader.go), subscribes.
const sourcesSubject = "clumsieshub.sources"

// sourcesQueue is the queue group of the writers' subscriptions.
const sourcesQueue = "writer"

// How a hub asks the writer.
const (
	// sourceAskTimeout bounds an ask, its waits for a writer included.
	sourceAskTimeout = time.Minute
	// sourceAskBeat is how often the writer tells the asker it is still
	// at it; sourceAskSilence is how long the asker waits without a word
	// before it asks again (the writer died, or lost its leadership
	// before it answered).
	sourceAskBeat    = time.Second
	sourceAskSilence = 5 * time.Second
	// sourceAskPause is the wait before asking again when no hub writes
	// (an election under way).
	sourceAskPause = 100 * time.Millisecond
)

// sourceAsk asks for a write of the aggregate's sources. The writer
// derives the list from its own copy of the registry, so the ask names
// what that copy must hold before the write is made.
type sourceAsk struct {
	// Joined are nodes the write must source: the writer waits until its
	// copy holds them active and their accounts are set up everywhere.
	Joined []string `json:"joined,omitempty"`
	// Revoked are nodes the write must leave out: the writer waits until
	// its copy holds them revoked.
	Revoked []string `json:"revoked,omitempty"`
	// Kick are nodes to re-source (Hub.kick).
	Kick []string `json:"kick,omitempty"`
	// Shards are shards whose stream leader changed: the writer
	// re-sources each shard's active nodes and the aggregate's source of
	// the shard (leader.go).
	Shards []int `json:"shards,omitempty"`
}

// kicks is what a write for ask re-sources, among r's nodes (read in
// place): its nodes, each active node of its shards, and its shards by
// stream name, whose sources in the aggregate are left out and written
// again like a node's in its shard (sourceLists).
func (ask sourceAsk) kicks(r *registry) []string {
	out := slices.Clone(ask.Kick)
	for _, k := range ask.Shards {
		out = append(out, hubwire.ShardStream(k))
	}
	if len(ask.Shards) == 0 {
		return out
	}
	r.eachNode(func(n *hubwire.Node) {
		if n.Active() && slices.Contains(ask.Shards, n.Shard) {
			out = append(out, n.ID)
		}
	})
	return out
}

// sourceAnswer is the writer's word on an ask: Done once the write is
// made (Error if it failed), not Done while it is under way; Moved when
// the hub asked no longer writes (it lost the aggregate's lead before it
// wrote), and the ask goes to the writer elected next.
type sourceAnswer struct {
	Done  bool   `json:"done,omitempty"`
	Error string `json:"error,omitempty"`
	Moved bool   `json:"moved,omitempty"`
}

// errNoWriter means no hub answered an ask: none writes now.
var errNoWriter = errors.New("no hub of the cluster writes the aggregate's sources now")

// errNotWriter means this hub was asked for a write of the sources, or
// was to make one, after it lost the aggregate's lead: the write is left
// to the hub that leads it now.
var errNotWriter = errors.New("this hub no longer writes the aggregate's sources")

// writesSources reports whether this hub writes the aggregate's sources:
// a hub alone always, a hub of a cluster while it leads the aggregate.
// One writer for the cluster: each write of the whole list goes through
// the cluster's meta layer and is applied by every server, and three hubs
// each writing what they derived made up to three writes per change.
func (h *Hub) writesSources() bool {
	return !h.ns.JetStreamIsClustered() || h.ns.JetStreamIsStreamLeader(hubAccount, hubwire.AggregateStream)
}

// syncSources returns once the aggregate's sources are written as ask
// says, by this hub if it is the writer, else by the writer it asks; an
// ask no hub answers (the writer died, an election is under way) is asked
// again until sourceAskTimeout.
func (h *Hub) syncSources(ctx context.Context, ask sourceAsk) error {
	ctx, cancel := context.WithTimeout(ctx, sourceAskTimeout)
	defer cancel()
	for {
		var err error
		if h.writesSources() {
			err = h.writeAsked(ctx, ask)
		} else {
			err = h.askWriter(ctx, ask)
		}
		if !errors.Is(err, errNoWriter) && !errors.Is(err, errNotWriter) {
			return err
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%w: %w", err, ctx.Err())
		case <-time.After(sourceAskPause):
		}
	}
}

// writeAsked makes the write ask asks for, here: once the registry's copy
// holds what it names, one write coalesced with the others (sourceWrites).
// A write that passed its bound (a cluster too loaded to apply it in
// time) is made again while ctx lasts: the joins waiting for it wait for
// the next one instead of failing with it.
func (h *Hub) writeAsked(ctx context.Context, ask sourceAsk) error {
	if err := h.awaitRegistry(ctx, ask); err != nil {
		return err
	}
	for {
		err := h.sourceWrites.sync(ctx, ask.kicks(h.reg)...)
		if err == nil || ctx.Err() != nil || !errors.Is(err, context.DeadlineExceeded) {
			return err
		}
		h.logger.Warn("a write of the aggregate's sources passed its bound; writing again", "bound", time.Duration(h.sourceWrites.bound.Load()), "err", err)
		select {
		case <-ctx.Done():
			return err
		case <-time.After(sourceAskPause):
		}
	}
}

// awaitRegistry waits until the registry's copy holds ask's joined nodes
// active, with their accounts set up here and at every other hub, and its
// revoked nodes revoked: the copy follows the bucket, and a node joined at
// another hub may not have reached it yet. A copy that still lacks them
// after catchUpAfter reads them from the registry's leader (catchUp),
// then again every catchUpAfter: a copy whose watch lags does not fail
// the joins it writes for.
func (h *Hub) awaitRegistry(ctx context.Context, ask sourceAsk) error {
	const poll = 10 * time.Millisecond
	next := time.Now().Add(catchUpAfter)
	for !h.holds(ask) {
		if time.Now().After(next) {
			next = time.Now().Add(catchUpAfter)
			if err := h.catchUpRegistry(ctx, ask); err != nil {
				h.logger.Warn("read the nodes of a write from the registry's leader", "err", err)
			}
			continue
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("wait for the registry here to hold nodes %v joined and %v revoked: %w", ask.Joined, ask.Revoked, ctx.Err())
		case <-time.After(poll):
		}
	}
	for _, id := range ask.Joined {
		select {
		case <-h.shareAccount(id):
		case <-ctx.Done():
			return fmt.Errorf("wait for every hub to set up the account of %s: %w", id, ctx.Err())
		}
	}
	return nil
}

// catchUpAfter is how long a write waits for its nodes to reach the
// registry's copy through its watch before reading them from the
// registry's leader.
const catchUpAfter = 2 * time.Second

// catchUpRegistry reads ask's nodes from the registry's leader into the
// copy (catchUp) and, if any was missing, applies the copy as a change
// the watch delivered does (accounts, sources, links).
func (h *Hub) catchUpRegistry(ctx context.Context, ask sourceAsk) error {
	applied, err := h.reg.catchUp(ctx, append(slices.Clone(ask.Joined), ask.Revoked...))
	if err != nil || !applied {
		return err
	}
	h.logger.Warn("the registry's copy lagged: read the nodes of a write from its leader", "joined", ask.Joined, "revoked", ask.Revoked)
	return h.syncRegistry(ctx)
}

// holds reports whether the registry's copy holds what ask names.
func (h *Hub) holds(ask sourceAsk) bool {
	for _, id := range ask.Joined {
		if n, ok := h.reg.node(id); !ok || !n.Active() || !h.accounts.ready(id) {
			return false
		}
	}
	for _, id := range ask.Revoked {
		if n, ok := h.reg.node(id); !ok || n.Active() {
			return false
		}
	}
	return true
}

// askWriter asks the writer for ask's write and waits for its answer;
// errNoWriter if no hub answers, or the one that did falls silent.
func (h *Hub) askWriter(ctx context.Context, ask sourceAsk) error {
	b, _ := json.Marshal(ask)
	inbox := h.nc.NewRespInbox()
	sub, err := h.nc.SubscribeSync(inbox)
	if err != nil {
		return fmt.Errorf("ask for a write of the aggregate's sources: %w", err)
	}
	defer func() { _ = sub.Unsubscribe() }()
	if err := h.nc.PublishRequest(sourcesSubject, inbox, b); err != nil {
		return fmt.Errorf("ask for a write of the aggregate's sources: %w", err)
	}
	for {
		wctx, cancel := context.WithTimeout(ctx, sourceAskSilence)
		m, err := sub.NextMsgWithContext(wctx)
		cancel()
		switch {
		case ctx.Err() != nil:
			return fmt.Errorf("wait for the write of the aggregate's sources: %w", ctx.Err())
		case errors.Is(err, context.DeadlineExceeded) || errors.Is(err, nats.ErrNoResponders):
			return errNoWriter
		case err != nil:
			return fmt.Errorf("wait for the write of the aggregate's sources: %w", err)
		case m.Header.Get("Status") == "503": // no responders
			return errNoWriter
		}
		var a sourceAnswer
		if err := json.Unmarshal(m.Data, &a); err != nil {
			return fmt.Errorf("read the writer's answer about the aggregate's sources: %w", err)
		}
		if a.Moved {
			return errNoWriter
		}
		if !a.Done {
			continue
		}
		if a.Error != "" {
			return fmt.Errorf("the hub writing the aggregate's sources: %s", a.Error)
		}
		return nil
	}
}

// serveSourceAsks answers the other hubs' asks (askWriter) until the
// returned subscription is ended: each ask is written by writeAsked, with
// a word to the asker every sourceAskBeat meanwhile. The writers
// subscribe in one queue group, so that while an old writer has not yet
// ended its subscription and the new one has started its own, each ask
// still goes to one of them; one that no longer writes answers Moved.
func (h *Hub) serveSourceAsks() (*nats.Subscription, error) {
	sub, err := h.nc.QueueSubscribe(sourcesSubject, sourcesQueue, func(m *nats.Msg) {
		var ask sourceAsk
		if err := json.Unmarshal(m.Data, &ask); err != nil {
			h.answerAsk(m, sourceAnswer{Done: true, Error: "unreadable ask: " + err.Error()})
			return
		}
		if !h.writesSources() {
			h.answerAsk(m, sourceAnswer{Moved: true})
			return
		}
		go h.answerAskWhenWritten(m, ask)
	})
	if err != nil {
		return nil, fmt.Errorf("answer the cluster's asks for writes of the aggregate's sources: %w", err)
	}
	return sub, nil
}

// answerAskWhenWritten writes what ask asks for and answers m.
func (h *Hub) answerAskWhenWritten(m *nats.Msg, ask sourceAsk) {
	ctx, cancel := context.WithTimeout(context.Background(), sourceAskTimeout)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- h.writeAsked(ctx, ask) }()
	beat := time.NewTicker(sourceAskBeat)
	defer beat.Stop()
	for {
		select {
		case err := <-done:
			a := sourceAnswer{Done: true}
			switch {
			case errors.Is(err, errNotWriter):
				a = sourceAnswer{Moved: true}
			case err != nil:
				a.Error = err.Error()
			}
			h.answerAsk(m, a)
			return
		case <-beat.C:
			h.answerAsk(m, sourceAnswer{})
		}
	}
}

// answerAsk sends a to m's asker; an answer lost makes it ask again.
func (h *Hub) answerAsk(m *nats.Msg, a sourceAnswer) {
	b, _ := json.Marshal(a)
	_ = m.Respond(b)
}
