package hub

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// TestNATSLogger_InTheHubsWords: at info level, nats-server's refusals of
// a revoked node's dials are one info line naming the node (a key no node
// has, one warning naming the key), whatever the number of dials; the
// warnings the hub's design makes at every start (the sourcing state
// recovered by a scan, a source whose node is not linked) are debug
// lines; other warnings and errors of the server stay.
func TestNATSLogger_InTheHubsWords(t *testing.T) {
	var out bytes.Buffer
	revoked := hubwire.Node{ID: "n-0123456789abcdef", PublicKey: "UREVOKED", Team: "red", Workspace: "ws-1", Revoked: time.Now()}
	l := newNATSLogger(slog.New(slog.NewTextHandler(&out, &slog.HandlerOptions{Level: slog.LevelInfo})), func(key string) (hubwire.Node, bool) {
		return revoked, key == revoked.PublicKey
	})
	for i := range 5 {
		l.Errorf("%s - lid:%d - %v", "127.0.0.1:4000", i, `authentication error - Nkey "UREVOKED"`)
		l.Errorf("%s - lid:%d - %v", "127.0.0.1:4001", i, `authentication error - Nkey "UNKNOWN"`)
	}
	l.Warnf("Filestore [%s] Sourcing state is outdated; attempting to recover using backward scan (seq %d to %d)", "AGGREGATE", 1, 900)
	l.Warnf("JetStream error response for stream %s create source consumer %s: %s", "AGGREGATE", "CLUMSIES_ws-1", "stream not found (10059)")
	l.Noticef("Starting nats-server")
	l.Warnf("something else %d", 1)
	l.Errorf("another error %d", 2)

	said := out.String()
	lines := strings.Split(strings.TrimSpace(said), "\n")
	if len(lines) != 4 {
		t.Fatalf("the logger said %d lines:\n%s\nwant the revoked node once, the unknown key once, the other warning and error", len(lines), said)
	}
	if !strings.Contains(lines[0], "level=INFO") || !strings.Contains(lines[0], "node="+revoked.ID) || !strings.Contains(lines[0], "revoked") || strings.Contains(lines[0], "UREVOKED") {
		t.Errorf("the revoked node's refusals: %q, want one info line naming the node", lines[0])
	}
	if !strings.Contains(lines[1], "level=WARN") || !strings.Contains(lines[1], "key=UNKNOWN") {
		t.Errorf("the unknown key's refusals: %q, want one warning naming the key", lines[1])
	}
	if !strings.Contains(lines[2], "something else 1") || !strings.Contains(lines[3], "another error 2") {
		t.Errorf("the server's other lines: %q, %q; want them kept", lines[2], lines[3])
	}
}
