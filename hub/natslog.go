package hub

import (
	"context"
	"fmt"
	"log/slog"
	"regexp"
	"strings"
	"sync"

	"github.com/nats-io/nats-server/v2/server"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// natsLogger passes nats-server's log lines to a slog.Logger. Its notices
// (the start-up banner, versions, listeners) are debug lines: at info
// level the hub's admin hears from clumsies, not from the server inside.
// Two kinds of the server's lines are said in the hub's words instead:
//
//   - a leaf link the hub's authenticator refused, which nats-server logs
//     as an error naming the key for every dial (a revoked clone's every
//     short command dials), is said once per node, naming the node, at
//     info level (once per key at warn for a key no node has); the
//     server's lines stay at debug;
//   - the warnings the server makes at every start of a hub whose
//     aggregate has sources (expectedWarning) are debug lines.
type natsLogger struct {
	l      *slog.Logger // the hub's logger
	server *slog.Logger // the server's lines
	// nodeByKey finds the node of a public key in the registry.
	nodeByKey func(publicKey string) (hubwire.Node, bool)
	refused   sync.Map // keys whose refusal was said
}

var _ server.Logger = (*natsLogger)(nil)

func newNATSLogger(l *slog.Logger, nodeByKey func(string) (hubwire.Node, bool)) *natsLogger {
	return &natsLogger{l: l, server: l.With("component", "nats-server"), nodeByKey: nodeByKey}
}

func (n *natsLogger) log(level slog.Level, format string, v []any) {
	if n.server.Enabled(context.Background(), level) {
		n.server.Log(context.Background(), level, fmt.Sprintf(format, v...))
	}
}

// refusedKey finds the key of a refused connection in a server's line.
var refusedKey = regexp.MustCompile(`authentication error - Nkey "([A-Z0-9]+)"`)

// refusal says once, in the hub's words, that a key's link was refused,
// and reports whether msg was such a refusal.
func (n *natsLogger) refusal(msg string) bool {
	m := refusedKey.FindStringSubmatch(msg)
	if m == nil {
		return false
	}
	if _, said := n.refused.LoadOrStore(m[1], true); said {
		return true
	}
	node, ok := n.nodeByKey(m[1])
	switch {
	case !ok:
		n.l.Warn("refused a leaf link with a key no node has (said once per key)", "key", m[1])
	case !node.Active():
		n.l.Info("refused the link of a revoked node: its clone keeps dialing until it joins again (said once per node)",
			"node", node.ID, "workspace", node.Workspace, "team", node.Team, "member", node.Member)
	default:
		n.l.Warn("refused the link of a node whose account is not set up yet (said once per node)",
			"node", node.ID, "workspace", node.Workspace, "team", node.Team)
	}
	return true
}

func (n *natsLogger) Noticef(format string, v ...any) { n.log(slog.LevelDebug, format, v) }

func (n *natsLogger) Warnf(format string, v ...any) {
	level := slog.LevelWarn
	if expectedWarning(fmt.Sprintf(format, v...)) {
		level = slog.LevelDebug
	}
	n.log(level, format, v)
}

// expectedWarning reports whether a warning of the server is one the
// hub's design makes at every start, a debug line: the backward scan
// after the hub re-sourced its nodes, and a source whose node is not
// linked (the hub shows links itself: hub nodes, /api/team/nodes).
func expectedWarning(msg string) bool {
	return strings.Contains(msg, "Sourcing state is outdated") ||
		strings.Contains(msg, "create source consumer") && strings.Contains(msg, "stream not found")
}

func (n *natsLogger) Fatalf(format string, v ...any) { n.log(slog.LevelError, format, v) }

func (n *natsLogger) Errorf(format string, v ...any) {
	level := slog.LevelError
	if n.nodeByKey != nil && n.refusal(fmt.Sprintf(format, v...)) {
		level = slog.LevelDebug
	}
	n.log(level, format, v)
}

func (n *natsLogger) Debugf(format string, v ...any) { n.log(slog.LevelDebug, format, v) }
func (n *natsLogger) Tracef(format string, v ...any) { n.log(slog.LevelDebug-4, format, v) }
