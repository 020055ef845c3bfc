package hub

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/nats-io/nats-server/v2/server"
)

// natsLogger passes nats-server's log lines to a slog.Logger. Its notices
// (the start-up banner, versions, listeners) are debug lines: at info
// level the hub's admin hears from clumsies, not from the server inside.
type natsLogger struct{ l *slog.Logger }

var _ server.Logger = natsLogger{}

func newNATSLogger(l *slog.Logger) natsLogger { return natsLogger{l.With("component", "nats-server")} }

func (n natsLogger) log(level slog.Level, format string, v []any) {
	if n.l.Enabled(context.Background(), level) {
		n.l.Log(context.Background(), level, fmt.Sprintf(format, v...))
	}
}

func (n natsLogger) Noticef(format string, v ...any) { n.log(slog.LevelDebug, format, v) }
func (n natsLogger) Warnf(format string, v ...any)   { n.log(slog.LevelWarn, format, v) }
func (n natsLogger) Fatalf(format string, v ...any)  { n.log(slog.LevelError, format, v) }
func (n natsLogger) Errorf(format string, v ...any)  { n.log(slog.LevelError, format, v) }
func (n natsLogger) Debugf(format string, v ...any)  { n.log(slog.LevelDebug, format, v) }
func (n natsLogger) Tracef(format string, v ...any)  { n.log(slog.LevelDebug-4, format, v) }
