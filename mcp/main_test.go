package mcp

import (
	"context"
	"log/slog"
	"os"
	"testing"

	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections"
)

// serveEnv, when set, makes the test binary an MCP server over its stdio,
// for TestConnectCommand.
const serveEnv = "CLUMSIES_MCP_TEST_SERVE"

func TestMain(m *testing.M) {
	if os.Getenv(serveEnv) != "" {
		os.Exit(serveForTest())
	}
	os.Exit(m.Run())
}

// serveForTest serves an empty workspace over stdin and stdout until stdin
// closes.
func serveForTest() int {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	log := events.NewMemoryLog()
	st, err := projections.Open("/p", projections.Options{FS: vfs.NewMem(), Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		return 1
	}
	go func() { _ = st.Run(ctx, log) }()
	srv := NewServer(Config{WorkspaceID: testWorkspace, Catalog: st, Ledger: LogLedger{Log: log, Store: st}})
	if err := srv.ServeStdio(ctx, os.Stdin, os.Stdout); err != nil {
		return 1
	}
	return 0
}
