package embeddednats

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/nats-io/nats-server/v2/server"
)

// slogLogger passes nats-server's log lines to a slog.Logger. Debug and trace
// output stay off (the server is given debug=false, trace=false), and its
// notices (the start-up banner, versions, listeners) are debug lines: at
// info level a user hears from clumsies, not from the server inside it.
//
// The server's refusals of a client (a permission it lacks, a limit, a
// failed authentication: a reader's mistakes, which a reader can repeat at
// will) and the failed dials of the hub are debug lines too: the first are
// counted (Server.Refused), the second said once in clumsies' words
// (leafDown).
//
// nats-server's own logger exits the process on Fatalf. This one does not: it
// logs the line at error level and remembers the first one, so that Start can
// stop the half-started server and return the reason as an error.
type slogLogger struct {
	l    *slog.Logger // the lines of nats-server
	base *slog.Logger // clumsies' own lines

	mu    sync.Mutex
	fatal string
	// writeFailed is closed at the first critical write error of the
	// store (a full disk, an I/O error): nats-server keeps failing that
	// stream's writes from then on, even once the cause is gone.
	writeFailed chan struct{}
	wroteOnce   sync.Once

	// refused counts the operations the server refused a client.
	refused atomic.Uint64
	// leaf is the hub link whose failed dials are said once, at warn
	// level unless it is Quiet; nil without a link.
	leaf     *Leaf
	leafOnce sync.Once
}

var _ server.Logger = (*slogLogger)(nil)

func newSlogLogger(l *slog.Logger, leaf *Leaf) *slogLogger {
	if l == nil {
		l = slog.New(slog.DiscardHandler)
	}
	return &slogLogger{l: l.With("component", "nats-server"), base: l, writeFailed: make(chan struct{}), leaf: leaf}
}

// Noticef logs at debug level.
func (a *slogLogger) Noticef(format string, v ...any) { a.log(slog.LevelDebug, format, v) }

// Warnf logs at warn level; a JetStream request's error answer (the
// requester has it) at debug level.
func (a *slogLogger) Warnf(format string, v ...any) {
	if strings.HasPrefix(format, "JetStream error response") {
		a.log(slog.LevelDebug, format, v)
		return
	}
	a.log(slog.LevelWarn, format, v)
}

// Errorf logs at error level, and notes a critical write error of the
// store (see writeFailed). A refusal of a client and a failed dial of the
// hub are debug lines (see slogLogger).
func (a *slogLogger) Errorf(format string, v ...any) {
	msg := fmt.Sprintf(format, v...)
	switch {
	case isRefusal(msg):
		a.refused.Add(1)
		a.log(slog.LevelDebug, format, v)
		return
	case strings.HasPrefix(format, "Error trying to connect as leafnode"):
		a.leafDown(msg)
		a.log(slog.LevelDebug, format, v)
		return
	case strings.Contains(msg, "Leafnode Error 'Authorization Violation'"): // the hub refuses the link
		a.leafRefused()
		a.log(slog.LevelDebug, format, v)
		return
	}
	if strings.Contains(strings.ToLower(msg), "critical write error") {
		a.wroteOnce.Do(func() { close(a.writeFailed) })
	}
	a.log(slog.LevelError, format, v)
}

// refusals are what nats-server's error lines say when it refuses a
// client an operation (client.go: permission violations, limits,
// authentication).
var refusals = []string{
	"Publish Violation", "Subscription Violation", server.ErrAuthentication.Error(),
	server.ErrTooManySubs.Error(), server.ErrTooManyConnections.Error(),
	server.ErrTooManyAccountConnections.Error(), server.ErrMaxPayload.Error(),
}

// isRefusal reports whether an error line of nats-server is a refusal of
// a client.
func isRefusal(msg string) bool {
	for _, r := range refusals {
		if strings.Contains(msg, r) {
			return true
		}
	}
	return false
}

// leafDown says once, in clumsies' words, that the hub cannot be reached.
func (a *slogLogger) leafDown(msg string) {
	reason := msg
	if i := strings.LastIndex(msg, "): "); i >= 0 {
		reason = msg[i+len("): "):]
	}
	a.sayLeaf("the hub at %s cannot be reached (%s); the workspace works on and dials it again every %s (clumsies hub status tells when the link is up)", reason, leafReconnect)
}

// leafRefused says once, in clumsies' words, that the hub refuses the
// link.
func (a *slogLogger) leafRefused() {
	a.sayLeaf("the hub at %s refuses this node's link (authorization violation): the node was revoked, or its key is not the one the hub knows; the workspace works on without the hub (clumsies hub status tells more)")
}

// sayLeaf logs the first of the link's problems at warn level, unless the
// link is Quiet; format's first verb is the hub's URL.
func (a *slogLogger) sayLeaf(format string, v ...any) {
	if a.leaf == nil || a.leaf.Quiet {
		return
	}
	a.leafOnce.Do(func() {
		a.base.Warn(fmt.Sprintf(format, append([]any{a.leaf.URL}, v...)...), "component", "hublink")
	})
}

// Debugf logs at debug level.
func (a *slogLogger) Debugf(format string, v ...any) { a.log(slog.LevelDebug, format, v) }

// Tracef logs at debug level; slog has nothing finer.
func (a *slogLogger) Tracef(format string, v ...any) { a.log(slog.LevelDebug, format, v) }

// Fatalf logs at error level and records the message for fatalError.
func (a *slogLogger) Fatalf(format string, v ...any) {
	msg := fmt.Sprintf(format, v...)
	a.mu.Lock()
	if a.fatal == "" {
		a.fatal = msg
	}
	a.mu.Unlock()
	a.l.Error(msg, "fatal", true)
}

// fatalError returns the first Fatalf message as an error, or nil.
func (a *slogLogger) fatalError() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.fatal == "" {
		return nil
	}
	return fmt.Errorf("nats-server: %s", a.fatal)
}

func (a *slogLogger) log(level slog.Level, format string, v []any) {
	ctx := context.Background()
	if !a.l.Enabled(ctx, level) {
		return
	}
	a.l.Log(ctx, level, fmt.Sprintf(format, v...))
}
