package node

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/nats-io/nats.go"

	"github.com/clumsies/clumsies/projections"
)

// The owner's read service answers requests on core NATS subjects
// "clumsiesrpc.<workspaceId>.<method>", outside the stream's subjects
// (clumsies.<workspaceId>.>), so requests are never stored. Bodies are
// JSON; a reply is {"result": ...} or {"error": {"kind", "message"}}.
const rpcPrefix = "clumsiesrpc"

// A reply longer than a NATS message can hold (1 MB by default; a catalog
// listing or the sessions of a busy workspace can be longer) is sent in
// several messages, every one but the last carrying the header moreHeader.
// The requester reads its own inbox until the last one.
const moreHeader = "Clumsies-More"

// chunkSize, when not zero, replaces the connection's limit (tests).
var chunkSize = 0

// respond sends data to reply, in as many messages as it takes.
func respond(nc *nats.Conn, reply string, data []byte) error {
	size := int(nc.MaxPayload()) - 1024
	if chunkSize > 0 {
		size = chunkSize
	}
	for len(data) > size {
		m := nats.NewMsg(reply)
		m.Header.Set(moreHeader, "1")
		m.Data = data[:size]
		if err := nc.PublishMsg(m); err != nil {
			return err
		}
		data = data[size:]
	}
	return nc.Publish(reply, data)
}

// replies receives the replies to one connection's requests on a single
// wildcard subscription (subscribing per request costs the server a
// subscription change each time), and gathers the messages of each.
type replies struct {
	nc     *nats.Conn
	prefix string
	next   atomic.Uint64

	mu      sync.Mutex
	waiting map[string]*reply
}

// reply is the reply to one request, as its messages arrive.
type reply struct {
	data  []byte
	err   error
	done  bool
	ready chan struct{} // closed when done
}

func newReplies(nc *nats.Conn) (*replies, error) {
	r := &replies{nc: nc, prefix: nc.NewInbox(), waiting: map[string]*reply{}}
	sub, err := nc.Subscribe(r.prefix+".*", r.deliver)
	if err != nil {
		return nil, err
	}
	sub.SetPendingLimits(-1, -1)
	return r, nil
}

// deliver runs in the subscription's goroutine, one message at a time,
// in the order the owner sent them.
func (r *replies) deliver(m *nats.Msg) {
	token := m.Subject[len(r.prefix)+1:]
	r.mu.Lock()
	defer r.mu.Unlock()
	p := r.waiting[token]
	if p == nil || p.done {
		return // the requester gave up
	}
	switch {
	case len(m.Data) == 0 && m.Header.Get("Status") == "503":
		p.err = nats.ErrNoResponders
	case m.Header.Get(moreHeader) != "":
		p.data = append(p.data, m.Data...)
		return
	default:
		p.data = append(p.data, m.Data...)
	}
	p.done = true
	close(p.ready)
}

// ask sends a request to subject and returns the whole reply.
func (r *replies) ask(ctx context.Context, subject string, body []byte) ([]byte, error) {
	token := strconv.FormatUint(r.next.Add(1), 36)
	p := &reply{ready: make(chan struct{})}
	r.mu.Lock()
	r.waiting[token] = p
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		delete(r.waiting, token)
		r.mu.Unlock()
	}()
	if err := r.nc.PublishMsg(&nats.Msg{Subject: subject, Reply: r.prefix + "." + token, Data: body}); err != nil {
		return nil, err
	}
	select {
	case <-p.ready:
		return p.data, p.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func rpcSubject(workspaceID, method string) string {
	return rpcPrefix + "." + workspaceID + "." + method
}

type rpcReply struct {
	Result json.RawMessage `json:"result,omitempty"`
	Error  *RemoteError    `json:"error,omitempty"`
}

// The kinds of error the read service returns. The remote side turns them
// back into the sentinels callers test with errors.Is.
const (
	kindNotFound    = "not_found"   // projections.ErrNotFound
	kindProjector   = "projector"   // ErrProjector
	kindUnavailable = "unavailable" // the owner is closing; ask the next one
	kindOther       = "error"
)

// RemoteError is an error the workspace owner returned for a request. It
// matches projections.ErrNotFound, ErrProjector or ErrUnavailable with
// errors.Is when the owner's error did.
type RemoteError struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
}

func (e *RemoteError) Error() string { return e.Message }

// Is reports whether the owner's error matched target.
func (e *RemoteError) Is(target error) bool {
	switch e.Kind {
	case kindNotFound:
		return target == projections.ErrNotFound
	case kindProjector:
		return target == ErrProjector
	case kindUnavailable:
		return target == ErrUnavailable
	}
	return false
}

// remoteError classifies an error of the owner for the wire.
func remoteError(err error) *RemoteError {
	kind := kindOther
	switch {
	case errors.Is(err, projections.ErrNotFound):
		kind = kindNotFound
	case errors.Is(err, ErrProjector):
		kind = kindProjector
	case errors.Is(err, ErrUnavailable), errors.Is(err, projections.ErrClosed),
		errors.Is(err, net.ErrClosed), errors.Is(err, context.Canceled):
		kind = kindUnavailable
	}
	return &RemoteError{Kind: kind, Message: err.Error()}
}

// encodeReply returns the reply to a request that gave v and err.
func encodeReply(v any, err error) []byte {
	var rep rpcReply
	if err != nil {
		rep.Error = remoteError(err)
	} else if rep.Result, err = json.Marshal(v); err != nil {
		rep.Error = remoteError(fmt.Errorf("encode reply: %w", err))
	}
	b, _ := json.Marshal(rep)
	return b
}

// decodeReply decodes a reply into out, or returns its error.
func decodeReply(data []byte, out any) error {
	var rep rpcReply
	if err := json.Unmarshal(data, &rep); err != nil {
		return fmt.Errorf("decode reply: %w", err)
	}
	if rep.Error != nil {
		return rep.Error
	}
	if out == nil || len(rep.Result) == 0 {
		return nil
	}
	if err := json.Unmarshal(rep.Result, out); err != nil {
		return fmt.Errorf("decode reply: %w", err)
	}
	return nil
}
