package node

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"

	"github.com/nats-io/nats.go"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/events/natsjs"
)

// remote is the backend of a process that does not own the workspace: a
// NATS connection to the owner's server over the owner's socket. The event
// log is the JetStream stream itself; reads and waits go to the owner's
// read service.
type remote struct {
	wsID    string
	nc      *nats.Conn
	lg      *natsjs.Log
	replies *replies
	// gone ends when the connection to the owner is lost; every request
	// in flight then fails at once.
	gone   context.Context
	cancel context.CancelFunc
}

// errNotReady means that nobody answers on the owner's socket yet: the
// owner is starting, or has just died.
var errNotReady = errors.New("node: the workspace owner does not answer yet")

// dialRemote connects to the owner through its socket (see SocketPath
// of stateDir). It returns
// an error wrapping errNotReady when there is nobody to talk to.
func dialRemote(ctx context.Context, wsID, stateDir string, logger *slog.Logger) (*remote, error) {
	gone, cancel := context.WithCancel(context.Background())
	// nats.go wants a URL; the dialer ignores it and uses the socket. No
	// reconnects: when the owner goes, the Handle finds the next one.
	nc, err := nats.Connect("nats://127.0.0.1:4222",
		nats.SetCustomDialer(socketDialer{stateDir}),
		nats.NoReconnect(),
		nats.Name(fmt.Sprintf("clumsies pid %d", os.Getpid())),
		nats.Timeout(dialTimeout),
		nats.ClosedHandler(func(*nats.Conn) { cancel() }),
		nats.DisconnectErrHandler(func(*nats.Conn, error) { cancel() }),
		// nats.go prints asynchronous errors to stderr by default; a lost
		// owner's broken pipe is expected.
		nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) {
			logger.Debug("connection to the workspace owner", "err", err)
		}),
	)
	if err != nil {
		cancel()
		return nil, fmt.Errorf("%w: connect to the owner socket of %s: %w", errNotReady, stateDir, err)
	}
	rs, err := newReplies(nc)
	if err != nil {
		nc.Close()
		cancel()
		return nil, fmt.Errorf("%w: %w", errNotReady, err)
	}
	r := &remote{wsID: wsID, nc: nc, replies: rs, gone: gone, cancel: cancel}
	lg, err := natsjs.Open(ctx, nc, wsID, natsjs.Options{Sync: &remoteSync{r: r}})
	if err != nil {
		nc.Close()
		cancel()
		if errors.Is(err, events.ErrIncompatible) || errors.Is(err, events.ErrMalformed) {
			return nil, err
		}
		return nil, fmt.Errorf("%w: %w", errNotReady, err)
	}
	r.lg = lg
	return r, nil
}

// request asks the owner's read service and decodes the result into out.
func (r *remote) request(ctx context.Context, method string, in, out any) error {
	body, err := json.Marshal(in)
	if err != nil {
		return fmt.Errorf("encode %s request: %w", method, err)
	}
	reply, err := r.replies.ask(ctx, rpcSubject(r.wsID, method), body)
	if err != nil {
		return fmt.Errorf("ask the workspace owner (%s): %w", method, err)
	}
	return decodeReply(reply, out)
}

func (r *remote) log() events.Log       { return r.lg }
func (r *remote) lost() context.Context { return r.gone }
func (r *remote) isOwner() bool         { return false }

func (r *remote) close() error {
	r.nc.Close()
	r.cancel()
	return nil
}
