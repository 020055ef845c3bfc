package embeddednats

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"

	"github.com/nats-io/nats-server/v2/server"
)

// slogLogger passes nats-server's log lines to a slog.Logger. Debug and trace
// output stay off (the server is given debug=false, trace=false), and its
// notices (the start-up banner, versions, listeners) are debug lines: at
// info level a user hears from clumsies, not from the server inside it.
//
// nats-server's own logger exits the process on Fatalf. This one does not: it
// logs the line at error level and remembers the first one, so that Start can
// stop the half-started server and return the reason as an error.
type slogLogger struct {
	l *slog.Logger

	mu    sync.Mutex
	fatal string
	// writeFailed is closed at the first critical write error of the
	// store (a full disk, an I/O error): nats-server keeps failing that
	// stream's writes from then on, even once the cause is gone.
	writeFailed chan struct{}
	wroteOnce   sync.Once
}

var _ server.Logger = (*slogLogger)(nil)

func newSlogLogger(l *slog.Logger) *slogLogger {
	if l == nil {
		l = slog.New(slog.DiscardHandler)
	}
	return &slogLogger{l: l.With("component", "nats-server"), writeFailed: make(chan struct{})}
}

// Noticef logs at debug level.
func (a *slogLogger) Noticef(format string, v ...any) { a.log(slog.LevelDebug, format, v) }

// Warnf logs at warn level.
func (a *slogLogger) Warnf(format string, v ...any) { a.log(slog.LevelWarn, format, v) }

// Errorf logs at error level, and notes a critical write error of the
// store (see writeFailed).
func (a *slogLogger) Errorf(format string, v ...any) {
	if strings.Contains(strings.ToLower(fmt.Sprintf(format, v...)), "critical write error") {
		a.wroteOnce.Do(func() { close(a.writeFailed) })
	}
	a.log(slog.LevelError, format, v)
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
