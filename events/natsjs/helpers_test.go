package natsjs_test

import (
	"context"
	"errors"
	"net"
	"testing"
	"time"

	embeddednats "github.com/clumsies/clumsies/embedded-nats"
	"github.com/clumsies/clumsies/events/eventstest"
	"github.com/clumsies/clumsies/events/natsjs"
	"github.com/nats-io/nats.go"
)

// workspace is the workspace every test log belongs to.
const workspace = eventstest.WorkspaceID

// node is a running embedded server with one client connection.
type node struct {
	srv *embeddednats.Server
	nc  *nats.Conn
}

// startNode starts an embedded server on dir and connects to it. Both are
// closed when the test ends, unless stop closed them before.
func startNode(tb testing.TB, dir string, sync embeddednats.SyncMode) *node {
	tb.Helper()
	srv := &embeddednats.Server{Dir: dir, Sync: sync}
	if err := srv.Start(); err != nil {
		tb.Fatalf("start server: %v", err)
	}
	nc, err := srv.Connect()
	if err != nil {
		srv.Close()
		tb.Fatalf("connect: %v", err)
	}
	n := &node{srv: srv, nc: nc}
	tb.Cleanup(func() { n.stop(tb) })
	return n
}

// stop closes the connection and the server; it may be called twice.
func (n *node) stop(tb testing.TB) {
	tb.Helper()
	n.nc.Close()
	if err := n.srv.Close(); err != nil && !errors.Is(err, net.ErrClosed) {
		tb.Errorf("close server: %v", err)
	}
}

// open opens the test workspace's log on n.
func (n *node) open(tb testing.TB) *natsjs.Log {
	tb.Helper()
	l, err := natsjs.Open(testCtx(tb), n.nc, workspace, natsjs.Options{})
	if err != nil {
		tb.Fatalf("Open: %v", err)
	}
	return l
}

// testCtx returns a context that ends with the test or after 30 seconds.
func testCtx(tb testing.TB) context.Context {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	tb.Cleanup(cancel)
	return ctx
}
